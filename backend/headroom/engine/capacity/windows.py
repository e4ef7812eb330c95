"""Fixed-length windows over a request stream: counts, time-averaged concurrency, percentiles.

Times are float seconds from a common origin (0 = the first arrival of the table), so all
requests have arrive_s >= 0. Window k covers [k w, (k + 1) w).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba
import numpy as np
import polars as pl
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
_FEW_GROUPS = 32  # up to this many groups, one mask per group beats a sort


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


@numba.njit(cache=True)
def _slot(t: float, width: float, n: int) -> int:
    k = math.floor(t / width)
    return 0 if k < 0 else (n if k > n else int(k))


@numba.njit(cache=True)
def _stream_sums(
    arrive: FloatArray, depart: FloatArray, width: float, n: int
) -> tuple[IntArray, FloatArray]:
    """One pass: counts (arrivals, completions) and sums (time from each arrival to its
    interval's end, the same for departures, latency of completions) per interval."""
    counts = np.zeros((2, n + 1), dtype=np.int64)
    sums = np.zeros((3, n + 1))
    for i in range(arrive.size):
        a = _slot(arrive[i], width, n)
        d = _slot(depart[i], width, n)
        counts[0, a] += 1
        counts[1, d] += 1
        sums[0, a] += (a + 1) * width - arrive[i]
        sums[1, d] += (d + 1) * width - depart[i]
        sums[2, d] += depart[i] - arrive[i]
    return counts, sums


@numba.njit(cache=True)
def _arrival_sums(
    arrive: FloatArray,
    latency: FloatArray,
    depart: FloatArray,
    success: NDArray[np.bool_],
    width: float,
    n: int,
) -> tuple[IntArray, IntArray, FloatArray, IntArray]:
    """One pass: window of each arrival, known latencies and their sum per arrival window,
    successful completions per departure window."""
    win = np.empty(arrive.size, dtype=np.int64)
    known = np.zeros(n + 1, dtype=np.int64)
    lat_sum = np.zeros(n + 1)
    good = np.zeros(n + 1, dtype=np.int64)
    for i in range(arrive.size):
        w = _slot(arrive[i], width, n)
        win[i] = w
        if not math.isnan(latency[i]):
            known[w] += 1
            lat_sum[w] += latency[i]
        if success[i]:
            good[_slot(depart[i], width, n)] += 1
    return win, known, lat_sum, good


def interval_counts(
    arrive_s: FloatArray, depart_s: FloatArray, width_s: float, n_intervals: int
) -> IntervalCounts:
    """Arrivals, completions and the integral of N(t) = A(t) - D(t) per interval.

    The integral over interval k is w (A(t_k) - D(t_k)) plus, for every arrival inside it,
    the time from the arrival to the interval's end, minus the same for departures; this
    stays exact in float64 however long the stream is.
    """
    n = n_intervals
    arrive = np.ascontiguousarray(arrive_s, dtype=np.float64)
    depart = np.ascontiguousarray(depart_s, dtype=np.float64)
    counts, sums = _stream_sums(arrive, depart, float(width_s), n)
    before = np.concatenate(([0], np.cumsum(counts[0] - counts[1])[:-1]))
    in_system = width_s * before[:n] + sums[0, :n] - sums[1, :n]
    return IntervalCounts(
        width_s=width_s,
        arrivals=counts[0, :n],
        completions=counts[1, :n],
        in_system_s=np.maximum(in_system, 0.0),
        completed_latency_s=sums[2, :n],
    )


def grouped_quantile(groups: IntArray, values: FloatArray, n: int, q: float) -> FloatArray:
    """Linear-interpolated q-quantile (0-1) of `values` per group 0..n-1; NaN when empty.

    NaN values are ignored. Matches numpy.quantile(method="linear") per group; polars'
    multi-threaded group-by does the sorting.
    """
    keep = ~np.isnan(values) & (groups >= 0) & (groups < n)
    frame = pl.DataFrame({"g": groups[keep], "v": values[keep]})
    per = frame.group_by("g").agg(pl.col("v").quantile(q, interpolation="linear"))
    out = np.full(n, np.nan)
    out[per["g"].to_numpy()] = per["v"].to_numpy()
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
    new_clients_per_s: FloatArray  # clients first seen in the window / window; NaN: unknown
    # every known latency of the windows' arrivals, with the position of its window in
    # these arrays: a load bin's percentile is taken over its requests pooled
    request_latency_s: FloatArray = field(default_factory=lambda: np.empty(0))
    request_window: IntArray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    # a latency histogram per window instead of requests (Prometheus): cumulative counts by
    # upper bound (the last +Inf); a load bin's percentile is taken over its windows'
    # counts summed, by `histogram_quantile`'s rule
    bucket_bounds_s: FloatArray = field(default_factory=lambda: np.empty(0))
    bucket_counts: FloatArray = field(default_factory=lambda: np.empty((0, 0)))

    @property
    def has_requests(self) -> bool:
        return self.request_window.size > 0

    @property
    def has_buckets(self) -> bool:
        return self.bucket_bounds_s.size > 1 and self.bucket_counts.shape[0] > 0


def _request_positions(
    win: IntArray, latency_s: FloatArray, keep: NDArray[np.bool_]
) -> tuple[FloatArray, IntArray]:
    """Known latencies of arrivals in kept windows, and their window's position."""
    position = np.cumsum(keep) - 1
    inside = win < keep.size
    inside[inside] = keep[win[inside]]
    inside &= ~np.isnan(latency_s)
    return latency_s[inside], position[win[inside]].astype(np.int64)


@numba.njit(cache=True)
def _first_seen(arrive: FloatArray, codes: IntArray, n_codes: int) -> FloatArray:
    first = np.full(n_codes, np.inf)
    for i in range(arrive.size):
        c = codes[i]
        if c >= 0 and arrive[i] < first[c]:
            first[c] = arrive[i]
    return first


def new_client_counts(
    arrive_s: FloatArray, client_codes: IntArray, width_s: float, n: int
) -> IntArray:
    """Clients whose first request of the stream falls in each window (code < 0: unknown)."""
    if client_codes.size == 0:
        return np.zeros(n, dtype=np.int64)
    first = _first_seen(
        np.ascontiguousarray(arrive_s, dtype=np.float64),
        np.ascontiguousarray(client_codes, dtype=np.int64),
        int(client_codes.max()) + 1,
    )
    first = first[np.isfinite(first)]
    idx = np.minimum(np.floor(first / width_s), n).astype(np.int64)
    return np.bincount(idx, minlength=n + 1)[:n].astype(np.int64)


def window_stats(
    arrive_s: FloatArray,
    latency_s: FloatArray,
    success: NDArray[np.bool_],
    window_s: float,
    n_windows: int,
    percentile: float,
    client_codes: IntArray | None = None,
) -> WindowStats:
    """Figures per window; NaN latency = unknown (counted as an arrival, completes at once).
    `client_codes` (one small integer per client, < 0 unknown) adds new clients/s."""
    latency = np.ascontiguousarray(latency_s, dtype=np.float64)
    depart = arrive_s + np.nan_to_num(latency, nan=0.0)
    counts = interval_counts(arrive_s, depart, window_s, n_windows)
    win, n_known, lat_sum, good = _arrival_sums(
        np.ascontiguousarray(arrive_s, dtype=np.float64),
        latency,
        depart,
        np.ascontiguousarray(success, dtype=np.bool_),
        float(window_s),
        n_windows,
    )
    n_known = n_known[:n_windows]
    pct = grouped_quantile(win, latency, n_windows, percentile / 100.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_lat = lat_sum[:n_windows] / n_known
    throughput = counts.completions / window_s
    keep = (counts.arrivals > 0) & (n_known > 0)
    req_latency, req_window = _request_positions(win, latency, keep)
    new_clients = np.full(n_windows, np.nan)
    if client_codes is not None:
        new_clients = new_client_counts(arrive_s, client_codes, window_s, n_windows) / window_s
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
        new_clients_per_s=new_clients[keep],
        request_latency_s=req_latency,
        request_window=req_window,
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
        "new_clients_per_s",
    ]
    joined = {f: np.concatenate([getattr(p, f) for p in parts]) for f in fields}
    offsets = np.cumsum([0] + [p.load_per_s.size for p in parts[:-1]])
    return WindowStats(
        window_s=parts[0].window_s,
        **joined,
        request_latency_s=np.concatenate([p.request_latency_s for p in parts]),
        request_window=np.concatenate(
            [p.request_window + off for p, off in zip(parts, offsets, strict=True)]
        ).astype(np.int64),
    )


def key_codes(frame: pl.DataFrame, key: str, null_code: int | None = None) -> IntArray:
    """Small integer code per row for a column's values; null gets `null_code`, or a code
    of its own when None."""
    col = pl.col(key).cast(pl.Utf8).cast(pl.Categorical).to_physical().cast(pl.Int64)
    codes = frame.select(col).to_series()
    top = codes.max()
    if null_code is None:
        null_code = int(top) + 1 if isinstance(top, int) else 0
    return codes.fill_null(null_code).to_numpy().astype(np.int64)


def row_groups(frame: pl.DataFrame, keys: list[str]) -> dict[tuple[object, ...], IntArray]:
    """Row indices per distinct value of `keys`, from categorical codes (no copies of the
    other columns, unlike partition_by)."""
    if not keys:
        return {(): np.arange(frame.height, dtype=np.int64)}
    codes = np.zeros(frame.height, dtype=np.int64)
    for key in keys:
        part = key_codes(frame, key)
        codes = codes * (int(part.max()) + 1) + part
    present = np.flatnonzero(np.bincount(codes))
    if present.size <= _FEW_GROUPS:
        groups = [np.flatnonzero(codes == code) for code in present]
    else:
        order = np.argsort(codes, kind="stable")
        groups = np.split(order, np.cumsum(np.bincount(codes)[present])[:-1])
    return {tuple(frame[k][int(g[0])] for k in keys): g.astype(np.int64) for g in groups}
