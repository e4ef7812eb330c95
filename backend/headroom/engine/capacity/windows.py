"""Fixed-length windows over a request stream: counts, time-averaged concurrency, percentiles.

Times are float seconds from a common origin (0 = the first arrival of the table), so all
requests have arrive_s >= 0. Window k covers [k w, (k + 1) w).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class IntervalCounts:
    """Per-interval sums for one request stream (arrays of length n_intervals)."""

    width_s: float
    arrivals: IntArray
    completions: IntArray
    in_system_s: FloatArray  # integral of the number in system over the interval
    completed_latency_s: FloatArray  # summed latency of the requests completing in it

    @property
    def concurrency(self) -> FloatArray:
        """Time-averaged number of requests in the system."""
        return self.in_system_s / self.width_s


def _index(times_s: FloatArray, width_s: float, n: int) -> IntArray:
    """Interval index, with everything at or past the end sent to the overflow slot n."""
    idx = np.floor(times_s / width_s)
    return np.clip(idx, 0, n).astype(np.int64)


def _edge_sums(times_s: FloatArray, width_s: float, n: int) -> tuple[IntArray, FloatArray]:
    """Count per interval, and summed time left from each event to its interval's end."""
    idx = _index(times_s, width_s, n)
    count = np.bincount(idx, minlength=n + 1).astype(np.int64)
    remaining = (idx + 1) * width_s - times_s
    left = np.bincount(idx, weights=remaining, minlength=n + 1).astype(np.float64)
    return count, left


def interval_counts(
    arrive_s: FloatArray, depart_s: FloatArray, width_s: float, n_intervals: int
) -> IntervalCounts:
    """Arrivals, completions and the integral of N(t) = A(t) - D(t) per interval.

    The integral over interval k is w (A(t_k) - D(t_k)) plus, for every arrival inside it,
    the time from the arrival to the interval's end, minus the same for departures; this
    stays exact in float64 however long the stream is.
    """
    n = n_intervals
    arr_count, arr_left = _edge_sums(arrive_s, width_s, n)
    dep_count, dep_left = _edge_sums(depart_s, width_s, n)
    before = np.concatenate(([0], np.cumsum(arr_count - dep_count)[:-1]))
    in_system = width_s * before[:n] + arr_left[:n] - dep_left[:n]
    dep_idx = _index(depart_s, width_s, n)
    lat = np.bincount(dep_idx, weights=depart_s - arrive_s, minlength=n + 1)
    return IntervalCounts(
        width_s=width_s,
        arrivals=arr_count[:n].astype(np.int64),
        completions=dep_count[:n].astype(np.int64),
        in_system_s=np.maximum(in_system, 0.0),
        completed_latency_s=lat[:n].astype(np.float64),
    )


def grouped_quantile(groups: IntArray, values: FloatArray, n: int, q: float) -> FloatArray:
    """Linear-interpolated q-quantile (0-1) of `values` per group 0..n-1; NaN when empty.

    NaN values are ignored. Matches numpy.quantile(method="linear") per group.
    """
    keep = ~np.isnan(values) & (groups >= 0) & (groups < n)
    g, v = groups[keep], values[keep]
    order = np.lexsort((v, g))
    v = v[order]
    counts = np.bincount(g, minlength=n)
    starts = np.cumsum(counts) - counts
    pos = np.maximum(counts - 1, 0) * q
    lo = np.floor(pos).astype(np.int64)
    frac = pos - lo
    hi = np.minimum(lo + 1, np.maximum(counts - 1, 0))
    out = np.full(n, np.nan)
    has = counts > 0
    out[has] = v[starts[has] + lo[has]] * (1.0 - frac[has]) + v[starts[has] + hi[has]] * frac[has]
    return out


@dataclass(frozen=True)
class WindowStats:
    """Per-window figures for one request stream (only windows with arrivals)."""

    window_s: float
    start_s: FloatArray
    load_per_s: FloatArray  # offered load: arrivals / window
    throughput_per_s: FloatArray  # completions / window
    goodput_per_s: FloatArray  # successful completions / window
    latency_pct_s: FloatArray  # the chosen percentile of latency of the window's arrivals
    mean_latency_s: FloatArray  # mean latency of the window's arrivals
    concurrency: FloatArray  # measured time-averaged number in system
    concurrency_little: FloatArray  # X x mean latency (Little's law)


def window_stats(
    arrive_s: FloatArray,
    latency_s: FloatArray,
    success: NDArray[np.bool_],
    window_s: float,
    n_windows: int,
    percentile: float,
) -> WindowStats:
    """Figures per window; NaN latency = unknown (counted as an arrival, completes at once)."""
    lat0 = np.nan_to_num(latency_s, nan=0.0)
    depart = arrive_s + lat0
    counts = interval_counts(arrive_s, depart, window_s, n_windows)
    win = _index(arrive_s, window_s, n_windows)
    pct = grouped_quantile(win, latency_s, n_windows, percentile / 100.0)
    known = ~np.isnan(latency_s)
    n_known = np.bincount(win[known], minlength=n_windows + 1)[:n_windows]
    lat_sum = np.bincount(win[known], weights=latency_s[known], minlength=n_windows + 1)
    good = np.bincount(_index(depart[success], window_s, n_windows), minlength=n_windows + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_lat = lat_sum[:n_windows] / n_known
    throughput = counts.completions / window_s
    keep = (counts.arrivals > 0) & (n_known > 0)
    return WindowStats(
        window_s=window_s,
        start_s=np.arange(n_windows, dtype=np.float64)[keep] * window_s,
        load_per_s=(counts.arrivals / window_s)[keep],
        throughput_per_s=throughput[keep],
        goodput_per_s=(good[:n_windows] / window_s)[keep],
        latency_pct_s=pct[keep],
        mean_latency_s=mean_lat[keep],
        concurrency=counts.concurrency[keep],
        concurrency_little=(throughput * mean_lat)[keep],
    )


def concat_windows(parts: list[WindowStats]) -> WindowStats:
    """Pool the windows of several streams (e.g. one per server) into one sample."""
    if not parts:
        raise ValueError("no windows to pool")
    fields = [
        "start_s",
        "load_per_s",
        "throughput_per_s",
        "goodput_per_s",
        "latency_pct_s",
        "mean_latency_s",
        "concurrency",
        "concurrency_little",
    ]
    joined = {f: np.concatenate([getattr(p, f) for p in parts]) for f in fields}
    return WindowStats(window_s=parts[0].window_s, **joined)
