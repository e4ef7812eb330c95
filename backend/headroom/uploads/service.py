"""Resumable uploads: create a session, append chunks at the server's offset (each chunk
checked against its SHA-256), resume after a dropped connection by asking for the offset,
then complete into a dataset exactly like a one-shot upload.

Each chunk is written in place as a part of the upload's object (store.write_part: at its
offset of one file, or a part of one S3 multipart upload), and hashed as it arrives: the
SHA-256 state after each chunk is kept next to it (uploads.resumable_sha256). The
database's offset is the truth: a chunk whose write was not recorded is written again by
the next append at that offset, over the same bytes (or part), from the state recorded for
that offset, so a crash between writing bytes and recording them can never duplicate data.
Completion checks the parts make the whole file and finishes the object (a rename, or
CompleteMultipartUpload): no byte of the file is read or copied again."""

import hashlib
import secrets
import struct
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import FileTooLarge, HeadroomError, InvalidInput, NotFound
from headroom.core.storage import ObjectStore
from headroom.datasets import parse_options
from headroom.datasets import service as dataset_service
from headroom.datasets.parse_options import ParseOptions
from headroom.datasets.staging import StagedUpload, safe_name, too_large
from headroom.uploads import resumable_sha256
from headroom.uploads.models import Upload
from headroom.uploads.schemas import CHUNK_BYTES_MAX, UploadIn, UploadOut

TTL = timedelta(hours=24)  # from the last chunk: a 30 GB file on a slow line takes days


class OffsetMismatch(HeadroomError):
    status_code, code = 409, "offset_mismatch"


class UploadLost(HeadroomError):
    status_code, code = 410, "upload_lost"


class CompletionUnderWay(HeadroomError):
    """Another /complete finished the parts and moved the file on to its dataset while this
    one started (a client that asked twice): this one stops, the other finishes."""

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
    write_chunk(store, upload, offset, data)
    upload.offset_bytes = offset + len(data)
    upload.expires_at = datetime.now(UTC) + TTL
    return upload


def write_chunk(store: ObjectStore, upload: Upload, offset: int, data: bytes) -> None:
    """The chunk written in place as a part of the upload's object, the hash state at both
    of its ends kept."""
    state = _sha256_state(store, upload, offset)
    try:
        store.write_part(upload.storage_key, offset, data, upload.size_bytes)
    except ValueError as error:
        raise InvalidInput("chunk_too_small", str(error), field="body") from None
    after = (offset + len(data), resumable_sha256.updated(state, data))
    with store.writer(sha256_key(upload.id)) as handle:
        handle.write(_RECORD.pack(offset, state) + _RECORD.pack(*after))


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
    """The finished upload as one staged object at its key (its parts finished, if they are
    not yet), with its whole-file SHA-256."""
    if upload.offset_bytes != upload.size_bytes:
        raise OffsetMismatch(
            f"only {upload.offset_bytes:,} of {upload.size_bytes:,} bytes have arrived",
            detail={"offset_bytes": upload.offset_bytes},
        )
    digest = resumable_sha256.hexdigest(_sha256_state(store, upload, upload.size_bytes))
    try:
        store.finish_parts(upload.storage_key, upload.size_bytes)
    except FileNotFoundError:
        if not store.exists(upload.storage_key):  # finished, and moved on to the dataset
            raise CompletionUnderWay(
                f"another request is completing upload {upload.id}; ask again in a minute"
            ) from None
    except OverflowError:
        raise UploadLost(
            f"the parts of upload {upload.id} in storage do not make its "
            f"{upload.size_bytes:,} bytes; start the upload again"
        ) from None
    return StagedUpload(
        key=upload.storage_key, name=upload.name, size_bytes=upload.size_bytes, sha256=digest
    )


def chunks_prefix(upload_id: str) -> str:
    return f"uploads/chunks/{upload_id}"


def sha256_key(upload_id: str) -> str:
    return f"{chunks_prefix(upload_id)}/sha256"


_RECORD = struct.Struct(f"<Q{resumable_sha256.CTX_BYTES}s")  # offset, SHA-256 state there


def _sha256_state(store: ObjectStore, upload: Upload, offset: int) -> bytes:
    """The hash state of the bytes before offset: the state object holds the last append's
    two ends (its start, for that append written again, and its end)."""
    if offset == 0:
        return resumable_sha256.initial()
    try:
        with store.open(sha256_key(upload.id)) as handle:
            raw = handle.read()
    except FileNotFoundError:
        raw = b""
    for at, state in _RECORD.iter_unpack(raw):
        if at == offset:
            return state
    raise UploadLost(
        f"the checksum state of upload {upload.id} is gone from storage; start the upload again"
    )


def mark_complete(upload: Upload, dataset_id: int) -> None:
    upload.completed_at = datetime.now(UTC)
    upload.dataset_id = dataset_id


def purge_expired(session: Session, store: ObjectStore) -> int:
    expired = list(session.scalars(select(Upload).where(Upload.expires_at <= datetime.now(UTC))))
    for upload in expired:
        discard(store, upload)
        session.delete(upload)
    return len(expired)


def discard(store: ObjectStore, upload: Upload) -> None:
    """Removes every byte an upload left: its object, its parts, its hash state."""
    store.delete(upload.storage_key)
    store.abort_parts(upload.storage_key)
    store.delete_prefix(chunks_prefix(upload.id))
