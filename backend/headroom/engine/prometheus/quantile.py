"""Prometheus' `histogram_quantile` over classic cumulative buckets, vectorised over rows
(docs/sources.md): linear interpolation inside the bucket holding the rank, the first
bucket starting at 0 (when its bound is positive), and a rank in the +Inf bucket answered
with the largest finite bound."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]


def histogram_quantile(q: float, upper_s: F64, counts: F64) -> F64:
    """``upper_s``: bucket bounds, ascending, the last +Inf; ``counts``: cumulative counts,
    one row per interval (shape ``(rows, buckets)``). NaN where a row has no
    observations, or when there is no +Inf bucket or fewer than two buckets."""
    upper = np.asarray(upper_s, np.float64)
    cum = np.atleast_2d(np.asarray(counts, np.float64))
    rows = cum.shape[0]
    if q < 0:
        return np.full(rows, -np.inf)
    if q > 1:
        return np.full(rows, np.inf)
    if upper.size < 2 or not np.isposinf(upper[-1]):
        return np.full(rows, np.nan)
    cum = np.maximum.accumulate(np.nan_to_num(cum, nan=0.0), axis=1)  # Prometheus' monotonic fix
    total = cum[:, -1]
    rank = q * total
    bucket = (cum >= rank[:, None]).argmax(axis=1)
    return _interpolate(upper, cum, bucket, rank, total)


def _interpolate(upper: F64, cum: F64, bucket: NDArray[np.int64], rank: F64, total: F64) -> F64:
    rows = np.arange(cum.shape[0])
    last = upper.size - 1
    start = np.where(bucket > 0, upper[np.maximum(bucket - 1, 0)], 0.0)
    end = upper[bucket]
    below = np.where(bucket > 0, cum[rows, np.maximum(bucket - 1, 0)], 0.0)
    inside = cum[rows, bucket] - below
    with np.errstate(invalid="ignore", divide="ignore"):
        value = start + (end - start) * (rank - below) / inside
    value = np.where((bucket == 0) & (upper[0] <= 0), upper[0], value)
    value = np.where(bucket == last, upper[last - 1], value)
    return np.where(total > 0, value, np.nan)


def quantile_bucket(q: float, upper_s: F64, counts: F64) -> tuple[F64, F64]:
    """The bounds of the bucket each row's `q` quantile is interpolated in: ``(lower,
    upper]`` (the first bucket's lower 0, the +Inf bucket's upper inf); NaN where the
    row has no observations. The quantile itself is only known to lie in this band."""
    upper = np.asarray(upper_s, np.float64)
    cum = np.atleast_2d(np.asarray(counts, np.float64))
    rows = cum.shape[0]
    if upper.size < 2 or not np.isposinf(upper[-1]) or not 0 <= q <= 1:
        return np.full(rows, np.nan), np.full(rows, np.nan)
    cum = np.maximum.accumulate(np.nan_to_num(cum, nan=0.0), axis=1)
    total = cum[:, -1]
    bucket = (cum >= (q * total)[:, None]).argmax(axis=1)
    lower = np.where(bucket > 0, upper[np.maximum(bucket - 1, 0)], min(0.0, float(upper[0])))
    seen = total > 0
    return np.where(seen, lower, np.nan), np.where(seen, upper[bucket], np.nan)
