"""A slice of a dataset (a time range, a path prefix, a status class): its traffic summary
recomputed from the request table, and the requests behind it a page at a time.

polars and the engine are imported inside the functions: the API process loads them only
when a slice is asked for (``import headroom.api.app`` stays light)."""

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import InvalidInput
from headroom.core.storage import ObjectStore
from headroom.datasets import service
from headroom.datasets.arrivals import cover_of, table_keys
from headroom.datasets.schemas import RequestPageOut, RequestRow, TrafficSummaryOut

if TYPE_CHECKING:
    from headroom.engine.workload.slices import RequestSlice

STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")


def request_slice(
    from_ms: int | None, to_ms: int | None, path_prefix: str | None, status_class: str | None
) -> "RequestSlice":
    from headroom.engine.workload.slices import RequestSlice

    try:
        return RequestSlice(from_ms, to_ms, path_prefix or None, status_class or None)
    except ValueError as error:
        field = "status_class" if "status" in str(error) else "to"
        raise InvalidInput("bad_slice", str(error), field=field) from error


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
