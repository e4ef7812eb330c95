from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from starlette.datastructures import UploadFile

from headroom.core.deps import CurrentPrincipal, SessionDep, SettingsDep, StoreDep
from headroom.core.errors import FileTooLarge, InvalidInput
from headroom.core.queue import enqueue
from headroom.datasets import service, uploads
from headroom.datasets.schemas import DatasetOut, DatasetPage, TrafficSummaryOut

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
    responses={200: {"model": DatasetOut, "description": "Already uploaded"}},
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def upload_dataset(
    request: Request,
    response: Response,
    principal: CurrentPrincipal,
    session: SessionDep,
    store: StoreDep,
    settings: SettingsDep,
    workspace_id: int | None = None,
    name: str | None = None,
) -> DatasetOut:
    workspace_id = service.resolve_workspace(principal, workspace_id)
    _refuse_declared_oversize(request, settings.max_upload_bytes)
    chunks, name = await _body_chunks(request, name)
    staged = await uploads.stage(store, chunks, name, settings.max_upload_bytes)
    dataset, job = service.register_upload(session, store, principal, workspace_id, staged)
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
    dataset_id: int, principal: CurrentPrincipal, session: SessionDep, store: StoreDep
) -> None:
    service.delete(session, store, principal, dataset_id)


@router.get("/{dataset_id}/summary", response_model=TrafficSummaryOut)
def get_summary(
    dataset_id: int, principal: CurrentPrincipal, session: SessionDep
) -> TrafficSummaryOut:
    return service.summary(session, principal, dataset_id)


def _refuse_declared_oversize(request: Request, max_bytes: int) -> None:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes + 64 * 1024:
        raise FileTooLarge(
            f"the file is larger than the limit of {max_bytes:,} bytes",
            detail={"max_bytes": max_bytes},
        )


async def _body_chunks(
    request: Request, name: str | None
) -> tuple[AsyncIterator[bytes], str | None]:
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        return request.stream(), name
    form = await request.form(max_files=1, max_fields=10)
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise InvalidInput(
            "validation_error", "the multipart body needs a field 'file'", field="file"
        )
    return _read_upload(upload), name or upload.filename


async def _read_upload(upload: UploadFile) -> AsyncIterator[bytes]:
    while chunk := await upload.read(1 << 20):
        yield chunk
    await upload.close()
