"""Access-log parsing: formats, detection, chunking and compiled parsing into the request table.

Typical use::

    with open_log(path) as f:
        detection = detect_format(f.read(1 << 20))
    with open_log(path) as f:
        for chunk in iter_chunks(f):
            parsed = parse_chunk(chunk, detection)
"""

from .chunks import iter_chunks
from .compression import open_log
from .detect import detect_format
from .parse import parse_chunk
from .records import (
    REQUEST_SCHEMA,
    Chunk,
    Detection,
    LogInputError,
    ParsedChunk,
    Reject,
    UnrecognisedLogError,
)

__all__ = [
    "REQUEST_SCHEMA",
    "Chunk",
    "Detection",
    "LogInputError",
    "ParsedChunk",
    "Reject",
    "UnrecognisedLogError",
    "detect_format",
    "iter_chunks",
    "open_log",
    "parse_chunk",
]
