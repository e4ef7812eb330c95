from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request, Response

from headroom.api.deps import CurrentPrincipal, EditorAccess, SessionDep, SettingsDep, StoreDep
from headroom.api.upload_access import UploadAccess, body_chunks
from headroom.core.db import session_scope
from headroom.core.errors import FileTooLarge, error_responses
from headroom.datasets.schemas import DatasetOut
from headroom.datasets.sniffing import checked_options
from headroom.uploads import completion, service
from headroom.uploads.schemas import UploadIn, UploadOut

router = APIRouter(
    prefix="/uploads", tags=["uploads"], responses=error_responses(408, 409, 413, 429)
)

CHUNK_BODY = {
    "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    "description": "The next bytes of the file, at most chunk_bytes_max of them.",
}


@router.post("", response_model=UploadOut, status_code=201, responses=error_responses(422))
async def create_upload(
    body: UploadIn,
    principal: EditorAccess,
    session: SessionDep,
    store: StoreDep,
    settings: SettingsDep,
) -> UploadOut:
    """Start an upload; `format`/`log_format`/`zip_members` are checked now, used at the end."""
    options = await checked_options(service.requested_options(body))
    upload = service.create(session, store, principal, body, settings.max_upload_bytes, options)
    return service.to_out(upload)


@router.get("/{upload_id}", response_model=UploadOut)
def get_upload(upload_id: str, principal: CurrentPrincipal, session: SessionDep) -> UploadOut:
    """Where to resume: the next chunk goes at offset_bytes."""
    return service.to_out(service.get_visible(session, principal, upload_id))


@router.put(
    "/{upload_id}/chunks", response_model=UploadOut, openapi_extra={"requestBody": CHUNK_BODY}
)
async def put_chunk(
    upload_id: str,
    request: Request,
    principal: UploadAccess,
    store: StoreDep,
    settings: SettingsDep,
    offset: Annotated[int, Query(ge=0, description="Where this chunk starts")],
    x_chunk_sha256: Annotated[str | None, Header()] = None,
) -> UploadOut:
    """Holds no database connection while the chunk arrives (api.upload_access)."""
    body = body_chunks(request, settings.upload_read_timeout_s)
    data = await _read_capped(body, service.CHUNK_BYTES_MAX)
    with session_scope(settings.resolved_database_url()) as session:
        upload = service.append(session, store, principal, upload_id, offset, data, x_chunk_sha256)
        return service.to_out(upload)


@router.post(
    "/{upload_id}/complete",
    response_model=DatasetOut,
    status_code=202,
    response_description="Queued: its ingest job runs in the background; Location names it",
    responses={
        200: {"model": DatasetOut, "description": "Already complete"},
        **error_responses(410),
    },
)
async def complete_upload(
    upload_id: str,
    response: Response,
    principal: UploadAccess,
    store: StoreDep,
    settings: SettingsDep,
) -> DatasetOut:
    """Idempotent, and safe to call again after any failure (uploads.completion)."""
    done = await completion.complete_and_start(settings, store, principal, upload_id)
    if not done.created:
        response.status_code = 200
    if done.created:
        response.headers["Location"] = f"/api/v1/datasets/{done.dataset.id}"
    return done.dataset


@router.delete("/{upload_id}", status_code=204)
def abort_upload(
    upload_id: str, principal: EditorAccess, session: SessionDep, store: StoreDep
) -> None:
    upload = service.get_visible(session, principal, upload_id)
    service.discard(store, upload)
    session.delete(upload)


async def _read_capped(body: AsyncIterator[bytes], max_bytes: int) -> bytes:
    parts, size = [], 0
    async for part in body:
        size += len(part)
        if size > max_bytes:
            raise FileTooLarge(
                f"a chunk may hold at most {max_bytes:,} bytes",
                detail={"chunk_bytes_max": max_bytes},
            )
        parts.append(part)
    return b"".join(parts)
