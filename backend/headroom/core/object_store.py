"""What every object store is (core/storage.py, core/storage_s3.py): the interface, its
error and the rule for keys."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, BinaryIO, Protocol

if TYPE_CHECKING:
    import polars as pl


class StorageError(Exception):
    """The store cannot be used (no such bucket, refused credentials, a refused write)."""


class ObjectStore(Protocol):
    url: str

    def writer(self, key: str) -> AbstractContextManager[BinaryIO]: ...
    def open(self, key: str) -> BinaryIO: ...
    def read_range(self, key: str, start: int, end: int) -> bytes: ...
    def exists(self, key: str) -> bool: ...
    def size_bytes(self, key: str) -> int: ...
    def move(self, src_key: str, dst_key: str) -> None: ...
    def delete(self, key: str) -> None: ...
    def delete_prefix(self, prefix: str) -> None: ...
    def list(self, prefix: str) -> list[str]: ...
    def modified_at(self, key: str) -> float: ...
    def prune_empty_folders(self, changed_before: float) -> None: ...
    def scan_parquet(self, keys: Sequence[str]) -> pl.LazyFrame: ...


def checked_key(key: str) -> str:
    """A relative key without empty, `.` or `..` segments (never outside the store)."""
    parts = key.strip("/").split("/")
    if not key.strip("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"invalid storage key: {key!r}")
    return "/".join(parts)
