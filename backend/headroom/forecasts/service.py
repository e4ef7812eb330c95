"""A dataset's forecast, computed from its request table on each call (a second or two:
the route runs it in a worker thread). The engine is imported inside the functions: the
API process loads numpy, polars and statsmodels only when a forecast is asked for."""

from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy.orm import Session

from headroom.analyses import service as analyses
from headroom.analyses.documents import CapacityReportDoc
from headroom.analyses.schemas import CapacityParamsIn
from headroom.auth.principal import Principal
from headroom.core.errors import InvalidInput
from headroom.core.storage import ObjectStore
from headroom.datasets.arrivals import DatasetNotReady
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.datasets.service import get_visible, ingest_result
from headroom.datasets.slices import where_of
from headroom.datasets.slices_params import SliceIn
from headroom.forecasts.schemas import ForecastOut, NotEnoughHistory
from headroom.sources import service as sources

# A forecast reads the hours with no request as the level: more than half of the
# history's hours must hold traffic, or the median forecast is an empty hour's rate.
MIN_BUSY_SHARE = 0.5


def dataset_forecast(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    horizon_days: int,
    limit_per_s: float | None,
    part: SliceIn | None = None,
) -> ForecastOut:
    from headroom.engine.forecast import (
        ForecastInputError,
        HistoryTooShort,
        forecast,
        to_document,
    )
    from headroom.engine.forecast.scenario import peak_week_scenario

    dataset = get_visible(session, principal, dataset_id)
    source = "given" if limit_per_s is not None else None
    if limit_per_s is None:
        limit_per_s, source = default_limit(session, principal, dataset.id)
    try:
        history = _hourly(session, store, dataset, part)
    except HistoryTooShort:
        return _not_enough(session, store, dataset, horizon_days, part, "too_short")
    if history.busy_share() <= MIN_BUSY_SHARE:
        return _not_enough(session, store, dataset, horizon_days, part, "too_sparse")
    try:
        result = forecast(history, horizon_days, limit_per_s)
    except ForecastInputError as error:
        raise InvalidInput("cannot_forecast", str(error)) from error
    document = to_document(result, horizon_days)
    document["runway"]["limit_source"] = source
    document["warnings"] = [*document["warnings"], *_cut_notes(part)]
    scenario = peak_week_scenario(result.fit, f"forecast peak week of {dataset.name}")
    return ForecastOut(
        dataset_id=dataset.id, peak_week_scenario=scenario, history_slice=part, **document
    )


def _not_enough(
    session: Session,
    store: ObjectStore,
    dataset: Dataset,
    horizon_days: int,
    part: SliceIn | None,
    reason: Literal["too_short", "too_sparse"],
) -> ForecastOut:
    """No figure: what the history holds, and why that is too little."""
    from headroom.engine.forecast.model import INTERVAL

    requests, span_s = _extent(session, store, dataset, part)
    held = "rates" if requests is None else f"{requests:,} requests"
    why = "two hours are needed" if reason == "too_short" else "most hours have no request"
    words = f"not enough history to forecast: {held} over {_duration_words(span_s)} ({why})"
    return ForecastOut(
        dataset_id=dataset.id,
        horizon_days=horizon_days,
        interval=INTERVAL,
        forecast=[],
        history=[],
        peak_per_s=None,
        growth=None,
        seasonality=None,
        runway=None,
        backtest=None,
        warnings=_cut_notes(part),
        history_slice=part,
        peak_week_scenario=None,
        not_enough_history=NotEnoughHistory(
            reason=reason, requests=requests, span_s=span_s, message=words
        ),
    )


