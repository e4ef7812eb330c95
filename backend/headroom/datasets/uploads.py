"""Streaming an upload into the object store: constant memory, sha256 on the fly, limits,
and a first look at the content so that a file that is not a log is refused at once."""

import re
import unicodedata
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath

from headroom.core.errors import FileTooLarge, InvalidInput
from headroom.core.storage import HashingWriter, LocalStore
from headroom.engine.logs import (
    Detection,
    LogInputError,
    UnrecognisedLogError,
    detect_format,
    open_log,
)

SNIFF_BYTES = 1 << 20
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
    store: LocalStore, chunks: AsyncIterator[bytes], name: str | None, max_bytes: int
) -> StagedUpload:
    key = f"uploads/staging/{uuid.uuid4().hex}"
    try:
        with store.writer(key) as handle:
            sink = HashingWriter(handle, max_bytes)
            async for chunk in chunks:
                sink.write(chunk)
    except OverflowError:
        raise FileTooLarge(
            f"the file is larger than the limit of {max_bytes:,} bytes",
            detail={"max_bytes": max_bytes},
        ) from None
    staged = StagedUpload(
        key=key, name=safe_name(name), size_bytes=sink.size_bytes, sha256=sink.sha256
    )
    if staged.size_bytes == 0:
        store.delete(key)
        raise InvalidInput("empty_file", "the file is empty", field="file")
    return staged


def sniff(store: LocalStore, staged: StagedUpload) -> Detection:
    """Detect the log format from the first megabyte; refuse what is not a log (422)."""
    try:
        with open_log(store.local_path(staged.key)) as stream:
            sample = _whole_lines(stream.read(SNIFF_BYTES))
        return detect_format(sample)
    except UnrecognisedLogError as error:
        raise InvalidInput(
            "unparseable_log",
            _unparseable_message(error),
            field="file",
            detail={
                "line_number": error.line_number,
                "line": error.line,
                "closest_format": error.closest_format,
            },
        ) from None
    except LogInputError as error:
        raise InvalidInput(error.code, error.message, field="file") from None


def _whole_lines(sample: bytes) -> bytes:
    if len(sample) < SNIFF_BYTES:
        return sample
    cut = sample.rfind(b"\n")
    return sample[: cut + 1] if cut > 0 else sample


def _unparseable_message(error: UnrecognisedLogError) -> str:
    where = f" (line {error.line_number})" if error.line_number else ""
    closest = f"; the closest format is {error.closest_format}" if error.closest_format else ""
    return f"no supported log format matches this file{where}{closest}"
