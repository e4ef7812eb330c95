"""A window of a dataset's arrival series at full resolution (the Traffic chart's zoom).

polars and the engine are imported inside the function: the API process loads them only
when a zoom is asked for (``import headroom.main`` stays light)."""

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import HeadroomError, InvalidInput
from headroom.core.storage import LocalStore
from headroom.datasets.models import DatasetStatus
from headroom.datasets.schemas import ArrivalWindowOut
from headroom.datasets.service import get_visible, ingest_result

NS_PER_MS = 1_000_000


class DatasetNotReady(HeadroomError):
    status_code, code = 409, "not_ready"


def arrivals(
    session: Session,
    store: LocalStore,
    principal: Principal,
    dataset_id: int,
    window_ms: tuple[int | None, int | None],
    every_s: int,
    max_points: int,
) -> ArrivalWindowOut:
    """Requests per ``every_s`` bucket in [start_ms, end_ms) (None: the log's first / last
    request), every bucket when at most ``max_points`` of them, else their LTTB points."""
    start_ms, end_ms = window_ms
    if start_ms is not None and end_ms is not None and end_ms <= start_ms:
        raise InvalidInput("bad_window", "end_ms must come after start_ms", field="end_ms")
    paths = _table_paths(session, store, principal, dataset_id)
    import polars as pl

    from headroom.engine.workload.zoom import arrival_window

    start_ns = None if start_ms is None else start_ms * NS_PER_MS
    end_ns = None if end_ms is None else end_ms * NS_PER_MS
    try:
        window = arrival_window(pl.scan_parquet(paths), every_s, start_ns, end_ns, max_points)
    except ValueError as error:
        field = "every_s" if "buckets" in str(error) else "end_ms"
        raise InvalidInput("bad_window", str(error), field=field) from error
    return ArrivalWindowOut(dataset_id=dataset_id, **window.to_dict())


def _table_paths(
    session: Session, store: LocalStore, principal: Principal, dataset_id: int
) -> list[str]:
    dataset = get_visible(session, principal, dataset_id)
    result = ingest_result(session, dataset.id)
    if dataset.status != DatasetStatus.ready or result is None or not result.table_keys:
        raise DatasetNotReady(
            f"dataset {dataset_id} is {dataset.status}; its request table is not ready"
        )
    return [str(store.local_path(k)) for k in result.table_keys]
