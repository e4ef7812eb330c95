"""Shared fixtures: small hand-written request tables and the real elastic log, parsed once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from headroom.engine.logs import REQUEST_SCHEMA, detect_format, iter_chunks, open_log, parse_chunk

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
ELASTIC = Path(__file__).parents[4] / "data" / "logs" / "apache_combined_elastic.log"
MakeTable = Callable[..., pl.DataFrame]


def make_table(offsets_s: Sequence[float], **columns: Sequence[Any]) -> pl.DataFrame:
    """A request table with `ts` at START + offsets; other columns given or defaulted."""
    n = len(offsets_s)
    defaults: dict[str, Sequence[Any]] = {
        "client": ["10.0.0.1"] * n,
        "method": ["GET"] * n,
        "path": ["/"] * n,
        "status": [200] * n,
        "bytes": [100] * n,
        "user_agent": ["ua"] * n,
    }
    data: dict[str, Any] = {"ts": [START + timedelta(seconds=float(o)) for o in offsets_s]}
    for name in REQUEST_SCHEMA:
        if name != "ts":
            data[name] = columns.get(name, defaults.get(name, [None] * n))
    return pl.DataFrame(data, schema=REQUEST_SCHEMA)


@pytest.fixture
def table() -> MakeTable:
    return make_table


@pytest.fixture(scope="session")
def elastic() -> pl.DataFrame:
    with open_log(ELASTIC) as f:
        detection = detect_format(f.read(1 << 20))
    with open_log(ELASTIC) as f:
        parts = [parse_chunk(chunk, detection).table for chunk in iter_chunks(f)]
    return pl.concat(parts)
