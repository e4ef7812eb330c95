"""Streaming an upload into the object store: constant memory, sha256 on the fly, limits,
and a first look at the content so that a file that is not a log is refused at once."""

import re
import unicodedata
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import PurePosixPath, PureWindowsPath

from headroom.core.errors import FileTooLarge, InvalidInput
from headroom.core.storage import HashingWriter, ObjectStore
from headroom.datasets.parse_options import ParseOptions, resolve
from headroom.datasets.sniffing import Sniffed, checked_options, sniff_in_pool

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


@dataclass(frozen=True)
class StagedUpload:
    key: str
    name: str
    size_bytes: int
    sha256: str


def safe_name(raw: str | None) -> str:
    """A display/storage name: no directories, no control or shell-hostile characters."""
    base = PureWindowsPath(PurePosixPath(raw or "").name).name
    base = unicodedata.normalize("NFKC", base)
    base = _UNSAFE.sub("_", base).strip(" ._")[:200]
    return base or "upload.log"


async def stage(
    store: ObjectStore, chunks: AsyncIterator[bytes], name: str | None, max_bytes: int
) -> StagedUpload:
    key = f"uploads/staging/{uuid.uuid4().hex}"
    try:
        with store.writer(key) as handle:
            sink = HashingWriter(handle, max_bytes)
            async for chunk in chunks:
                sink.write(chunk)
    except OverflowError:
        raise too_large(max_bytes) from None
    staged = StagedUpload(
        key=key, name=safe_name(name), size_bytes=sink.size_bytes, sha256=sink.sha256
    )
    if staged.size_bytes == 0:
        store.delete(key)
        raise InvalidInput("empty_file", "the file is empty", field="file")
    return staged


def too_large(max_bytes: int, size_bytes: int | None = None) -> FileTooLarge:
    """413 for a file over the limit, both sizes in bytes and GB (a user compares them with
    what their system says of the file, an operator with HEADROOM_MAX_UPLOAD_BYTES)."""
    size = "" if size_bytes is None else f" ({size_bytes:,} bytes, {size_bytes / 1e9:.1f} GB)"
    return FileTooLarge(
        f"the file{size} is larger than the limit of {max_bytes:,} bytes "
        f"({max_bytes / 1e9:.1f} GB, HEADROOM_MAX_UPLOAD_BYTES on the server)",
        detail={"max_bytes": max_bytes, "size_bytes": size_bytes},
    )


def renamed(staged: StagedUpload, name: str | None) -> StagedUpload:
    return replace(staged, name=safe_name(name))


async def form_options(
    store: ObjectStore, staged: StagedUpload, query: ParseOptions, fields: dict[str, str]
) -> ParseOptions:
    """Multipart form fields override the query's options (a format or log_format field
    replaces both of the query's); a refusal deletes the file."""
    if not fields:
        return query
    base: dict[str, str | None] = {
        "format": query.format,
        "log_format": query.log_format,
        "zip_members": query.zip_members,
    }  # query.to_meta(), opened to the form's fields
    if "format" in fields or "log_format" in fields:
        base.update(format=None, log_format=None)
    merged = {**base, **fields}
    try:
        return await checked_options(
            resolve(merged.get("format"), merged.get("log_format"), merged.get("zip_members"))
        )
    except InvalidInput:
        store.delete(staged.key)
        raise


async def sniff(
    store: ObjectStore, staged: StagedUpload, options: ParseOptions | None = None
) -> Sniffed:
    """Detect the log format (or check the one given); refuse what is not a log (422),
    deleting the staged file."""
    sniffed = await sniff_in_pool(store.url, staged.key, options)
    if sniffed.error_code is not None:
        store.delete(staged.key)
        raise InvalidInput(
            sniffed.error_code,
            sniffed.error_message or "not a log file",
            field="file",
            detail=sniffed.error_detail,
        )
    return sniffed
