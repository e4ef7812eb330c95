"""Resumable uploads: create a session, append chunks at the server's offset (each chunk
checked against its SHA-256), resume after a dropped connection by asking for the offset,
then complete into a dataset exactly like a one-shot upload.

Each chunk is its own object, named by its offset (any store can hold it: no object is ever
written in place). The database's offset is the truth: a chunk whose write was not recorded
is overwritten by the next append at that offset, so a crash between writing bytes and
recording them can never duplicate data. Completion joins the chunks, streaming, into the
upload's key."""

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import FileTooLarge, HeadroomError, InvalidInput, NotFound
from headroom.core.storage import HashingWriter, ObjectStore
from headroom.datasets import parse_options
from headroom.datasets import service as dataset_service
from headroom.datasets.parse_options import ParseOptions
from headroom.datasets.staging import StagedUpload, safe_name, too_large
from headroom.uploads.models import Upload
from headroom.uploads.schemas import CHUNK_BYTES_MAX, UploadIn, UploadOut

TTL = timedelta(hours=24)  # from the last chunk: a 30 GB file on a slow line takes days


class OffsetMismatch(HeadroomError):
    status_code, code = 409, "offset_mismatch"


class UploadLost(HeadroomError):
    status_code, code = 410, "upload_lost"


class CompletionUnderWay(HeadroomError):
    """Another /complete joined the chunks first (a client that gave up waiting on a large
    file and asked again): this one stops, the other finishes."""

    status_code, code = 409, "completion_under_way"
    retry_after_s = 60


def to_out(upload: Upload) -> UploadOut:
    return UploadOut.model_validate(upload)


def options_of(upload: Upload) -> ParseOptions:
    return parse_options.from_json(upload.parse_options)


def requested_options(body: UploadIn) -> ParseOptions:
    """The cheap checks; the router compiles a log_format string (sniffing.checked_options)."""
    return parse_options.resolve(body.format, body.log_format, body.zip_members)


def create(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    body: UploadIn,
    max_bytes: int,
    options: ParseOptions | None = None,
) -> Upload:
    workspace_id = dataset_service.resolve_workspace(principal, body.workspace_id)
    dataset_service.require_upload_rights(principal, workspace_id)
    if body.size_bytes > max_bytes:
        raise too_large(max_bytes, body.size_bytes)
    upload_id = secrets.token_hex(16)
    upload = Upload(
        id=upload_id,
        workspace_id=workspace_id,
        user_id=principal.user.id,
        name=safe_name(body.name),
        size_bytes=body.size_bytes,
        offset_bytes=0,
        storage_key=f"uploads/partial/{upload_id}",
        expires_at=datetime.now(UTC) + TTL,
        parse_options=(options or ParseOptions()).to_meta(),
    )
    session.add(upload)
    session.flush()
    return upload


def get_visible(
    session: Session, principal: Principal, upload_id: str, for_update: bool = False
) -> Upload:
    query = select(Upload).where(
        Upload.id == upload_id,
        Upload.workspace_id.in_(principal.workspace_ids),
        Upload.user_id == principal.user.id,
    )
    upload = session.scalar(query.with_for_update() if for_update else query)
    if upload is None or upload.expires_at <= datetime.now(UTC):
        raise NotFound(f"upload {upload_id} not found (or expired)")
    return upload


def append(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    upload_id: str,
    offset: int,
    data: bytes,
    sha256_hex: str | None,
) -> Upload:
    upload = get_visible(session, principal, upload_id, for_update=True)
    if upload.completed_at is not None or upload.dataset_id is not None:
        raise OffsetMismatch(
            "this upload is already complete", detail={"offset_bytes": upload.offset_bytes}
        )
    if offset != upload.offset_bytes:
        raise OffsetMismatch(
            f"the next chunk starts at byte {upload.offset_bytes:,}",
            detail={"offset_bytes": upload.offset_bytes},
        )
    _check_chunk(upload, data, sha256_hex)
    with store.writer(chunk_key(upload.id, offset)) as chunk:
        chunk.write(data)
    upload.offset_bytes = offset + len(data)
    upload.expires_at = datetime.now(UTC) + TTL
    return upload


