"""Mergeable percentiles: a fixed log-bucket histogram (docs/methods/workload.md,
"Bounded memory").

A positive value ``x`` falls in bucket ``i = ceil(log_gamma(x))`` with
``gamma = (1 + ALPHA) / (1 - ALPHA)``, i.e. ``(gamma^(i-1), gamma^i]``; zero has a bucket
of its own. The bucket's representative ``2 gamma^i / (gamma + 1)`` is within a relative
``ALPHA`` of every value in the bucket (the mapping of DDSketch, Masson, Rim and Lee,
VLDB 2019). A quantile interpolates linearly between the representatives of the two
order statistics around its rank, as ``numpy.percentile`` does between the values, so it
is within a relative ``ALPHA`` of the exact (linear) percentile. ``max`` is exact: each
bucket keeps the largest value it saw.

Why a fixed bucket mapping rather than the ``ddsketch`` package: the buckets are plain
integers, so a histogram is a polars frame ``(keys..., idx, n, max)``, built from a whole
column in one vectorised expression (no Python call per value) and merged by a
``group_by(...).sum()``: integer counts, so merging is exact, associative and
commutative, and a map's result can be written as Parquet. Latencies from a microsecond
to an hour need about 1,100 buckets; a group holds only those it saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

ALPHA = 0.01  # relative error of every percentile
GAMMA = (1 + ALPHA) / (1 - ALPHA)
LOG_GAMMA = math.log(GAMMA)
ZERO_BUCKET = -(2**31)
PERCENTILES = (50, 90, 95, 99)


def bucket_index(value: pl.Expr) -> pl.Expr:
    """The bucket of each non-negative value (``ZERO_BUCKET`` for 0)."""
    idx = (value.log() / LOG_GAMMA).ceil().cast(pl.Int32)
    return pl.when(value > 0).then(idx).otherwise(pl.lit(ZERO_BUCKET, pl.Int32))


def representative(idx: pl.Expr) -> pl.Expr:
    value = 2.0 * (idx.cast(pl.Float64) * LOG_GAMMA).exp() / (GAMMA + 1.0)
    return pl.when(idx == ZERO_BUCKET).then(0.0).otherwise(value)


def histogram_of(frame: pl.DataFrame, keys: Sequence[str], column: str) -> pl.DataFrame:
    """``(keys..., idx, n, max)`` of the non-null, non-negative values of ``column``."""
    values = frame.lazy().filter(pl.col(column).is_not_null() & (pl.col(column) >= 0))
    return (
        values.group_by([*keys, bucket_index(pl.col(column)).alias("idx")])
        .agg(pl.len().cast(pl.Int64).alias("n"), pl.col(column).max().alias("max"))
        .collect()
    )


def merge_histograms(frames: Sequence[pl.DataFrame], keys: Sequence[str]) -> pl.DataFrame:
    """One histogram of several (of the same keys): counts added, maxima kept."""
    seen = [f for f in frames if f.height]
    if not seen:
        return frames[0]
    both = pl.concat(seen, how="vertical_relaxed")
    return both.group_by([*keys, "idx"]).agg(pl.col("n").sum(), pl.col("max").max())


def percentiles(
    hist: pl.DataFrame, keys: Sequence[str], ps: Sequence[int] = PERCENTILES
) -> pl.DataFrame:
    """One row per group: ``count``, ``p50_s``.. (each within a relative ALPHA of the
    linear-interpolation percentile) and the exact ``max_s``; sorted by the keys."""
    keys = list(keys)
    over = keys or None
    ordered = (
        _sorted(hist, [*keys, "idx"])
        .lazy()
        .with_columns(
            pl.col("n").cum_sum().over(over).alias("_cum")
            if over
            else pl.col("n").cum_sum().alias("_cum"),
            (pl.col("n").sum().over(over) if over else pl.col("n").sum()).alias("_total"),
            representative(pl.col("idx")).alias("_value"),
        )
    )
    grouped = ordered.group_by(keys) if keys else None
    aggs = [
        pl.col("n").sum().alias("count"),
        *(_quantile(p / 100).alias(f"p{p}_s") for p in ps),
        pl.col("max").max().alias("max_s"),
    ]
    out = grouped.agg(aggs) if grouped is not None else ordered.select(aggs)
    return out.sort(keys).collect() if keys else out.collect()


def _sorted(frame: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """``frame`` sorted by ``columns``: one stable sort a column, the last first (the same
    order as one sort on every column, at a fraction of its cost when a key is a string)."""
    for column in reversed(columns):
        frame = frame.sort(column, maintain_order=True)
    return frame


def _quantile(q: float) -> pl.Expr:
    rank = (pl.col("_total") - 1).cast(pl.Float64) * q
    low, high = rank.floor(), rank.ceil()
    frac = (rank - low).first()
    return (1 - frac) * _at(low) + frac * _at(high)


def _at(rank: pl.Expr) -> pl.Expr:
    """The representative of the bucket holding the order statistic ``rank`` (0-based)."""
    inside = (pl.col("_cum") > rank) & ((pl.col("_cum") - pl.col("n")) <= rank)
    return pl.col("_value").filter(inside).first()
