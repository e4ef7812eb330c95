"""iter_chunks: split a byte stream at newline boundaries into numbered chunks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from .records import Chunk, LogInputError

MIN_LINE_LIMIT = 64 << 20


def iter_chunks(stream: BinaryIO, chunk_bytes: int = 32 << 20) -> Iterator[Chunk]:
    """Yield chunks of whole lines of about `chunk_bytes` (more only for a longer line).

    Memory stays at about two chunks; line numbers are 1-based and continue across chunks.
    Each chunk is read straight into its own buffer (no copies of whole chunks).
    """
    if chunk_bytes <= 0:
        raise ValueError("chunk_bytes must be positive")
    carry = b""
    index = 0
    line_number = 1
    while True:
        data = bytearray(len(carry) + chunk_bytes)
        data[: len(carry)] = carry
        with memoryview(data) as view:
            filled = len(carry) + _fill(stream, view[len(carry) :])
        if filled == len(carry):
            break
        cut = data.rfind(b"\n", 0, filled) + 1
        if cut == 0:
            carry = bytes(data[:filled])  # one line longer than a chunk: keep reading
            _check_line_length(len(carry), chunk_bytes, line_number)
            continue
        carry = bytes(data[cut:filled])
        del data[cut:]
        yield Chunk(index, line_number, data)
        index += 1
        line_number += data.count(b"\n")
    if carry:
        yield Chunk(index, line_number, carry)


def _fill(stream: BinaryIO, view: memoryview) -> int:
    """Read into view until it is full or the stream ends; bytes read."""
    got = 0
    while got < len(view):
        n = stream.readinto(view[got:])  # type: ignore[attr-defined]
        if not n:
            break
        got += n
    return got


def _check_line_length(size: int, chunk_bytes: int, line_number: int) -> None:
    """Refuse a line so long that holding it would break the constant-memory promise."""
    limit = max(4 * chunk_bytes, MIN_LINE_LIMIT)
    if size > limit:
        raise LogInputError("line_too_long", f"line {line_number} is longer than {limit} bytes")
