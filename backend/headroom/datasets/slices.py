"""A slice of a dataset (a time range; a path prefix or pattern, a status class, a request
class, a host, a client): its traffic summary recomputed from the request table, and the
requests behind it a page at a time.

polars and the engine are imported inside the functions: the API process loads them only
when a slice is asked for (``import headroom.api.app`` stays light)."""

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import InvalidInput
from headroom.core.storage import ObjectStore
from headroom.datasets import service
from headroom.datasets.arrivals import cover_of, table_keys
from headroom.datasets.schemas import (
    LatencySeriesOut,
    RequestPageOut,
    RequestRow,
    TrafficSummaryOut,
)
from headroom.datasets.slices_params import SliceIn

if TYPE_CHECKING:
    from headroom.engine.workload.slices import RequestSlice

STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")
MAX_LATENCY_BUCKETS = 20_000  # a longer series at this resolution: ask for a coarser one
NS_PER_S = 1_000_000_000


def request_slice(
    from_ms: int | None, to_ms: int | None, path_prefix: str | None, status_class: str | None
) -> "RequestSlice":
    return where_of(
        SliceIn.model_validate(
            {
                "from_ms": from_ms,
                "to_ms": to_ms,
                "path_prefix": path_prefix,
                "status_class": status_class,
            }
        )
    )


def normalized(given: SliceIn | None) -> SliceIn | None:
    """The slice with empty filters dropped; None for the whole dataset (so a key made
    with an empty slice is the key made without one)."""
    if given is None:
        return None
    kept = {k: v for k, v in given.model_dump().items() if v is not None and v != ""}
    return SliceIn.model_validate(kept) if kept else None


def where_of(given: SliceIn | None, prefix: str = "") -> "RequestSlice":
    """The engine's slice; a bad one is refused (422) naming its parameter (``prefix``: where
    the slice sits in a request body, e.g. ``params.slice.``)."""
    from headroom.engine.workload.slices import RequestSlice

    kept = normalized(given)
    if kept is None:
        return RequestSlice()
    try:
        return RequestSlice(
            kept.from_ms,
            kept.to_ms,
            kept.path_prefix,
            kept.status_class,
            kept.path_pattern,
            kept.request_class,
            kept.host,
            kept.client,
        )
    except ValueError as error:
        text = str(error)
        field = (
            "path_pattern" if "pattern" in text else "status_class" if "status" in text else "to"
        )
        if prefix and field == "to":
            field = "to_ms"
        raise InvalidInput("bad_slice", text, field=prefix + field) from error


def summary(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    where: "RequestSlice",
) -> TrafficSummaryOut:
    """The stored summary for the whole log; a slice's recomputed from the table (its
    rates over the slice's window within the log's coverage)."""
    if where.whole:
        return service.summary(session, principal, dataset_id)
    keys, document = table_keys(session, principal, dataset_id)
    from headroom.engine.workload.coverage import frame_coverage
    from headroom.engine.workload.slices import sliced
    from headroom.engine.workload.traffic import summarize

    table = store.scan_parquet(keys)
    whole = cover_of(document) or frame_coverage(table)
    cover = None if whole is None else where.clip(whole)
    part = summarize(sliced(table, where), cover=cover)
    base = TrafficSummaryOut.model_validate(document)
    update = part.model_dump(exclude={"fields_recorded"})
    if part.request_count == 0:
        update = _empty_figures(base, update)
    return TrafficSummaryOut.model_validate({**base.model_dump(), **update})


def latency_series(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    where: "RequestSlice",
    every_s: int,
) -> LatencySeriesOut:
    """The slice's latency percentiles per ``every_s`` bucket, recomputed from the request
    table in one streaming pass (bounded memory); a series longer than
    ``MAX_LATENCY_BUCKETS`` buckets is refused (422 naming ``every_s``)."""
    keys, document = table_keys(session, principal, dataset_id)
    from headroom.engine.workload.coverage import frame_coverage
    from headroom.engine.workload.slices import latency_series as series_of
    from headroom.engine.workload.slices import sliced

    table = store.scan_parquet(keys)
    whole = cover_of(document) or frame_coverage(table)
    if whole is not None:
        cover = where.clip(whole)
        buckets = (cover.end_ns - cover.start_ns) / (every_s * NS_PER_S)
        if buckets > MAX_LATENCY_BUCKETS:
            raise InvalidInput(
                "bad_resolution",
                f"the range holds about {buckets:,.0f} buckets of {every_s} s (at most "
                f"{MAX_LATENCY_BUCKETS:,}): choose a shorter range or a coarser resolution",
                field="every_s",
            )
    frame = series_of(sliced(table, where), every_s)
    t_ms = frame["t"].dt.epoch("ms").to_list() if frame.height else []
    columns = {c: frame[c].to_list() for c in ("p50_s", "p90_s", "p95_s", "p99_s", "max_s")}
    return LatencySeriesOut(
        dataset_id=dataset_id,
        every_s=every_s,
        t_ms=t_ms,
        count=frame["count"].to_list(),
        **columns,
    )


def _empty_figures(base: TrafficSummaryOut, update: dict[str, object]) -> dict[str, object]:
    """An empty slice of a log that records status codes and sizes has zero of them, not
    none (null says the log does not record the field)."""
    if base.status_counts is not None:
        update["status_counts"] = dict.fromkeys(STATUS_CLASSES, 0)
    if base.bytes_total is not None:
        update["bytes_total"] = 0
    return update


def requests_page(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    where: "RequestSlice",
    page_token: str | None,
    limit: int,
) -> RequestPageOut:
    keys, _ = table_keys(session, principal, dataset_id)
    from headroom.engine.workload.slices import request_page

    after = _row_of(page_token)
    page = request_page(store.scan_parquet(keys), where, after, limit)
    items = [RequestRow.model_validate(r) for r in page.rows.to_dicts()]
    token = None if page.next_row is None else str(page.next_row)
    return RequestPageOut(
        dataset_id=dataset_id, items=items, total=page.total, next_page_token=token
    )


def _row_of(page_token: str | None) -> int:
    if page_token is None or page_token == "":
        return 0
    if not page_token.isdigit():
        raise InvalidInput(
            "bad_page_token", "the page token is not one this API gave", field="page_token"
        )
    return int(page_token)
