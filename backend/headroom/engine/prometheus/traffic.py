"""A Prometheus dataset's traffic over a time range (its Overview and Traffic tabs): per
class, its requests, errors, mean and peak rate, and its percentiles by
`histogram_quantile`'s rule on the range's bucket increases summed; and its request rate
and error share per interval, intervals merged in groups when the range holds more than a
chart shows."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from headroom.engine.prometheus.grid import F64
from headroom.engine.prometheus.quantile import histogram_quantile, quantile_bucket
from headroom.engine.prometheus.series import IntervalSeries

MAX_POINTS = 1500


@dataclass(frozen=True)
class ClassTraffic:
    """One class over the range. ``None``: not recorded (no observed interval, no
    histogram), never zero. ``point_start_s`` and the per-point arrays: one point per
    ``point_s`` (NaN where no interval of the point was observed)."""

    name: str
    intervals: int
    gap_intervals: int
    requests: float
    errors: float
    rate_per_s_mean: float | None
    rate_per_s_peak: float | None
    latency_s: dict[float, float | None]
    p95_bucket_s: tuple[float | None, float | None]
    point_start_s: F64
    point_rate_per_s: F64
    point_error_share: F64


@dataclass(frozen=True)
class RangeTraffic:
    step_s: float
    point_s: float
    start_s: float | None  # the first interval's start; None: no interval in the range
    end_s: float | None  # the last interval's end
    classes: list[ClassTraffic]


def range_traffic(
    series: IntervalSeries,
    from_s: float | None = None,
    to_s: float | None = None,
    quantiles: tuple[float, ...] = (0.5, 0.95, 0.99),
    max_points: int = MAX_POINTS,
) -> RangeTraffic:
    """The intervals starting in ``[from_s, to_s)`` (None: unbounded), per class (``all``
    first)."""
    inside = np.ones(series.start_s.size, bool)
    if from_s is not None:
        inside &= series.start_s >= from_s
    if to_s is not None:
        inside &= series.start_s < to_s
    starts = np.unique(series.start_s[inside])
    group = max(1, math.ceil(starts.size / max_points))
    classes = [
        _class_traffic(series, index, inside, starts, group, quantiles)
        for index in range(len(series.classes))
    ]
    return RangeTraffic(
        step_s=series.step_s,
        point_s=series.step_s * group,
        start_s=float(starts[0]) if starts.size else None,
        end_s=float(starts[-1]) + series.step_s if starts.size else None,
        classes=classes,
    )


def _class_traffic(
    series: IntervalSeries,
    index: int,
    inside: np.ndarray,
    starts: F64,
    group: int,
    quantiles: tuple[float, ...],
) -> ClassTraffic:
    mine = inside & (series.class_index == index)
    # on the range's grid: a class missing an interval has it as a gap
    at = np.searchsorted(starts, series.start_s[mine])
    requests = np.full(starts.size, np.nan)
    errors = np.full(starts.size, np.nan)
    requests[at] = series.requests[mine]
    errors[at] = series.errors[mine]
    seen = np.isfinite(requests)
    total = float(requests[seen].sum())
    rates = requests[seen] / series.step_s
    bounds = series.bucket_bounds_s
    counts = np.nansum(series.bucket_counts[mine], axis=0)[None, :]
    latency = {q: _value(histogram_quantile(q, bounds, counts)[0]) for q in quantiles}
    low, high = quantile_bucket(0.95, bounds, counts)
    point_start, point_rate, point_errors = _points(starts, requests, errors, group, series.step_s)
    return ClassTraffic(
        name=series.classes[index],
        intervals=int(seen.sum()),
        gap_intervals=int((~seen).sum()),
        requests=total,
        errors=float(np.nansum(errors[seen])),
        rate_per_s_mean=total / (rates.size * series.step_s) if rates.size else None,
        rate_per_s_peak=float(rates.max()) if rates.size else None,
        latency_s=latency,
        p95_bucket_s=(_value(low[0]), _value(high[0])),
        point_start_s=point_start,
        point_rate_per_s=point_rate,
        point_error_share=point_errors,
    )


def _points(
    starts: F64, requests: F64, errors: F64, group: int, step_s: float
) -> tuple[F64, F64, F64]:
    """Consecutive intervals in groups of ``group``: a point's rate is its requests over
    the seconds of it observed, its error share its errors over its requests."""
    edges = np.arange(0, starts.size, group)
    seen = np.isfinite(requests)
    observed = np.add.reduceat(seen.astype(np.float64), edges) if edges.size else np.empty(0)
    summed = np.add.reduceat(np.nan_to_num(requests), edges) if edges.size else np.empty(0)
    failed = np.add.reduceat(np.nan_to_num(errors), edges) if edges.size else np.empty(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(observed > 0, summed / (observed * step_s), np.nan)
        share = np.where(summed > 0, failed / summed, np.nan)
    return starts[edges], rate, share


def _value(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
