from typing import Annotated

from fastapi import APIRouter, Query

from headroom.api.deps import CurrentPrincipal, SessionDep, StoreDep
from headroom.core.errors import error_responses
from headroom.core.ids import Id
from headroom.datasets.slices_query import Slice
from headroom.forecasts import service
from headroom.forecasts.schemas import ForecastOut

router = APIRouter(prefix="/datasets", tags=["forecasts"])


@router.get(
    "/{dataset_id}/forecast",
    response_model=ForecastOut,
    responses=error_responses(409, 422),
)
def get_forecast(
    dataset_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    store: StoreDep,
    slice_: Slice,
    horizon_days: Annotated[int, Query(ge=1, le=366)] = 28,
    limit_per_s: Annotated[float | None, Query(gt=0)] = None,
) -> ForecastOut:
    """The dataset's hourly traffic forecast with its 80% interval, growth per week, the
    cycles found, the runway to `limit_per_s` (default: MaxRate(T) x servers of its newest
    capacity analysis) and the backtest; with a range (and filters), from that slice's
    history only (`history_slice` says which). A plain `def`: FastAPI runs it in a worker
    thread, off the event loop."""
    limit = limit_per_s
    return service.dataset_forecast(
        session, store, principal, dataset_id, horizon_days, limit, slice_.given
    )
