from typing import Annotated

from fastapi import APIRouter, Query

from headroom.api.deps import DatasetRead
from headroom.datasets.slices_query import SLICE_ERRORS, Slice
from headroom.forecasts import service
from headroom.forecasts.schemas import ForecastOut

router = APIRouter(prefix="/datasets", tags=["forecasts"])


@router.get("/{dataset_id}/forecast", response_model=ForecastOut, responses=SLICE_ERRORS)
def get_forecast(
    read: DatasetRead,
    slice_: Slice,
    horizon_days: Annotated[int, Query(ge=1, le=366)] = 28,
    limit_per_s: Annotated[float | None, Query(gt=0)] = None,
) -> ForecastOut:
    """The dataset's hourly traffic forecast with its 80% interval, growth per week, the
    cycles found, the runway to `limit_per_s` (default: MaxRate(T) x servers of its newest
    capacity analysis) and the backtest; with a range (and filters), from that slice's
    history only (`history_slice` says which). A plain `def`: FastAPI runs it in a worker
    thread, off the event loop."""
    return service.dataset_forecast(*read, horizon_days, limit_per_s, slice_.given)
