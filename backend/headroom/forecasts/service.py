"""A dataset's forecast, computed from its request table on each call (a second or two:
the route runs it in a worker thread). The engine is imported inside the functions: the
API process loads numpy, polars and statsmodels only when a forecast is asked for."""

from datetime import UTC, datetime
from typing import Any

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
from headroom.forecasts.schemas import ForecastOut
from headroom.sources import service as sources


def dataset_forecast(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    horizon_days: int,
    limit_per_s: float | None,
    part: SliceIn | None = None,
) -> ForecastOut:
    from headroom.engine.forecast import ForecastInputError, forecast, to_document
    from headroom.engine.forecast.scenario import peak_week_scenario

    dataset = get_visible(session, principal, dataset_id)
    source = "given" if limit_per_s is not None else None
    if limit_per_s is None:
        limit_per_s, source = default_limit(session, principal, dataset.id)
    try:
        result = forecast(_hourly(session, store, dataset, part), horizon_days, limit_per_s)
    except ForecastInputError as error:
        raise InvalidInput("cannot_forecast", str(error)) from error
    document = to_document(result, horizon_days)
    document["runway"]["limit_source"] = source
    if part is not None:
        document["warnings"] = [*document["warnings"], _cut_note(part)]
    scenario = peak_week_scenario(result.fit, f"forecast peak week of {dataset.name}")
    return ForecastOut(
        dataset_id=dataset.id, peak_week_scenario=scenario, history_slice=part, **document
    )


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
    when given), or from the interval rates of a dataset a Prometheus source keeps
    (docs/sources.md; only those of intervals starting in the slice's range: its
    filters do not apply to rates)."""
    from headroom.engine.forecast import hourly, hourly_from_requests
    from headroom.engine.workload.slices import sliced
    from headroom.sources.imports import rate_points

    if dataset.format == sources.FORMAT:
        if part is not None and part.model_copy(update={"from_ms": None, "to_ms": None}).stored():
            raise InvalidInput(
                "filter_not_applicable",
                "a Prometheus source keeps rates, not requests: only a range applies",
            )
        result = sources.interval_result(session, dataset.id, str(dataset.status))
        start_s, rate = rate_points(store, result)
        if part is not None:
            start_s, rate = _in_range(start_s, rate, part)
        return hourly(start_s, rate)
    keys = _table_keys(session, dataset.id, str(dataset.status))
    return hourly_from_requests(sliced(store.scan_parquet(keys), where_of(part)))


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
