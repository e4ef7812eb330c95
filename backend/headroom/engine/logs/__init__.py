"""Access-log parsing: formats, detection, chunking and compiled parsing into the request table.

Typical use::

    with open_log(path) as f:
        detection = detect_format(f.read(1 << 20))
    with open_log(path) as f:
        for chunk in iter_chunks(f):
            parsed = parse_chunk(chunk, detection)
"""

from .jitcache import invalidate_stale_cache

invalidate_stale_cache()  # before any kernel module is imported

from .chunks import iter_chunks  # noqa: E402
from .compression import open_log  # noqa: E402
from .detect import check_format, detect_format  # noqa: E402
from .parse import parse_chunk  # noqa: E402
from .records import (  # noqa: E402
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
    "check_format",
    "detect_format",
    "iter_chunks",
    "open_log",
    "parse_chunk",
]
