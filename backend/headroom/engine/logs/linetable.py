"""Shared pieces of the parsers that work on whole lines with polars expressions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from .records import REQUEST_SCHEMA
from .scanner import line_spans
from .tabulate import Scan
from .views import line_strings

TIME_SCALE_NS = {"epoch_s": 1e9, "epoch_ms": 1e6, "epoch_us": 1e3, "epoch_ns": 1.0}
LATENCY_PER_S = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}  # divisors (exact decimals)


@dataclass(frozen=True)
class Lines:
    buf: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    text: pl.Series


def split(buf: np.ndarray) -> Lines:
    starts, ends, _ = line_spans(buf)
    return Lines(buf, starts, ends, line_strings(buf, starts, ends, "line"))


def parse_time(s: pl.Expr, kind: str) -> pl.Expr:
    """A time column from epoch numbers (s/ms/us/ns) or ISO-8601 text, as UTC."""
    if kind in TIME_SCALE_NS:
        ns = (s.cast(pl.Float64, strict=False) * TIME_SCALE_NS[kind]).round(0)
        ns = pl.when(ns.abs() < 9e18).then(ns).cast(pl.Int64, strict=False)  # out of range: null
        return ns.cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")
    text = s.str.replace(" ", "T", literal=True).str.replace(r"Z$", "+00:00")
    zoned = text.str.to_datetime("%Y-%m-%dT%H:%M:%S%.f%:z", strict=False, time_unit="ns")
    naive = text.str.to_datetime("%Y-%m-%dT%H:%M:%S%.f", strict=False, time_unit="ns")
    return pl.coalesce(zoned.dt.convert_time_zone("UTC"), naive.dt.replace_time_zone("UTC"))


def split_url(url: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """path and query (without `?`; empty is null) of a request target."""
    path = url.str.extract(r"^([^?]*)")
    query = url.str.extract(r"\?(.*)$")
    return path, pl.when(query != "").then(query)


def finish(
    lines: Lines,
    frame: pl.DataFrame,
    err: np.ndarray,
    reason: Callable[[int], str],
    fields_parsed: int,
    structural: np.ndarray | None = None,
) -> Scan:
    """The Scan of a frame holding every line (rows with err != 0 are dropped)."""
    ok = err == 0
    table = frame.filter(pl.Series(ok)) if not ok.all() else frame
    table = table.select(
        [
            (pl.col(c) if c in frame.columns else pl.lit(None)).cast(t).alias(c)
            for c, t in REQUEST_SCHEMA.items()
        ]
    )
    progress = float(ok.mean()) if ok.size else 0.0
    latency = table["latency_s"].drop_nulls().to_numpy()
    point = np.ones(latency.size, np.bool_)
    blank = lines.starts == lines.ends
    structural = blank if structural is None else structural | blank
    return Scan(table, lines.starts, lines.ends, err, reason, progress, latency, point, structural)