def _check_chunk(upload: Upload, data: bytes, sha256_hex: str | None) -> None:
    if not data:
        raise InvalidInput("empty_chunk", "the chunk is empty", field="body")
    if len(data) > CHUNK_BYTES_MAX:
        raise FileTooLarge(
            f"a chunk may hold at most {CHUNK_BYTES_MAX:,} bytes",
            detail={"chunk_bytes_max": CHUNK_BYTES_MAX},
        )
    if upload.offset_bytes + len(data) > upload.size_bytes:
        raise InvalidInput(
            "too_many_bytes",
            "the chunk goes past the declared file size",
            field="body",
            detail={"size_bytes": upload.size_bytes},
        )
    if sha256_hex is not None and hashlib.sha256(data).hexdigest() != sha256_hex.lower():
        raise InvalidInput(
            "checksum_mismatch",
            "the chunk's SHA-256 does not match X-Chunk-SHA256; send it again",
            field="X-Chunk-SHA256",
        )


def staged_from(store: ObjectStore, upload: Upload) -> StagedUpload:
    """The finished upload as one staged object at its key (its chunks joined, if they
    still are apart), with its whole-file SHA-256."""
    if upload.offset_bytes != upload.size_bytes:
        raise OffsetMismatch(
            f"only {upload.offset_bytes:,} of {upload.size_bytes:,} bytes have arrived",
            detail={"offset_bytes": upload.offset_bytes},
        )
    chunks = store.list(chunks_prefix(upload.id))
    digest = _joined(store, upload, chunks) if chunks else _hashed(store, upload)
    return StagedUpload(
        key=upload.storage_key, name=upload.name, size_bytes=upload.size_bytes, sha256=digest
    )


def chunks_prefix(upload_id: str) -> str:
    return f"uploads/chunks/{upload_id}"


def chunk_key(upload_id: str, offset: int) -> str:
    return f"{chunks_prefix(upload_id)}/{offset:016d}"


def _joined(store: ObjectStore, upload: Upload, chunks: list[str]) -> str:
    """Streams the chunks into the upload's key (atomic: all or nothing), then removes them.
    A crash in between leaves the chunks, and the next completion joins them again."""
    try:
        with store.writer(upload.storage_key) as whole:
            digest = _copied(store, chunks, HashingWriter(whole, upload.size_bytes))
    except OverflowError:
        raise UploadLost(
            f"the chunks of upload {upload.id} in storage do not make its "
            f"{upload.size_bytes:,} bytes; start the upload again"
        ) from None
    except FileNotFoundError:
        raise CompletionUnderWay(
            f"the chunks of upload {upload.id} were joined by another request completing it; "
            "ask again in a minute (a large file takes a while)"
        ) from None
    store.delete_prefix(chunks_prefix(upload.id))
    return digest


def _copied(store: ObjectStore, chunks: list[str], sink: HashingWriter) -> str:
    for key in chunks:
        with store.open(key) as chunk:
            while block := chunk.read(1 << 20):
                sink.write(block)
    if sink.size_bytes != sink.max_bytes:
        raise OverflowError(sink.size_bytes)  # fewer bytes than the upload's size
    return sink.sha256


def _hashed(store: ObjectStore, upload: Upload) -> str:
    digest = hashlib.sha256()
    try:
        with store.open(upload.storage_key) as whole:
            while block := whole.read(1 << 20):
                digest.update(block)
    except FileNotFoundError:
        raise NotFound(
            f"the bytes of upload {upload.id} are gone from storage; start the upload again"
        ) from None
    return digest.hexdigest()


def mark_complete(upload: Upload, dataset_id: int) -> None:
    upload.completed_at = datetime.now(UTC)
    upload.dataset_id = dataset_id


def purge_expired(session: Session, store: ObjectStore) -> int:
    expired = list(session.scalars(select(Upload).where(Upload.expires_at <= datetime.now(UTC))))
    for upload in expired:
        store.delete(upload.storage_key)
        store.delete_prefix(chunks_prefix(upload.id))
        session.delete(upload)
    return len(expired)
