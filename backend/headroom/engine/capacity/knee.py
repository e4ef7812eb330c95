"""Knee curves: windows binned by offered load, per-bin percentiles with bootstrap intervals,
the isotonic fit, the Kneedle knee and the breaking point (docs/methods/capacity.md, "Knee curves").

A bin's percentile is taken over all the requests of its windows pooled, not as the median
of the windows' own percentiles: near saturation a 10-s window is short against the
queue's relaxation time, so most windows catch the queue short and the median window p95
falls 10-40% below the steady-state p95 that an SLA is about. The interval comes from a
bootstrap over whole windows (requests within a window are correlated)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import isotonic_regression

from headroom.engine.capacity.windows import WindowStats
from headroom.engine.linalg import matmul

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class KneeCurve:
    """Per load bin (ascending load): the bin's windows and requests pooled."""

    percentile: float
    load_per_s: FloatArray  # mean offered load of the bin's windows
    latency_s: FloatArray  # percentile of the latencies of all the bin's requests
    latency_low_s: FloatArray  # bootstrap interval (resampling windows) of that percentile
    latency_high_s: FloatArray
    latency_iso_s: FloatArray  # isotonic (non-decreasing) fit of latency_s
    throughput_per_s: FloatArray
    concurrency: FloatArray
    mean_latency_s: FloatArray
    new_clients_per_s: FloatArray  # NaN when the table names no clients
    n_windows: IntArray


@dataclass(frozen=True)
class Knee:
    load_per_s: float
    latency_s: float
    strength: float  # Kneedle's max distance below the diagonal, 0..1


def _merge_sparse(counts: list[int], min_windows: int) -> list[list[int]]:
    """Groups of adjacent non-empty bins, each with >= min_windows windows when possible."""
    groups = [[i] for i, n in enumerate(counts) if n > 0]
    sizes = [counts[i] for i in range(len(counts)) if counts[i] > 0]
    while len(groups) > 1 and min(sizes) < min_windows:
        i = int(np.argmin(sizes))
        if i == 0:
            j = 1
        elif i == len(groups) - 1:
            j = i - 1
        else:
            j = i - 1 if sizes[i - 1] <= sizes[i + 1] else i + 1
        lo, hi = min(i, j), max(i, j)
        groups[lo : hi + 1] = [groups[lo] + groups[hi]]
        sizes[lo : hi + 1] = [sizes[lo] + sizes[hi]]
    return groups


def load_bins(load_per_s: FloatArray, n_bins: int, min_windows: int) -> IntArray:
    """Bin id (0.., ascending load) per window: equal-width bins, sparse ones merged."""
    if n_bins < 1:
        raise ValueError(f"bins must be >= 1, got {n_bins}")
    lo, hi = float(load_per_s.min()), float(load_per_s.max())
    edges = np.linspace(lo, hi if hi > lo else lo + 1.0, n_bins + 1)
    raw = np.clip(np.searchsorted(edges, load_per_s, side="right") - 1, 0, n_bins - 1)
    groups = _merge_sparse(np.bincount(raw, minlength=n_bins).tolist(), min_windows)
    mapping = np.zeros(n_bins, dtype=np.int64)
    for gid, members in enumerate(groups):
        mapping[members] = gid
    return mapping[raw]


def bootstrap_median_interval(
    values: FloatArray, rng: np.random.Generator, resamples: int, confidence: float
) -> tuple[float, float]:
    """Percentile-bootstrap interval of the median."""
    picks = rng.integers(0, values.size, size=(resamples, values.size))
    medians = np.median(values[picks], axis=1)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(medians, [tail, 1.0 - tail])
    return float(low), float(high)


_POOLED_MAX = 50_000  # requests per bin the bootstrap resamples (evenly thinned above)


