"""Knee curves: windows binned by offered load, per-bin medians with bootstrap intervals,
the isotonic fit, the Kneedle knee and the breaking point (sla.md, "Knee curves")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import isotonic_regression

from headroom.engine.capacity.windows import WindowStats

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class KneeCurve:
    """Per load bin (ascending load): medians over the bin's windows."""

    percentile: float
    load_per_s: FloatArray  # median offered load of the bin's windows
    latency_s: FloatArray  # median of the window percentiles
    latency_low_s: FloatArray  # bootstrap interval of that median
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
    pct = windows.latency_pct_s
    band = np.array(
        [bootstrap_median_interval(pct[sel], rng, resamples, confidence) for sel in members]
    )
    counts = np.array([int(sel.sum()) for sel in members], dtype=np.int64)
    lat = _medians(pct, members)
    iso = isotonic_regression(lat, weights=counts.astype(np.float64), increasing=True).x
    return KneeCurve(
        percentile=percentile,
        load_per_s=_medians(windows.load_per_s, members),
        latency_s=lat,
        latency_low_s=band[:, 0],
        latency_high_s=band[:, 1],
        latency_iso_s=np.asarray(iso, dtype=np.float64),
        throughput_per_s=_medians(windows.throughput_per_s, members),
        concurrency=_medians(windows.concurrency, members),
        mean_latency_s=_medians(windows.mean_latency_s, members),
        new_clients_per_s=_medians(windows.new_clients_per_s, members),
        n_windows=counts,
    )


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
