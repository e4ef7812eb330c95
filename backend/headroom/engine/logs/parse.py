"""parse_chunk: bytes of whole lines -> the request table plus counted rejects."""

from __future__ import annotations

import numpy as np

from .formats import get_parser
from .records import REJECT_TEXT_CHARS, REJECTS_KEPT, Chunk, Detection, ParsedChunk, Reject


def as_buffer(data: bytes | bytearray | np.ndarray) -> np.ndarray:
    """The chunk as uint8, made valid UTF-8 (bad bytes become U+FFFD) so strings need no check."""
    buf = np.frombuffer(data, np.uint8)
    if buf.size and buf.max() >= 128:
        buf = np.frombuffer(buf.tobytes().decode("utf-8", "replace").encode("utf-8"), np.uint8)
    return buf


def parse_chunk(
    chunk: Chunk | bytes, fmt: str | Detection, first_line_number: int = 1
) -> ParsedChunk:
    """Parse whole lines; bad lines never raise, they become counted rejects. Lines the
    parser marks as structure (blank, directives, headers) are counted as skipped.

    Line numbers are 1-based from `chunk.first_line_number` (or `first_line_number`).
    """
    if isinstance(chunk, Chunk):
        data, first_line_number = chunk.data, chunk.first_line_number
    else:
        data = chunk if isinstance(chunk, bytes) else bytes(chunk)
    parser = get_parser(fmt.format if isinstance(fmt, Detection) else fmt)
    buf = as_buffer(data)
    scan = parser.scan(buf)
    starts, ends = scan.starts, scan.ends
    failed = scan.err != 0
    skipped = failed & scan.structural if scan.structural is not None else None
    if skipped is not None:
        failed &= ~skipped
    bad = np.flatnonzero(failed)
    rejects = tuple(
        Reject(
            line_number=first_line_number + int(i),
            reason=scan.reason(int(i)),
            text=bytes(buf[starts[i] : ends[i]]).decode("utf-8", "replace")[:REJECT_TEXT_CHARS],
        )
        for i in bad[:REJECTS_KEPT]
    )
    skip_count = int(np.count_nonzero(skipped)) if skipped is not None else 0
    return ParsedChunk(scan.table, rejects, int(starts.size), int(bad.size), skip_count)
