"""The request table schema, the parse results and the input errors."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

REQUEST_SCHEMA: dict[str, pl.DataType] = {
    "ts": pl.Datetime("ns", "UTC"),
    "client": pl.String(),
    "method": pl.String(),
    "path": pl.String(),
    "query": pl.String(),
    "status": pl.Int16(),
    "bytes": pl.Int64(),
    "latency_s": pl.Float64(),
    "referer": pl.String(),
    "user_agent": pl.String(),
    "server": pl.String(),
    "cls_request": pl.String(),
    "cls_user": pl.String(),
}

REJECTS_KEPT = 20
REJECT_TEXT_CHARS = 500


class LogInputError(ValueError):
    """Unusable input; `code` is stable and safe to show (e.g. ``decompression_bomb``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class UnrecognisedLogError(LogInputError):
    """No known format parses at least half of the sample."""

    def __init__(
        self,
        message: str,
        closest_format: str | None = None,
        line_number: int | None = None,
        line: str | None = None,
    ) -> None:
        super().__init__("unparseable_log", message)
        self.closest_format = closest_format
        self.line_number = line_number
        self.line = line


@dataclass(frozen=True)
class Detection:
    format: str
    confidence: float
    parsed_fraction: float
    latency_unit: str | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reject:
    line_number: int
    reason: str
    text: str


@dataclass(frozen=True)
class ParsedChunk:
    """One chunk's requests; `rejects` keeps the first 20, `reject_count` counts all.
    `skip_count` counts the lines that are the format's structure, not requests (blank
    lines, W3C directives, a CSV/TSV header, a JSON log's non-access entries): neither
    parsed nor rejected.

    Invariant: ``table.height + reject_count + skip_count == line_count``.
    """

    table: pl.DataFrame
    rejects: tuple[Reject, ...]
    line_count: int
    reject_count: int
    skip_count: int = 0


@dataclass(frozen=True)
class Chunk:
    index: int
    first_line_number: int
    data: bytes | bytearray | np.ndarray  # uint8


def empty_table() -> pl.DataFrame:
    return pl.DataFrame(schema=REQUEST_SCHEMA)
