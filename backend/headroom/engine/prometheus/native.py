"""Native histograms turned into classic cumulative buckets (docs/sources.md).

A native histogram's bucket ``i`` of schema ``s`` is ``(2^((i-1)·2^-s), 2^(i·2^-s)]``; the
HTTP API serves each populated bucket with its bounds. Each native series becomes one
classic ``le`` series per bound: the count of observations at or below it (the buckets
whose upper bound is not above it), and ``+Inf`` the histogram's count. Every bucket's
lower bound is a bound too, so interpolation inside a bucket runs from its own lower bound
as Prometheus' native `histogram_quantile` does, even where the buckets below it are
empty. All series of one answer share the union of bounds, so they sum per bound."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from headroom.engine.prometheus.grid import Series


def upper_bound(index: int, schema: int) -> float:
    """The upper bound of bucket `index` in an exponential schema: 2^(index · 2^-schema)."""
    return float(2.0 ** (index * 2.0**-schema))


@dataclass(frozen=True)
class NativeHistogram:
    """One sample: the count of observations and its populated buckets as
    ``(lower, upper, count)`` (non-cumulative)."""

    count: float
    buckets: tuple[tuple[float, float, float], ...] = ()


@dataclass(frozen=True)
class NativeSeries:
    labels: dict[str, str]
    t_s: tuple[float, ...]
    histograms: tuple[NativeHistogram, ...]


def bounds_of(series: Sequence[NativeSeries]) -> list[float]:
    """Every bucket's lower and upper bound (finite, ascending), over all samples."""
    found: set[float] = set()
    for one in series:
        for histogram in one.histograms:
            for lower, upper, _ in histogram.buckets:
                found.update(b for b in (lower, upper) if math.isfinite(b))
    return sorted(found)


def classic_buckets(series: Sequence[NativeSeries]) -> list[Series]:
    """Classic ``le`` series (cumulative counts; the series' own labels plus ``le``)."""
    bounds = np.array(bounds_of(series), np.float64)
    out: list[Series] = []
    for one in series:
        t_s = np.array(one.t_s, np.float64)
        cumulative = np.zeros((len(one.histograms), bounds.size))
        counts = np.array([h.count for h in one.histograms], np.float64)
        for row, histogram in enumerate(one.histograms):
            if not histogram.buckets:
                continue
            upper = np.array([b[1] for b in histogram.buckets], np.float64)
            weight = np.array([b[2] for b in histogram.buckets], np.float64)
            order = np.argsort(upper)
            running = np.cumsum(weight[order])
            at = np.searchsorted(upper[order], bounds, side="right")
            cumulative[row] = np.where(at > 0, running[np.maximum(at - 1, 0)], 0.0)
        for column, bound in enumerate(bounds):
            labels = {**one.labels, "le": repr(float(bound))}
            out.append(Series(labels, t_s, cumulative[:, column].copy()))
        out.append(Series({**one.labels, "le": "+Inf"}, t_s, counts))
    return out
