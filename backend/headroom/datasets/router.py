from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from headroom.core.deps import CurrentPrincipal, EditorAccess, SessionDep, SettingsDep, StoreDep
from headroom.core.errors import FileTooLarge, error_responses
from headroom.core.queue import enqueue
from headroom.datasets import arrivals, service, uploads
from headroom.datasets.multipart import MultipartFile
from headroom.datasets.schemas import ArrivalWindowOut, DatasetOut, DatasetPage, TrafficSummaryOut

router = APIRouter(prefix="/datasets", tags=["datasets"])

UPLOAD_BODY = {
    "content": {
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {"file": {"type": "string", "format": "binary"}},
            }
        },
    },
    "description": "The log file (plain or .gz): the raw body, or a multipart field `file`.",
}


@router.get("", response_model=DatasetPage)
def list_datasets(
    principal: CurrentPrincipal,
    session: SessionDep,
    workspace_id: int | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> DatasetPage:
    return service.list_page(session, principal, workspace_id, limit, offset)


@router.post(
    "",
    response_model=DatasetOut,
    status_code=201,
    responses={
        200: {"model": DatasetOut, "description": "Already uploaded"},
        **error_responses(413),
    },
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def upload_dataset(
    request: Request,
    response: Response,
    principal: EditorAccess,
    session: SessionDep,
    store: StoreDep,
    settings: SettingsDep,
    workspace_id: int | None = None,
    name: str | None = None,
) -> DatasetOut:
    workspace_id = service.resolve_workspace(principal, workspace_id)
    service.require_upload_rights(principal, workspace_id)
    _refuse_declared_oversize(request, settings.max_upload_bytes)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        form_file = MultipartFile(request.stream(), content_type)
        staged = await uploads.stage(store, aiter(form_file), None, settings.max_upload_bytes)
        staged = uploads.renamed(staged, name or form_file.filename)
    else:
        staged = await uploads.stage(store, request.stream(), name, settings.max_upload_bytes)
    sniffed = await uploads.sniff(store, staged)
    dataset, job = service.register_upload(session, store, principal, workspace_id, staged, sniffed)
    if job is None:
        response.status_code = 200
    else:
        session.commit()
        enqueue(settings, service.INGEST, job.id)
    return service.to_out(session, dataset)


@router.get("/{dataset_id}", response_model=DatasetOut)
def get_dataset(dataset_id: int, principal: CurrentPrincipal, session: SessionDep) -> DatasetOut:
    return service.to_out(session, service.get_visible(session, principal, dataset_id))


@router.delete("/{dataset_id}", status_code=204)
def delete_dataset(
    dataset_id: int, principal: EditorAccess, session: SessionDep, store: StoreDep
) -> None:
    service.delete(session, store, principal, dataset_id)


@router.get("/{dataset_id}/summary", response_model=TrafficSummaryOut)
def get_summary(
    dataset_id: int, principal: CurrentPrincipal, session: SessionDep
) -> TrafficSummaryOut:
    return service.summary(session, principal, dataset_id)


@router.get(
    "/{dataset_id}/arrivals",
    response_model=ArrivalWindowOut,
    responses=error_responses(409, 422),
)
def get_arrivals(
    dataset_id: int,
    principal: CurrentPrincipal,
    session: SessionDep,
    store: StoreDep,
    start_ms: int | None = None,
    end_ms: int | None = None,
    every_s: Annotated[int, Query(ge=1, le=86_400)] = 1,
    max_points: Annotated[int, Query(ge=3, le=20_000)] = 2000,
) -> ArrivalWindowOut:
    """Requests per bucket of `every_s` seconds in [start_ms, end_ms) (epoch ms; omitted:
    the log's first / last request), at most `max_points` points (LTTB beyond that)."""
    window = (start_ms, end_ms)
    return arrivals.arrivals(session, store, principal, dataset_id, window, every_s, max_points)


def _refuse_declared_oversize(request: Request, max_bytes: int) -> None:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes + 64 * 1024:
        raise FileTooLarge(
            f"the file is larger than the limit of {max_bytes:,} bytes",
            detail={"max_bytes": max_bytes},
        )
