from typing import Annotated, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request, Response

from headroom.api.deps import (
    CurrentPrincipal,
    DatasetRead,
    EditorAccess,
    SessionDep,
    SettingsDep,
    StoreDep,
)
from headroom.api.upload_access import UploadAccess, body_chunks
from headroom.core.errors import error_responses
from headroom.core.ids import Id
from headroom.datasets import arrivals, formats, parse_options, service, slices, staging
from headroom.datasets.formats import KnownFormatsOut
from headroom.datasets.multipart import MultipartFile
from headroom.datasets.parse_options import ParseOptions
from headroom.datasets.schemas import (
    ArrivalWindowOut,
    DatasetOut,
    DatasetPage,
    DatasetSort,
    DatasetUpdate,
    LatencySeriesOut,
    RequestPageOut,
    TrafficSummaryOut,
)
from headroom.datasets.slices_query import SLICE_ERRORS, Filters, Slice
from headroom.datasets.sniffing import checked_options

router = APIRouter(prefix="/datasets", tags=["datasets"])

UPLOAD_BODY = {
    "content": {
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "format": {"type": "string"},
                    "log_format": {"type": "string"},
                    "zip_members": {"type": "string", "enum": ["first", "all"]},
                },
            }
        },
    },
    "description": "The log file (plain or compressed): the raw body, or a multipart field "
    "`file` (with optional fields `format`, `log_format`, `zip_members`, which override "
    "the query parameters of the same names).",
}
FORMAT_HELP = "A known format name (GET /datasets/formats); omitted or `auto`: detected"
LOG_FORMAT_HELP = "An Apache LogFormat or nginx log_format string (instead of `format`)"
ZIP_HELP = "Read the first member of a zip archive, or all members concatenated"


def parse_query(
    format: Annotated[str | None, Query(description=FORMAT_HELP)] = None,
    log_format: Annotated[str | None, Query(description=LOG_FORMAT_HELP)] = None,
    zip_members: Annotated[Literal["first", "all"], Query(description=ZIP_HELP)] = "first",
) -> ParseOptions:
    return parse_options.resolve(format, log_format, zip_members)


ParseQuery = Annotated[ParseOptions, Depends(parse_query)]


@router.get("/formats", response_model=KnownFormatsOut)
def list_formats(principal: CurrentPrincipal) -> KnownFormatsOut:
    """The format names an upload may give as `format` (besides `auto`)."""
    return KnownFormatsOut(formats=list(formats.KNOWN_FORMATS))


@router.get("", response_model=DatasetPage)
def list_datasets(
    principal: CurrentPrincipal,
    session: SessionDep,
    workspace_id: int | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
    q: Annotated[
        str | None, Query(max_length=255, description="Only datasets whose name contains this")
    ] = None,
    sort: DatasetSort = DatasetSort.newest,
) -> DatasetPage:
    """Newest first unless `sort` says otherwise; datasets not ingested yet sort last by
    requests and span."""
    return service.list_page(session, principal, workspace_id, limit, offset, q, sort)