def _duration_words(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


def _cut_notes(part: SliceIn | None) -> list[str]:
    return [] if part is None else [_cut_note(part)]


def _cut_note(part: SliceIn) -> str:
    def at(ms: int | None, default: str) -> str:
        return default if ms is None else datetime.fromtimestamp(ms / 1000, UTC).isoformat()

    span = f"{at(part.from_ms, 'the first request')} to {at(part.to_ms, 'the last')}"
    filters = (
        " and the filters"
        if part.model_copy(update={"from_ms": None, "to_ms": None}).stored()
        else ""
    )
    return f"the history is cut to the range ({span}){filters}: the forecast reads that only"


def _hourly(
    session: Session, store: ObjectStore, dataset: Dataset, part: SliceIn | None = None
) -> Any:
    """The hourly rate series: from a log's request table (only the slice's requests
    when given), or from the interval rates of a dataset a Prometheus source keeps."""
    from headroom.engine.forecast import hourly, hourly_from_requests

    if dataset.format == sources.FORMAT:
        return hourly(*_rate_points(session, store, dataset, part))
    return hourly_from_requests(_requests(session, store, dataset, part))


def _extent(
    session: Session, store: ObjectStore, dataset: Dataset, part: SliceIn | None
) -> tuple[int | None, float]:
    """The history's requests (None for a rate series) and the seconds it covers."""
    import numpy as np
    import polars as pl

    from headroom.engine.workload.coverage import frame_coverage

    if dataset.format == sources.FORMAT:
        start_s, _ = _rate_points(session, store, dataset, part)
        return None, float(np.ptp(start_s)) if len(start_s) else 0.0
    table = _requests(session, store, dataset, part)
    cover = frame_coverage(table)
    requests = table.select(pl.col("ts").drop_nulls().len()).collect().item()
    return int(requests), 0.0 if cover is None else cover.span_s


def _rate_points(
    session: Session, store: ObjectStore, dataset: Dataset, part: SliceIn | None
) -> tuple[Any, Any]:
    """The interval rates of a dataset a Prometheus source keeps (docs/sources.md): only
    those of intervals starting in the slice's range (its filters do not apply to rates)."""
    from headroom.sources.imports import rate_points

    if part is not None and part.model_copy(update={"from_ms": None, "to_ms": None}).stored():
        raise InvalidInput(
            "filter_not_applicable",
            "a Prometheus source keeps rates, not requests: only a range applies",
        )
    result = sources.interval_result(session, dataset.id, str(dataset.status))
    start_s, rate = rate_points(store, result)
    return (start_s, rate) if part is None else _in_range(start_s, rate, part)


def _requests(session: Session, store: ObjectStore, dataset: Dataset, part: SliceIn | None) -> Any:
    """A log's request table, only the slice's requests when given."""
    from headroom.engine.workload.slices import sliced

    keys = _table_keys(session, dataset.id, str(dataset.status))
    return sliced(store.scan_parquet(keys), where_of(part))


def _in_range(start_s: Any, rate: Any, part: SliceIn) -> tuple[Any, Any]:
    import numpy as np

    start = np.asarray(start_s, dtype=np.float64)
    keep = np.ones(start.shape, dtype=bool)
    if part.from_ms is not None:
        keep &= start >= part.from_ms / 1000
    if part.to_ms is not None:
        keep &= start < part.to_ms / 1000
    return start[keep], np.asarray(rate, dtype=np.float64)[keep]


def _table_keys(session: Session, dataset_id: int, status: str) -> list[str]:
    result = ingest_result(session, dataset_id)
    if status != DatasetStatus.ready or result is None or not result.table_keys:
        raise DatasetNotReady(f"dataset {dataset_id} is {status}; its request table is not ready")
    return list(result.table_keys)


def default_limit(
    session: Session, principal: Principal, dataset_id: int
) -> tuple[float | None, str | None]:
    """MaxRate(T) of all requests times the servers (when the analysis is per server),
    from the dataset's newest finished capacity analysis; (None, None) without one."""
    page = analyses.list_page(session, principal, dataset_id, 50, 0)
    for item in page.items:
        if item.kind != "capacity" or item.job is None or item.job.status != "succeeded":
            continue
        out = analyses.to_out(session, analyses.get_visible(session, principal, item.id))
        limit = (
            _limit_of(out.result, out.params) if isinstance(out.result, CapacityReportDoc) else None
        )
        if limit is not None:
            return limit, f"MaxRate(T) of capacity analysis {item.id}"
    return None, None


def _limit_of(result: CapacityReportDoc, params: Any) -> float | None:
    everything = result.classes.get("all")
    sla = everything.sla if everything is not None else None
    if sla is None or not sla.max_rate_per_s:
        return None
    per_server = isinstance(params, CapacityParamsIn) and params.per_server and result.servers
    return float(sla.max_rate_per_s) * (len(result.servers) if per_server else 1)
