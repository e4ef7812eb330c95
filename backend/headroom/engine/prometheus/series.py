"""Per-interval request rate, error ratio and latency percentiles per class, and the
whole range's summary (docs/sources.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from headroom.engine.prometheus.counters import increases
from headroom.engine.prometheus.grid import F64, Grid, Series, group_sum, on_grid
from headroom.engine.prometheus.quantile import histogram_quantile

ALL = "all"
QUANTILES = (0.5, 0.95, 0.99)


@dataclass(frozen=True)
class Split:
    """How series are split: into classes by one label's value, and into errors by another
    label's value matching a pattern (e.g. ``code`` matching ``5..``)."""

    class_label: str | None = None
    error_label: str | None = "code"
    error_pattern: str = "5.."


@dataclass(frozen=True)
class IntervalSeries:
    """One row per class and step interval ``[start_s, start_s + step_s)``; NaN in an
    interval no sample covers (a gap). ``bucket_counts``: the histogram's cumulative
    bucket increases per row, by ``bucket_bounds_s`` (the last +Inf)."""

    step_s: float
    classes: tuple[str, ...]
    start_s: F64
    class_index: NDArray[np.int64]
    requests: F64
    errors: F64
    bucket_bounds_s: F64
    bucket_counts: F64

    @property
    def rate_per_s(self) -> F64:
        return self.requests / self.step_s

    @property
    def error_ratio(self) -> F64:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.requests > 0, self.errors / self.requests, np.nan)

    def latency_s(self, q: float) -> F64:
        return histogram_quantile(q, self.bucket_bounds_s, self.bucket_counts)


def interval_series(
    requests: Sequence[Series], buckets: Sequence[Series], grid: Grid, split: Split = Split()
) -> IntervalSeries:
    """The request counter's and the histogram's ``_bucket`` series (raw counter values on
    the step grid) turned into per-interval increases, summed per class and for ``all``."""
    names = _classes(list(requests) + list(buckets), split.class_label)
    per_class = _class_of(requests, names, split.class_label)
    counts = increases(on_grid(requests, grid))
    errors_mask = _errors(requests, split)
    total = _by_class(counts, per_class, len(names))
    errors = _by_class(np.where(errors_mask[:, None], counts, 0.0), per_class, len(names))
    errors = np.where(np.isnan(total), np.nan, np.nan_to_num(errors, nan=0.0))
    bounds, histogram = _histogram(buckets, grid, names, split.class_label)
    start = np.tile(grid.times_s()[:-1], len(names)) if grid.points else np.empty(0)
    index = np.repeat(np.arange(len(names), dtype=np.int64), grid.intervals)
    return IntervalSeries(
        grid.step_s, names, start, index, total.ravel(), errors.ravel(), bounds, histogram
    )


def _classes(series: Sequence[Series], label: str | None) -> tuple[str, ...]:
    if label is None:
        return (ALL,)
    found = sorted({s.labels.get(label, "") for s in series} - {ALL})
    return (ALL, *found)


def _class_of(series: Sequence[Series], names: tuple[str, ...], label: str | None) -> list[int]:
    if label is None:
        return [0] * len(series)
    return [names.index(s.labels.get(label, "")) for s in series]


def _by_class(counts: F64, per_class: list[int], classes: int) -> F64:
    """Sums for ``all`` (row 0) and for each class (its own row)."""
    everything = group_sum(counts, np.zeros(len(per_class), np.int64), 1)
    if classes == 1:
        return everything
    split = group_sum(counts, np.asarray(per_class, np.int64), classes)
    return np.vstack([everything, split[1:]])


def _errors(series: Sequence[Series], split: Split) -> NDArray[np.bool_]:
    if split.error_label is None:
        return np.zeros(len(series), bool)
    pattern = re.compile(split.error_pattern)
    found = [s.labels.get(split.error_label) for s in series]
    return np.array([v is not None and pattern.fullmatch(v) is not None for v in found], bool)


