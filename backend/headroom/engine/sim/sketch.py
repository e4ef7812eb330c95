"""Log-bucketed quantile sketch (DDSketch-style) shared by the core and the results.

Bucket i > 0 holds values in (min * gamma**(i-1), min * gamma**i]; its representative
value 2 * min * gamma**i / (gamma + 1) is within ``alpha`` relative error of every value
in it, so any quantile read from the sketch is within ``alpha`` of the exact sample
quantile of the same rank. Bucket 0 holds values <= ``MIN_VALUE_S`` (e.g. zero waits).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

MIN_VALUE_S = 1e-9
MAX_VALUE_S = 1e7
FINE_ALPHA = 0.004  # global per-run statistics: < 0.5% relative error
COARSE_ALPHA = 0.02  # per-window histograms (time series, latency-SLO policy)


def log_gamma(alpha: float) -> float:
    return math.log((1 + alpha) / (1 - alpha))


def n_buckets(alpha: float) -> int:
    return math.ceil(math.log(MAX_VALUE_S / MIN_VALUE_S) / log_gamma(alpha)) + 2


@njit(cache=True, inline="always")
def bucket_of(x: float, inv_log_gamma: float, nb: int) -> int:
    if x <= MIN_VALUE_S:
        return 0
    i = math.ceil(math.log(x / MIN_VALUE_S) * inv_log_gamma)
    return min(max(i, 1), nb - 1)


def bucket_values(alpha: float) -> NDArray[np.float64]:
    """Representative value of every bucket (bucket 0 reads as 0)."""
    gamma = (1 + alpha) / (1 - alpha)
    i = np.arange(n_buckets(alpha), dtype=np.float64)
    values = MIN_VALUE_S * 2 * gamma**i / (gamma + 1)
    values[0] = 0.0
    return values


def sketch_quantiles(
    counts: NDArray[np.integer], alpha: float, qs: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Nearest-rank quantiles (the ceil(q n)-th smallest value) from bucket counts."""
    total = int(counts.sum())
    if total == 0:
        return np.full(len(qs), np.nan)
    cumulative = np.cumsum(counts)
    ranks = np.maximum(np.ceil(np.asarray(qs) * total - 1e-9).astype(np.int64) - 1, 0)
    idx = np.searchsorted(cumulative, ranks, side="right")
    return bucket_values(alpha)[idx]


def window_quantile(hist: NDArray[np.integer], alpha: float, q: float) -> NDArray[np.float64]:
    """Nearest-rank quantile q of each row of a (windows x buckets) histogram; NaN if empty."""
    values = bucket_values(alpha)
    idx = _row_quantile_buckets(np.ascontiguousarray(hist), q)
    return np.where(idx >= 0, values[np.maximum(idx, 0)], np.nan)


@njit(cache=True)
def _row_quantile_buckets(hist: NDArray[np.integer], q: float) -> NDArray[np.int64]:
    """Per row, the bucket holding the ceil(q n)-th smallest value; -1 for an empty row."""
    out = np.full(hist.shape[0], -1, dtype=np.int64)
    for w in range(hist.shape[0]):
        total = hist[w].sum()
        if total == 0:
            continue
        rank, seen, b = max(math.ceil(q * total - 1e-9), 1), 0, 0
        while seen + hist[w, b] < rank:
            seen += hist[w, b]
            b += 1
        out[w] = b
    return out


def sketch_cdf(
    counts: NDArray[np.integer], alpha: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The empirical CDF read from a sketch: (value, fraction <= value) per non-empty bucket."""
    nz = np.nonzero(counts)[0]
    total = counts.sum()
    if total == 0:
        return np.zeros(0), np.zeros(0)
    return bucket_values(alpha)[nz], np.cumsum(counts[nz]) / total
