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

import numpy as np
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
    return histogram_query(frame.lazy(), keys, column).collect()


def histogram_query(frame: pl.LazyFrame, keys: Sequence[str], column: str) -> pl.LazyFrame:
    """:func:`histogram_of` as a query (to collect streaming)."""
    values = frame.filter(pl.col(column).is_not_null() & (pl.col(column) >= 0))
    return values.group_by([*keys, bucket_index(pl.col(column)).alias("idx")]).agg(
        pl.len().cast(pl.Int64).alias("n"), pl.col(column).max().alias("max")
    )


def merge_histograms(frames: Sequence[pl.DataFrame], keys: Sequence[str]) -> pl.DataFrame:
    """One histogram of several (of the same keys): counts added, maxima kept."""
    seen = [f for f in frames if f.height]
    if not seen:
        return frames[0]
    both = pl.concat(seen, how="vertical_relaxed")
    columns = [*keys, "idx"]
    order_keys = _sort_keys(both, columns)
    if order_keys is None or not _reducible(both):
        return both.group_by(columns).agg(pl.col("n").sum(), pl.col("max").max())
    return _merged_by_sort(both, columns, order_keys)


def _reducible(both: pl.DataFrame) -> bool:
    """Counts and maxima numpy adds and compares as the group-by does: no nulls, no NaN."""
    if both["n"].has_nulls() or both["max"].has_nulls():
        return False
    return not (both.schema["max"].is_float() and both["max"].is_nan().any())


def _merged_by_sort(both: pl.DataFrame, columns: list[str], keys: list[np.ndarray]) -> pl.DataFrame:
    """The group-by's rows (in key order) from one lexicographic sort of the keys and
    numpy's sums and maxima over each run of equal keys: on a histogram by time of
    weeks (900,000 rows) a fraction of a hash group-by's working set."""
    order = np.lexsort(keys)
    changed = np.zeros(len(order), dtype=bool)
    changed[0] = True
    for key in keys:
        ordered = key[order]
        changed[1:] |= ordered[1:] != ordered[:-1]
    runs = np.flatnonzero(changed)
    return both.select(columns)[order[runs]].with_columns(
        pl.Series("n", np.add.reduceat(both["n"].to_numpy()[order], runs)),
        pl.Series("max", np.maximum.reduceat(both["max"].to_numpy()[order], runs)),
    )


def percentiles(
    hist: pl.DataFrame, keys: Sequence[str], ps: Sequence[int] = PERCENTILES
) -> pl.DataFrame:
    """One row per group: ``count``, ``p50_s``.. (each within a relative ALPHA of the
    linear-interpolation percentile) and the exact ``max_s``; sorted by the keys.

    The histogram is sorted once by the keys and the bucket; each group is a run of rows,
    and the bucket holding an order statistic is found by a binary search of the
    running count (numpy, over every group at once)."""
    keys = list(keys)
    if hist.height == 0:
        return _no_percentiles(hist, keys, ps)
    ordered = _sorted(hist, [*keys, "idx"])
    starts = _group_starts(ordered, keys)
    counts = ordered["n"].to_numpy()
    cum = np.cumsum(counts)
    before = cum[starts] - counts[starts]  # the rows of the earlier groups
    total = np.append(before[1:], cum[-1]) - before
    # lazily, as the query before: the eager evaluation rounds some values differently
    value = ordered.lazy().select(representative(pl.col("idx"))).collect()[:, 0].to_numpy()
    columns: dict[str, np.ndarray] = {"count": total}
    for p in ps:
        columns[f"p{p}_s"] = _quantile(cum, before, total, value, p / 100)
    columns["max_s"] = np.maximum.reduceat(ordered["max"].to_numpy(), starts)
    out = pl.DataFrame(columns)
    if not keys:
        return out
    return pl.concat([ordered.select(keys)[starts], out], how="horizontal")


def _sorted(frame: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """``frame`` sorted by ``columns`` (nulls first), stably: one lexicographic sort of
    integer keys and one gather, where a stable sort per column, the last first, would
    copy the frame once a column."""
    keys = _sort_keys(frame, columns)
    if keys is None:
        return _sorted_column_by_column(frame, columns)
    return frame[np.lexsort(keys)]


def _sort_keys(frame: pl.DataFrame, columns: list[str]) -> list[np.ndarray] | None:
    """Integers in the order of each column (a string's rank among the column's; nulls
    first, as polars sorts them), the last column first, as ``np.lexsort`` takes them;
    None when a column is neither integer, time nor string."""
    keys = []
    for column in reversed(columns):
        values = frame[column]
        if values.dtype == pl.String:
            values = values.rank("dense")
        elif not (values.dtype.is_integer() or values.dtype.is_temporal()):
            return None
        ranked = values.to_physical().cast(pl.Int64)
        floor = (ranked.min() or 0) - 1  # type: ignore[operator]
        keys.append(ranked.fill_null(floor).to_numpy())
    return keys


def _sorted_column_by_column(frame: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """One stable sort a column, the last first (the same order as one sort on every
    column, at a fraction of its cost when a key is a string)."""
    for column in reversed(columns):
        frame = frame.sort(column, maintain_order=True)
    return frame


def _group_starts(ordered: pl.DataFrame, keys: list[str]) -> np.ndarray:
    """The first row of each run of equal keys (nulls equal)."""
    if not keys:
        return np.zeros(1, dtype=np.int64)
    changed = pl.any_horizontal(pl.col(k).ne_missing(pl.col(k).shift(1)) for k in keys)
    first = ordered.select(changed.alias("first"))["first"].to_numpy()
    first[0] = True  # a null key equals the shift's null
    return np.flatnonzero(first)


def _quantile(
    cum: np.ndarray, before: np.ndarray, total: np.ndarray, value: np.ndarray, q: float
) -> np.ndarray:
    """Linear interpolation between the order statistics around rank ``q (total - 1)``."""
    rank = (total - 1).astype(np.float64) * q
    low, high = np.floor(rank), np.ceil(rank)
    frac = rank - low
    return (1 - frac) * _at(cum, before, value, low) + frac * _at(cum, before, value, high)


def _at(cum: np.ndarray, before: np.ndarray, value: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The representative of the bucket holding each group's order statistic ``rank``
    (0-based): its group's first row whose running count exceeds the rank."""
    return value[np.searchsorted(cum, before + rank, side="right")]


def _no_percentiles(hist: pl.DataFrame, keys: list[str], ps: Sequence[int]) -> pl.DataFrame:
    """What :func:`percentiles` gives of an empty histogram: no group, or with no keys
    one row of a zero count and no values."""
    schema: dict[str, pl.DataType] = {k: hist.schema[k] for k in keys}
    schema["count"] = pl.Int64()
    schema |= {f"p{p}_s": pl.Float64() for p in ps}
    schema["max_s"] = pl.Float64()
    rows = [] if keys else [{"count": 0}]
    return pl.DataFrame(rows, schema=schema)
