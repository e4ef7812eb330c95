"""Object store: immutable uploads and parquet tables under string keys.

`HEADROOM_STORAGE_URL` picks the store: `file:///dir` (the default, a local directory) or
`s3://bucket/prefix` (any S3-compatible store, see core/storage_s3.py). Writes are atomic
(temp file + rename, or a multipart upload completed at the end), so a crash never leaves
half an object under a real key. Nothing here needs a local copy of a whole object: reads
stream or take byte ranges, and Parquet tables are scanned by polars from the store itself.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import math
import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import urlparse

from headroom.core.object_store import ObjectStore as ObjectStore
from headroom.core.object_store import StorageError as StorageError
from headroom.core.object_store import checked_key

if TYPE_CHECKING:
    import polars as pl


PARTS_FOLDER = ".parts"  # files being assembled, outside every key (and the janitor's sweep)


class LocalStore:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.url = f"file://{self.root}"

    def _path(self, key: str) -> Path:
        path = (self.root / checked_key(key)).resolve()
        if not path.is_relative_to(self.root) or path == self.root:
            raise ValueError(f"invalid storage key: {key!r}")
        return path

    @contextmanager
    def writer(self, key: str) -> Iterator[BinaryIO]:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.part")
        try:
            with open(tmp, "wb") as handle:
                yield handle
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def open(self, key: str) -> BinaryIO:
        return open(self._path(key), "rb")

    def read_range(self, key: str, start: int, end: int) -> bytes:
        with open(self._path(key), "rb") as handle:
            handle.seek(start)
            return handle.read(end - start)

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def size_bytes(self, key: str) -> int:
        return self._path(key).stat().st_size

    def move(self, src_key: str, dst_key: str) -> None:
        dst = self._path(dst_key)
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self._path(src_key), dst)

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def delete_prefix(self, prefix: str) -> None:
        path = self._path(prefix)
        if path.is_dir():
            shutil.rmtree(path, onerror=_unless_written_meanwhile)

    def list(self, prefix: str) -> list[str]:
        base = self._path(prefix)
        if not base.is_dir():
            return []
        return sorted(str(p.relative_to(self.root)) for p in base.rglob("*") if p.is_file())

    def modified_at(self, key: str) -> float:
        """Seconds since the epoch of the object's last write (0 if it is gone)."""
        return _modified_at(self._path(key), gone=0.0)

    def prune_empty_folders(self, changed_before: float) -> None:
        """Removes empty folders not changed since `changed_before` (a younger one may be
        about to receive a file)."""
        for folder in sorted(self.root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):  # rmdir only succeeds when empty
                if folder.is_dir() and folder.stat().st_mtime <= changed_before:
                    folder.rmdir()

    def scan_parquet(self, keys: Sequence[str]) -> pl.LazyFrame:
        import polars as pl  # the API process loads polars only when it reads a table

        return pl.scan_parquet([str(self._path(k)) for k in keys])

    def _parts_path(self, key: str) -> Path:
        return self.root / PARTS_FOLDER / checked_key(key)

    def write_part(self, key: str, offset: int, data: bytes, whole_bytes: int) -> None:
        """Writes data at its offset of the file being assembled for key (in place)."""
        path = self._parts_path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, data, offset)
        finally:
            os.close(fd)

    def finish_parts(self, key: str, whole_bytes: int) -> None:
        """Renames the assembled file to key. FileNotFoundError: none is being assembled
        (finished already); OverflowError: it holds fewer than whole_bytes. Parts arrive in
        order, so a file of whole_bytes has every byte range; bytes past it are a part
        written again shorter, cut off."""
        path = self._parts_path(key)
        size = path.stat().st_size
        if size < whole_bytes:
            raise OverflowError(size)
        os.truncate(path, whole_bytes)
        target = self._path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)

    def abort_parts(self, key: str) -> None:
        self._parts_path(key).unlink(missing_ok=True)

    def parts_keys(self, prefix: str, started_before: float) -> tuple[str, ...]:
        """The keys under prefix whose file being assembled was last written before
        `started_before` (seconds since the epoch)."""
        parts_root = self.root / PARTS_FOLDER
        base = parts_root / checked_key(prefix)
        if not base.is_dir():
            return ()
        return tuple(
            sorted(
                str(path.relative_to(parts_root))
                for path in base.rglob("*")
                if path.is_file() and _modified_at(path, gone=math.inf) <= started_before
            )
        )


def _modified_at(path: Path, gone: float) -> float:
    """Seconds since the epoch of the file's last write (`gone` if there is none)."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return gone


def open_store(url: str) -> ObjectStore:
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalStore(Path(parsed.path))
    if parsed.scheme == "s3":
        from headroom.core.storage_s3 import open_s3_store

        return open_s3_store(url)
    raise ValueError(
        f"unsupported HEADROOM_STORAGE_URL scheme {parsed.scheme!r} (use file:// or s3://)"
    )


class HashingWriter:
    """Counts and hashes bytes on their way to a file; refuses more than max_bytes."""

    def __init__(self, target: BinaryIO, max_bytes: int) -> None:
        self.target = target
        self.max_bytes = max_bytes
        self.size_bytes = 0
        self._sha = hashlib.sha256()

    def write(self, data: bytes) -> None:
        self.size_bytes += len(data)
        if self.size_bytes > self.max_bytes:
            raise OverflowError(self.size_bytes)
        self._sha.update(data)
        self.target.write(data)

    @property
    def sha256(self) -> str:
        return self._sha.hexdigest()


def _unless_written_meanwhile(function: Any, path: str, exc_info: Any) -> None:
    """A job still writing under a deleted prefix (its dataset deleted while it runs) leaves
    a folder that is not empty, or removes a file first: what it wrote is an object no row
    owns, the janitor's to remove. Any other error is raised."""
    error = exc_info[1]
    if isinstance(error, FileNotFoundError) or getattr(error, "errno", None) == errno.ENOTEMPTY:
        return
    raise error