def _pooled_one(
    latency_s: FloatArray, window: IntArray, q: float, rng: np.random.Generator,
    resamples: int, confidence: float,
) -> tuple[float, float, float]:  # fmt: skip
    """Percentile of one bin's requests and its window-bootstrap interval."""
    order = np.argsort(latency_s, kind="stable")
    lat, win = latency_s[order], np.unique(window, return_inverse=True)[1][order]
    point = float(np.quantile(lat, q))
    if lat.size > _POOLED_MAX:
        keep = np.linspace(0, lat.size - 1, _POOLED_MAX).round().astype(np.int64)
        lat, win = lat[keep], win[keep]
    n_win = int(win.max()) + 1
    draws = np.empty(resamples)
    for r in range(resamples):
        weight = np.bincount(rng.integers(0, n_win, n_win), minlength=n_win)[win]
        cum = np.cumsum(weight)
        draws[r] = lat[min(int(np.searchsorted(cum, q * cum[-1])), lat.size - 1)]
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    return point, min(float(low), point), max(float(high), point)


def pooled_percentiles(
    windows: WindowStats, bins: IntArray, percentile: float, rng: np.random.Generator,
    resamples: int, confidence: float,
) -> FloatArray:  # fmt: skip
    """(n_bins, 3): percentile, low, high of each bin's pooled requests."""
    req_bin = bins[windows.request_window]
    out = np.full((int(bins.max()) + 1, 3), np.nan)
    for b in range(out.shape[0]):
        sel = req_bin == b
        if sel.any():
            lat, win = windows.request_latency_s[sel], windows.request_window[sel]
            out[b] = _pooled_one(lat, win, percentile / 100.0, rng, resamples, confidence)
    return out


def pooled_histogram_percentiles(
    windows: WindowStats, bins: IntArray, percentile: float, rng: np.random.Generator,
    resamples: int, confidence: float,
) -> FloatArray:  # fmt: skip
    """(n_bins, 3): percentile, low, high of each bin's windows' histograms summed (the
    histogram's pooling of requests), by `histogram_quantile`'s rule; the interval is a
    bootstrap over whole windows, like the pooled percentile of requests."""
    from headroom.engine.prometheus.quantile import histogram_quantile

    q = percentile / 100.0
    bounds, counts = windows.bucket_bounds_s, np.nan_to_num(windows.bucket_counts, nan=0.0)
    tail = (1.0 - confidence) / 2.0
    out = np.full((int(bins.max()) + 1, 3), np.nan)
    for b in range(out.shape[0]):
        mine = counts[bins == b]
        if not mine.shape[0]:
            continue
        point = float(histogram_quantile(q, bounds, mine.sum(axis=0)[None, :])[0])
        picks = rng.integers(0, mine.shape[0], size=(resamples, mine.shape[0]))
        weights = np.stack([np.bincount(p, minlength=mine.shape[0]) for p in picks])
        draws = histogram_quantile(q, bounds, matmul(weights.astype(np.float64), mine))
        low, high = np.nanquantile(draws, [tail, 1.0 - tail])
        out[b] = point, min(float(low), point), max(float(high), point)
    return out


def _window_medians(
    windows: WindowStats, members: list[NDArray[np.bool_]], rng: np.random.Generator,
    resamples: int, confidence: float,
) -> FloatArray:  # fmt: skip
    """(n_bins, 3) from window percentiles alone (windows that carry no requests)."""
    pct = windows.latency_pct_s
    band = [bootstrap_median_interval(pct[sel], rng, resamples, confidence) for sel in members]
    return np.column_stack((_medians(pct, members), np.array(band)))


