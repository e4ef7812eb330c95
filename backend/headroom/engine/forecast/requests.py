"""A request table (a ``ts`` column) as an hourly rate series: each hour's requests over
the seconds of it the log covers (docs/methods/forecast.md)."""

from __future__ import annotations

import numpy as np
import polars as pl

from headroom.engine.forecast.series import HOUR_S, HistoryTooShort, HourlySeries
from headroom.engine.workload.coverage import frame_coverage

NS_PER_S = 1_000_000_000
HOUR_NS = int(HOUR_S) * NS_PER_S
MIN_COVERED = 0.1  # an hour the log covers for under 6 minutes gives no rate


def hourly_from_requests(table: pl.DataFrame | pl.LazyFrame) -> HourlySeries:
    """Hours the log covers for at least a tenth of an hour; the others (a first or last
    hour the log barely touches) are left out, so that a few minutes are not read as an
    hour's rate."""
    cover = frame_coverage(table)
    ts = table.lazy().select(pl.col("ts").dt.epoch("ns")).collect()["ts"].drop_nulls()
    if cover is None or ts.len() == 0:
        raise HistoryTooShort("the log has no timestamped requests")
    hours = ts.to_numpy() // HOUR_NS
    first = int(hours.min())
    counts = np.bincount(hours - first)
    starts_ns = (first + np.arange(len(counts), dtype=np.int64)) * HOUR_NS
    covered = cover.covered_s(starts_ns, HOUR_S)
    kept = covered >= MIN_COVERED * HOUR_S
    if kept.sum() < 2:
        raise HistoryTooShort("the log covers less than two hours")
    rates = counts[kept] / covered[kept]
    first_kept = starts_ns[kept] / NS_PER_S
    grid = np.arange(first_kept[0], first_kept[-1] + 1, HOUR_S)
    return HourlySeries(
        float(grid[0]), np.interp(grid, first_kept, rates), int(len(grid) - kept.sum())
    )
