"""A window of a dataset's arrival series at full resolution (the Traffic chart's zoom).

polars and the engine are imported inside the function: the API process loads them only
when a zoom is asked for (``import headroom.api.app`` stays light)."""

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypedDict, cast

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import HeadroomError, InvalidInput
from headroom.core.storage import ObjectStore
from headroom.datasets.models import DatasetStatus
from headroom.datasets.schemas import ArrivalWindowOut
from headroom.datasets.service import get_visible, ingest_result

if TYPE_CHECKING:
    from headroom.engine.workload.coverage import Coverage
    from headroom.engine.workload.slices import RequestSlice

NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class DatasetNotReady(HeadroomError):
    status_code, code = 409, "not_ready"


def arrivals(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    window_ms: tuple[int | None, int | None],
    every_s: int,
    max_points: int,
    where: "RequestSlice | None" = None,
) -> ArrivalWindowOut:
    """Requests per ``every_s`` bucket in [start_ms, end_ms) (None: the log's first / last
    request), every bucket when at most ``max_points`` of them, else their LTTB points."""
    start_ms, end_ms = window_ms
    if start_ms is not None and end_ms is not None and end_ms <= start_ms:
        raise InvalidInput("bad_window", "end_ms must come after start_ms", field="end_ms")
    keys, summary = table_keys(session, principal, dataset_id)

    from headroom.engine.workload.slices import sliced
    from headroom.engine.workload.zoom import arrival_window

    start_ns = None if start_ms is None else start_ms * NS_PER_MS
    end_ns = None if end_ms is None else end_ms * NS_PER_MS
    try:
        table = store.scan_parquet(keys)
        # the filters narrow the requests counted; the rates stay over the log's coverage
        table = table if where is None else sliced(table, where)
        window = arrival_window(table, every_s, start_ns, end_ns, max_points, cover_of(summary))
    except ValueError as error:
        field = "every_s" if "buckets" in str(error) else "end_ms"
        raise InvalidInput("bad_window", str(error), field=field) from error
    return ArrivalWindowOut(dataset_id=dataset_id, **window.to_dict())


class _Span(TypedDict, total=False):  # what cover_of reads of the ingest's traffic summary
    timestamp_granularity_s: float | None
    first_ts: str | None
    last_ts: str | None


def table_keys(session: Session, principal: Principal, dataset_id: int) -> tuple[list[str], _Span]:
    dataset = get_visible(session, principal, dataset_id)
    result = ingest_result(session, dataset.id)
    if dataset.status != DatasetStatus.ready or result is None or not result.table_keys:
        raise DatasetNotReady(
            f"dataset {dataset_id} is {dataset.status}; its request table is not ready"
        )
    return list(result.table_keys), cast(_Span, result.document or {})


def cover_of(summary: _Span) -> "Coverage | None":
    """The log's coverage as its traffic summary found it (no second scan of the table);
    None (found from the table) when the summary predates it or the timestamps are finer
    than a millisecond (its times keep microseconds)."""
    import numpy as np

    from headroom.engine.workload.coverage import coverage

    g_s, first, last = (
        summary.get("timestamp_granularity_s"),
        summary.get("first_ts"),
        summary.get("last_ts"),
    )
    if not g_s or not first or not last:
        return None
    ns = [_epoch_ns(t) for t in (first, last)]
    return coverage(np.array(ns, dtype=np.int64), round(g_s * NS_PER_S))


def _epoch_ns(iso: str) -> int:
    t = datetime.fromisoformat(iso)
    t = t if t.tzinfo else t.replace(tzinfo=UTC)
    return (t - EPOCH) // timedelta(microseconds=1) * 1000
