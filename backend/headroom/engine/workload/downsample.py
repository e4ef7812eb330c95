"""Largest-Triangle-Three-Buckets (Steinarsson 2013, "Downsampling Time Series for
Visual Representation", ch. 4.2): the indices of at most ``n_out`` points of a series
that keep its visual shape (peaks and troughs survive, unlike with every k-th point).

The first and last points are always kept; the rest are split into ``n_out - 2`` equal
buckets and from each the point forming the largest triangle with the point kept in the
previous bucket and the mean of the next bucket is kept. One Python step per *output*
bucket (a few thousand at most), vectorised inside the bucket.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def lttb_indices(x: ArrayLike, y: ArrayLike, n_out: int) -> NDArray[np.int64]:
    """Sorted indices of the kept points; all of them when there are at most ``n_out``."""
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    n = len(xs)
    if n_out < 3 or n <= n_out:
        return np.arange(n, dtype=np.int64)
    edges = np.linspace(1, n - 1, n_out - 1).astype(np.int64)  # buckets of the inner points
    kept = np.empty(n_out, dtype=np.int64)
    kept[0], kept[-1] = 0, n - 1
    prev = 0
    for b in range(n_out - 2):
        lo, hi = edges[b], edges[b + 1]
        nxt_lo, nxt_hi = hi, edges[b + 2] if b + 2 < len(edges) else n
        mean_x, mean_y = xs[nxt_lo:nxt_hi].mean(), ys[nxt_lo:nxt_hi].mean()
        area = np.abs(
            (xs[prev] - mean_x) * (ys[lo:hi] - ys[prev])
            - (xs[prev] - xs[lo:hi]) * (mean_y - ys[prev])
        )
        prev = lo + int(np.argmax(area))
        kept[b + 1] = prev
    return kept
