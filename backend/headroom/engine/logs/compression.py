"""open_log: transparent decompression chosen by magic bytes, with a decompression-bomb guard."""

from __future__ import annotations

import bz2
import gzip
import io
import os
import zipfile
from typing import BinaryIO, Literal

import zstandard

from .records import LogInputError

DEFAULT_MAX_OUTPUT_BYTES = 64 << 30
DEFAULT_MAX_RATIO = 250.0  # access logs compress ~10-30x; bombs reach 1000x and more
RATIO_GRACE_BYTES = 16 << 20  # small files may compress extremely well; judge after this
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"PK\x03\x04", "zip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x04\x22\x4d\x18", "lz4"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "rar"),
)
_UNSUPPORTED = {"xz", "lz4", "7z", "rar"}


def sniff_compression(head: bytes) -> str | None:
    """The compression named by the magic bytes, or None for plain data."""
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    return None


class _CountingReader(io.RawIOBase):
    """Counts bytes read from the compressed source (for the ratio guard)."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(b))
        b[: len(data)] = data
        self.count += len(data)
        return len(data)

    def seekable(self) -> bool:
        return True  # zip archives need it; the source is always a regular file

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.raw.seek(offset, whence)

    def tell(self) -> int:
        return self.raw.tell()

    def close(self) -> None:
        self.raw.close()
        super().close()


class _GuardedReader(io.RawIOBase):
    """Decompressed stream that refuses to expand beyond the size and ratio limits."""

    def __init__(
        self, inner: BinaryIO, source: _CountingReader, max_output: int, max_ratio: float
    ) -> None:
        self.inner, self.source = inner, source
        self.max_output, self.max_ratio = max_output, max_ratio
        self.produced = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(len(b))
        b[: len(data)] = data
        self.produced += len(data)
        self._check()
        return len(data)

    def _check(self) -> None:
        if self.produced > self.max_output:
            raise LogInputError(
                "decompression_bomb",
                f"decompressed size exceeds the limit of {self.max_output} bytes",
            )
        ratio = self.produced / max(self.source.count, 1)
        if self.produced > RATIO_GRACE_BYTES and ratio > self.max_ratio:
            raise LogInputError(
                "decompression_bomb",
                f"compression ratio {ratio:.0f}:1 exceeds the limit of {self.max_ratio:.0f}:1",
            )

    def close(self) -> None:
        self.inner.close()
        self.source.close()
        super().close()


def _decompressor(kind: str, source: _CountingReader, zip_members: str) -> BinaryIO:
    if kind == "zip":
        return _zip_stream(source, zip_members)  # type: ignore[arg-type]
    raw: BinaryIO = io.BufferedReader(source, 1 << 20)  # closing it closes the source
    if kind == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if kind == "bzip2":
        return bz2.BZ2File(raw, "rb")  # type: ignore[return-value]
    if kind == "zstd":
        return zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    raise AssertionError(kind)


def _zip_stream(raw: BinaryIO, zip_members: str) -> BinaryIO:
    try:
        archive = zipfile.ZipFile(raw)
    except zipfile.BadZipFile as exc:
        raise LogInputError("corrupt_archive", f"unreadable zip archive: {exc}") from exc
    names = [i.filename for i in archive.infolist() if not i.is_dir()]
    if not names:
        raise LogInputError("empty_archive", "the zip archive holds no file")
    if zip_members == "first":
        names = names[:1]
    members: list[BinaryIO] = [archive.open(n) for n in names]  # type: ignore[misc]
    return io.BufferedReader(_Concat(members))


class _Concat(io.RawIOBase):
    def __init__(self, parts: list[BinaryIO]) -> None:
        self.parts = parts

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        while self.parts:
            data = self.parts[0].read(len(b))
            if data:
                b[: len(data)] = data
                return len(data)
            self.parts.pop(0).close()
        return 0


def _is_stream(path: object) -> bool:
    return hasattr(path, "read")


def open_log(
    path: str | os.PathLike[str] | BinaryIO,
    *,
    max_output_bytes: int | None = None,
    max_ratio: float | None = None,
    zip_members: Literal["first", "all"] = "first",
) -> BinaryIO:
    """Open a log for binary reading, decompressing gzip/bzip2/zstd/zip by magic bytes.

    Limits default to DEFAULT_MAX_OUTPUT_BYTES and DEFAULT_MAX_RATIO; exceeding one while
    reading raises LogInputError("decompression_bomb"). A zip yields its first member, or
    all members concatenated with ``zip_members="all"``.
    """
    # An open binary file is taken as is (callers wrap it to measure progress on disk bytes).
    f: BinaryIO = open(path, "rb") if isinstance(path, str | os.PathLike) else path  # noqa: SIM115
    kind = sniff_compression(f.read(8))
    f.seek(0)
    if kind is None:
        return f
    if kind in _UNSUPPORTED:
        f.close()
        raise LogInputError("unsupported_compression", f"{kind} compression is not supported")
    source = _CountingReader(f)
    inner = _decompressor(kind, source, zip_members)
    guarded = _GuardedReader(
        inner,
        source,
        DEFAULT_MAX_OUTPUT_BYTES if max_output_bytes is None else max_output_bytes,
        DEFAULT_MAX_RATIO if max_ratio is None else max_ratio,
    )
    return io.BufferedReader(guarded, 1 << 20)
