"""Object store: immutable uploads and parquet tables under string keys.

The local-directory store is the default; an S3-compatible store would implement the same
protocol. Writes are atomic (temp file + rename), so a crash never leaves half an object
under a real key.
"""

import contextlib
import hashlib
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import BinaryIO, Protocol
from urllib.parse import urlparse


class ObjectStore(Protocol):
    def writer(self, key: str) -> AbstractContextManager[BinaryIO]: ...
    def open(self, key: str) -> BinaryIO: ...
    def local_path(self, key: str) -> Path: ...
    def exists(self, key: str) -> bool: ...
    def size_bytes(self, key: str) -> int: ...
    def move(self, src_key: str, dst_key: str) -> None: ...
    def delete(self, key: str) -> None: ...
    def delete_prefix(self, prefix: str) -> None: ...
    def list(self, prefix: str) -> list[str]: ...
    def modified_at(self, key: str) -> float: ...


class LocalStore:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def local_path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if not path.is_relative_to(self.root) or path == self.root:
            raise ValueError(f"invalid storage key: {key!r}")
        return path

    @contextmanager
    def writer(self, key: str) -> Iterator[BinaryIO]:
        path = self.local_path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.part")
        try:
            with open(tmp, "wb") as handle:
                yield handle
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def open(self, key: str) -> BinaryIO:
        return open(self.local_path(key), "rb")

    def exists(self, key: str) -> bool:
        return self.local_path(key).is_file()

    def size_bytes(self, key: str) -> int:
        return self.local_path(key).stat().st_size

    def move(self, src_key: str, dst_key: str) -> None:
        dst = self.local_path(dst_key)
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self.local_path(src_key), dst)

    def delete(self, key: str) -> None:
        self.local_path(key).unlink(missing_ok=True)

    def delete_prefix(self, prefix: str) -> None:
        path = self.local_path(prefix)
        if path.is_dir():
            shutil.rmtree(path)

    def list(self, prefix: str) -> list[str]:
        base = self.local_path(prefix)
        if not base.is_dir():
            return []
        return sorted(str(p.relative_to(self.root)) for p in base.rglob("*") if p.is_file())

    def modified_at(self, key: str) -> float:
        """Seconds since the epoch of the object's last write (0 if it is gone)."""
        try:
            return self.local_path(key).stat().st_mtime
        except FileNotFoundError:
            return 0.0

    def prune_empty_folders(self, changed_before: float) -> None:
        """Removes empty folders not changed since `changed_before` (a younger one may be
        about to receive a file)."""
        for folder in sorted(self.root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):  # rmdir only succeeds when empty
                if folder.is_dir() and folder.stat().st_mtime <= changed_before:
                    folder.rmdir()


def open_store(url: str) -> LocalStore:
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalStore(Path(parsed.path))
    raise ValueError(f"unsupported HEADROOM_STORAGE_URL scheme {parsed.scheme!r} (use file://)")


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
