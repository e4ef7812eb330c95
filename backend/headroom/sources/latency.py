"""A source's dataset's latency read back from its interval table: the stored percentiles
and the histogram bucket each interval's p95 lies in."""

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from headroom.core.storage import ObjectStore
from headroom.engine.prometheus import quantile_bucket
from headroom.jobs.models import Result
from headroom.sources.documents import QUANTILES, bucket_bounds


@dataclass(frozen=True)
class LatencyTable:
    """The ``all`` class's intervals: starts, p50/p95/p99, and the p95's bucket bounds."""

    bounds_s: list[float]  # finite, ascending
    start_s: np.ndarray
    percentiles: dict[str, np.ndarray]
    p95_low_s: np.ndarray
    p95_high_s: np.ndarray


def latency_table(store: ObjectStore, result: Result) -> LatencyTable:
    """Read from the import's table: the percentiles it stored and, from its cumulative
    bucket columns, the bucket each interval's p95 lies in."""
    bounds = bucket_bounds(result.document)
    buckets = [f"bucket_{i}" for i in range(bounds.size)]
    table = (
        store.scan_parquet(result.table_keys)
        .filter(pl.col("class") == "all")
        .sort("start_s")
        .collect()
    )
    buckets = [c for c in buckets if c in table.columns]
    counts = table.select(buckets).to_numpy() if buckets else np.empty((table.height, 0))
    low, high = quantile_bucket(0.95, bounds[: len(buckets)], counts)
    return LatencyTable(
        [float(b) for b in bounds if math.isfinite(b)],
        table["start_s"].to_numpy(),
        {name: table[name].to_numpy() for name in QUANTILES},
        low,
        high,
    )