@router.post(
    "",
    response_model=DatasetOut,
    status_code=202,
    response_description="Queued: its ingest job runs in the background; Location names it",
    responses={
        200: {"model": DatasetOut, "description": "Already uploaded"},
        **error_responses(408, 409, 413, 422, 429),
    },
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def upload_dataset(
    request: Request,
    response: Response,
    principal: UploadAccess,
    store: StoreDep,
    settings: SettingsDep,
    options: ParseQuery,
    workspace_id: int | None = None,
    name: str | None = None,
) -> DatasetOut:
    """Holds no database connection while the body arrives (api.upload_access)."""
    workspace_id = service.resolve_workspace(principal, workspace_id)
    service.require_upload_rights(principal, workspace_id)
    _refuse_declared_oversize(request, settings.max_upload_bytes)
    options = await checked_options(options)
    content_type = request.headers.get("content-type", "")
    body = body_chunks(request, settings.upload_read_timeout_s)
    if content_type.startswith("multipart/form-data"):
        form_file = MultipartFile(body, content_type)
        staged = await staging.stage(store, aiter(form_file), None, settings.max_upload_bytes)
        staged = staging.renamed(staged, name or form_file.filename)
        options = await staging.form_options(store, staged, options, form_file.fields)
    else:
        staged = await staging.stage(store, body, name, settings.max_upload_bytes)
    sniffed = await staging.sniff(store, staged, options)
    out, created = await to_thread.run_sync(
        service.register_and_start,
        settings,
        store,
        principal,
        workspace_id,
        staged,
        sniffed,
        options,
    )
    if created:
        response.headers["Location"] = f"/api/v1/datasets/{out.id}"
    else:
        response.status_code = 200
    return out


@router.get("/{dataset_id}", response_model=DatasetOut)
def get_dataset(dataset_id: Id, principal: CurrentPrincipal, session: SessionDep) -> DatasetOut:
    return service.to_out(session, service.get_visible(session, principal, dataset_id))


@router.patch("/{dataset_id}", response_model=DatasetOut)
def rename_dataset(
    dataset_id: Id, body: DatasetUpdate, principal: EditorAccess, session: SessionDep
) -> DatasetOut:
    """Renames the dataset (its data and analyses are unchanged)."""
    return service.rename(session, principal, dataset_id, body.name)


@router.delete("/{dataset_id}", status_code=204)
def delete_dataset(
    dataset_id: Id, principal: EditorAccess, session: SessionDep, store: StoreDep
) -> None:
    service.delete(session, store, principal, dataset_id)


@router.get("/{dataset_id}/summary", response_model=TrafficSummaryOut, responses=SLICE_ERRORS)
def get_summary(read: DatasetRead, slice_: Slice) -> TrafficSummaryOut:
    """The traffic summary; with a range or a filter, recomputed for that slice from the
    request table (rates over the range's seconds the log covers)."""
    return slices.summary(*read, slice_.where)


@router.get("/{dataset_id}/latency", response_model=LatencySeriesOut, responses=SLICE_ERRORS)
def get_latency_series(
    read: DatasetRead,
    slice_: Slice,
    every_s: Annotated[int, Query(ge=1, le=86_400, description="Bucket width (seconds)")] = 60,
) -> LatencySeriesOut:
    """Latency percentiles per bucket of `every_s` seconds of a slice (the Latency chart
    under a range and filters), recomputed from the request table."""
    return slices.latency_series(*read, slice_.where, every_s)


@router.get("/{dataset_id}/requests", response_model=RequestPageOut, responses=SLICE_ERRORS)
def list_requests(
    read: DatasetRead,
    slice_: Slice,
    page_token: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> RequestPageOut:
    """The requests of a slice in the log's order, a page at a time (read from the request
    table with the slice's filter and a limit)."""
    return slices.requests_page(*read, slice_.where, page_token, limit)


@router.get("/{dataset_id}/arrivals", response_model=ArrivalWindowOut, responses=SLICE_ERRORS)
def get_arrivals(
    read: DatasetRead,
    filters: Filters,
    start_ms: int | None = None,
    end_ms: int | None = None,
    every_s: Annotated[int, Query(ge=1, le=86_400)] = 1,
    max_points: Annotated[int, Query(ge=3, le=20_000)] = 2000,
) -> ArrivalWindowOut:
    """Requests per bucket of `every_s` seconds in [start_ms, end_ms) (epoch ms; omitted:
    the log's first / last request), at most `max_points` points (LTTB beyond that); only
    the requests the filters given keep (as for the summary)."""
    window = (start_ms, end_ms)
    return arrivals.arrivals(*read, window, every_s, max_points, filters.where)


def _refuse_declared_oversize(request: Request, max_bytes: int) -> None:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes + 64 * 1024:
        raise staging.too_large(max_bytes)