def knee_curve(
    windows: WindowStats,
    percentile: float,
    n_bins: int,
    min_windows: int,
    rng: np.random.Generator,
    resamples: int = 1000,
    confidence: float = 0.90,
) -> KneeCurve:
    """Bin the windows by load and summarise each bin."""
    if windows.load_per_s.size < min_windows:
        raise ValueError(
            f"need at least {min_windows} windows with latencies, got {windows.load_per_s.size}"
        )
    bins = load_bins(windows.load_per_s, n_bins, min_windows)
    members = [bins == b for b in range(int(bins.max()) + 1)]
    if windows.has_requests:
        pct = pooled_percentiles(windows, bins, percentile, rng, resamples, confidence)
    elif windows.has_buckets:
        pct = pooled_histogram_percentiles(windows, bins, percentile, rng, resamples, confidence)
    else:
        pct = _window_medians(windows, members, rng, resamples, confidence)
    counts = np.array([int(sel.sum()) for sel in members], dtype=np.int64)
    iso = isotonic_regression(pct[:, 0], weights=counts.astype(np.float64), increasing=True).x
    arrivals = windows.load_per_s
    return KneeCurve(
        percentile=percentile,
        load_per_s=_means(windows.load_per_s, members),
        latency_s=pct[:, 0],
        latency_low_s=pct[:, 1],
        latency_high_s=pct[:, 2],
        latency_iso_s=np.asarray(iso, dtype=np.float64),
        throughput_per_s=_means(windows.throughput_per_s, members),
        concurrency=_means(windows.concurrency, members),
        mean_latency_s=_means(windows.mean_latency_s, members, weights=arrivals),
        new_clients_per_s=_means(windows.new_clients_per_s, members),
        n_windows=counts,
    )


def _means(
    values: FloatArray, members: list[NDArray[np.bool_]], weights: FloatArray | None = None
) -> FloatArray:
    """Per bin: the (weighted) mean over its windows, NaN values left out."""
    w = np.ones(values.size) if weights is None else weights
    out = np.full(len(members), np.nan)
    for b, sel in enumerate(members):
        ok = sel & np.isfinite(values)
        if ok.any() and w[ok].sum() > 0:
            out[b] = float(np.average(values[ok], weights=w[ok]))
    return out


def _medians(values: FloatArray, members: list[NDArray[np.bool_]]) -> FloatArray:
    return np.array([np.median(values[sel]) for sel in members], dtype=np.float64)


def kneedle(x: FloatArray, y: FloatArray) -> Knee | None:
    """Kneedle (Satopaa et al. 2011) for an increasing convex curve, without smoothing.

    Both axes are scaled to [0, 1]; the knee is the point farthest below the diagonal.
    None when the curve is flat or has fewer than three points.
    """
    if x.size < 3 or y[-1] <= y[0] or x[-1] <= x[0]:
        return None
    xn = (x - x[0]) / (x[-1] - x[0])
    yn = (y - y[0]) / (y[-1] - y[0])
    gap = xn - yn
    i = int(np.argmax(gap))
    return Knee(load_per_s=float(x[i]), latency_s=float(y[i]), strength=float(gap[i]))


def saturated_bins(curve: KneeCurve, fraction: float = 0.97) -> NDArray[np.bool_]:
    """Bins whose throughput falls visibly behind their offered load."""
    return np.asarray(curve.throughput_per_s < fraction * curve.load_per_s)


def is_saturated(curve: KneeCurve, fraction: float = 0.97) -> bool:
    """True when throughput stops following offered load in the top bin."""
    return bool(saturated_bins(curve, fraction)[-1])


def plateau_throughput_per_s(curve: KneeCurve, fraction: float = 0.97) -> float:
    """max X, estimated robustly: the window-weighted median X of the saturated bins
    (the raw maximum of a few noisy bin medians overshoots), or the largest X if none."""
    sat = saturated_bins(curve, fraction)
    if not sat.any():
        return float(curve.throughput_per_s.max())
    x, w = curve.throughput_per_s[sat], curve.n_windows[sat]
    order = np.argsort(x)
    cum = np.cumsum(w[order])
    return float(x[order][int(np.searchsorted(cum, 0.5 * cum[-1]))])


def breaking_point_per_s(curve: KneeCurve, fraction: float = 0.97) -> float:
    """The smallest load with X(load) >= fraction x max X, X interpolated between bins."""
    load, x = curve.load_per_s, curve.throughput_per_s
    target = fraction * plateau_throughput_per_s(curve, fraction)
    i = int(np.argmax(x >= target))
    if i == 0:
        return float(load[0])
    return float(load[i - 1] + (target - x[i - 1]) / (x[i] - x[i - 1]) * (load[i] - load[i - 1]))