def _histogram(
    buckets: Sequence[Series], grid: Grid, names: tuple[str, ...], label: str | None
) -> tuple[F64, F64]:
    """Bounds (ascending, +Inf last when given) and a (classes * intervals, bounds)
    matrix of cumulative bucket increases; empty when there is no histogram."""
    rows = len(names) * grid.intervals
    if not buckets:
        return np.empty(0), np.empty((rows, 0))
    le = np.array([float(s.labels.get("le", "nan")) for s in buckets])
    bounds = np.unique(le[~np.isnan(le)])
    counts = increases(on_grid(buckets, grid))
    classes = _class_of(buckets, names, label)
    matrix = np.full((rows, bounds.size), np.nan)
    for column, bound in enumerate(bounds):
        chosen = [i for i in range(len(buckets)) if le[i] == bound]
        summed = _by_class(counts[chosen], [classes[i] for i in chosen], len(names))
        matrix[:, column] = summed.ravel()
    return bounds, matrix


@dataclass(frozen=True)
class ClassSummary:
    requests_total: float
    rate_per_s_mean: float
    rate_per_s_peak: float
    errors_total: float
    latency_p95_s: float | None
    latency_p99_s: float | None


@dataclass(frozen=True)
class RangeSummary:
    step_s: float
    intervals: int
    gap_intervals: int
    bucket_bounds_s: tuple[float, ...]
    overall: ClassSummary
    classes: dict[str, ClassSummary] = field(default_factory=dict)


def summarize(series: IntervalSeries) -> RangeSummary:
    """Totals over the observed intervals; the mean rate is over the time they cover;
    p95 and p99 by `histogram_quantile` on the whole range's bucket increases."""
    per_class = [_class_summary(series, i) for i in range(len(series.classes))]
    mine = series.class_index == 0
    return RangeSummary(
        step_s=series.step_s,
        intervals=int(mine.sum()),
        gap_intervals=int(np.isnan(series.requests[mine]).sum()),
        bucket_bounds_s=tuple(float(b) for b in series.bucket_bounds_s),
        overall=per_class[0],
        classes=dict(zip(series.classes[1:], per_class[1:], strict=True)),
    )


def _class_summary(series: IntervalSeries, index: int) -> ClassSummary:
    mine = series.class_index == index
    requests = series.requests[mine]
    seen = ~np.isnan(requests)
    total = float(requests[seen].sum())
    covered_s = float(seen.sum()) * series.step_s
    rates = requests[seen] / series.step_s
    counts = np.nansum(series.bucket_counts[mine], axis=0)[None, :]
    p95, p99 = (histogram_quantile(q, series.bucket_bounds_s, counts)[0] for q in (0.95, 0.99))
    return ClassSummary(
        requests_total=total,
        rate_per_s_mean=total / covered_s if covered_s else 0.0,
        rate_per_s_peak=float(rates.max()) if rates.size else 0.0,
        errors_total=float(np.nansum(series.errors[mine])),
        latency_p95_s=None if np.isnan(p95) else float(p95),
        latency_p99_s=None if np.isnan(p99) else float(p99),
    )


def concat(parts: Sequence[IntervalSeries]) -> IntervalSeries:
    """Consecutive pages' series as one: classes and bucket bounds are the union (a class
    or bucket a page lacks counts nothing there)."""
    if not parts:
        raise ValueError("no series to join")
    names = (ALL, *sorted({c for p in parts for c in p.classes} - {ALL}))
    bounds = np.unique(np.concatenate([p.bucket_bounds_s for p in parts]))
    index, histograms = [], []
    for part in parts:
        remap = np.array([names.index(c) for c in part.classes], np.int64)
        index.append(remap[part.class_index])
        counts = np.full((part.start_s.size, bounds.size), np.nan)
        counts[:, np.searchsorted(bounds, part.bucket_bounds_s)] = part.bucket_counts
        histograms.append(counts)
    order = np.lexsort((np.concatenate([p.start_s for p in parts]), np.concatenate(index)))
    return IntervalSeries(
        parts[0].step_s,
        names,
        np.concatenate([p.start_s for p in parts])[order],
        np.concatenate(index)[order],
        np.concatenate([p.requests for p in parts])[order],
        np.concatenate([p.errors for p in parts])[order],
        bounds,
        np.vstack(histograms)[order],
    )
