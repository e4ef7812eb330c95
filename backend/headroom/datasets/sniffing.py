"""A first look at an uploaded file, in a helper process.

The parser (numba, polars) costs the API process ~150 MB of memory it does not otherwise
need, and its CPU time would block the event loop; so the API hands sniffing to a small
process pool and stays light. The child returns plain data, never exceptions with state."""

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SNIFF_BYTES = 1 << 20
_pool: ProcessPoolExecutor | None = None


@dataclass(frozen=True)
class Sniffed:
    format: str | None = None
    confidence: float = 0.0
    notes: tuple[str, ...] = ()
    error_code: str | None = None
    error_message: str | None = None
    error_detail: dict[str, Any] | None = None


def sniff_file(path: str) -> Sniffed:
    """Runs in the child: detect the log format from the first megabyte."""
    from headroom.engine.logs import LogInputError, UnrecognisedLogError, detect_format, open_log

    try:
        with open_log(Path(path)) as stream:
            sample = _whole_lines(stream.read(SNIFF_BYTES))
        detection = detect_format(sample)
    except UnrecognisedLogError as error:
        detail = {
            "line_number": error.line_number,
            "line": error.line,
            "closest_format": error.closest_format,
        }
        return Sniffed(
            error_code=error.code, error_message=_unparseable(error), error_detail=detail
        )
    except LogInputError as error:
        return Sniffed(error_code=error.code, error_message=error.message)
    return Sniffed(
        format=detection.format, confidence=detection.confidence, notes=tuple(detection.notes)
    )


def _whole_lines(sample: bytes) -> bytes:
    if len(sample) < SNIFF_BYTES:
        return sample
    cut = sample.rfind(b"\n")
    return sample[: cut + 1] if cut > 0 else sample


def _unparseable(error: Any) -> str:
    where = f" (line {error.line_number})" if error.line_number else ""
    closest = f"; the closest format is {error.closest_format}" if error.closest_format else ""
    return f"no supported log format matches this file{where}{closest}"


async def sniff_in_pool(path: Path) -> Sniffed:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), sniff_file, str(path))


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=500
        )
    return _pool


def shutdown_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
