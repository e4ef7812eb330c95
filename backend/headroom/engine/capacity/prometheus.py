"""A Prometheus dataset's intervals as the capacity analysis' load windows
(docs/sources.md, "Capacity from a histogram"): each step interval with traffic and
latency observations is a window whose load is the interval's request rate and whose
percentile comes from its bucket increases by `histogram_quantile`'s rule."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from headroom.engine.capacity.windows import WindowStats
from headroom.engine.linalg import matvec
from headroom.engine.prometheus.grid import F64
from headroom.engine.prometheus.quantile import histogram_quantile
from headroom.engine.prometheus.series import IntervalSeries

INTERPOLATED = (
    "latency percentiles are interpolated linearly inside the histogram bucket that holds "
    "their rank (histogram_quantile's rule): a figure is only as precise as that bucket is "
    "narrow, and a rank in the +Inf bucket reads as the largest finite bound"
)
NOT_RECORDED = {
    "arrivals": (
        "the request counter counts finished requests: offered load and throughput are the "
        "same figure, so a breaking point (throughput falling behind load) shows only in "
        "the queueing model"
    ),
    "concurrency": (
        "not recorded: Little's law on the mean latency, estimated from the bucket "
        "midpoints (the +Inf bucket at the largest finite bound)"
    ),
    "servers": "not recorded: the whole site is one server",
    "clients": "not recorded: new clients per second",
}


def histogram_mean_s(upper_s: F64, counts: F64) -> F64:
    """Mean latency per row from cumulative bucket counts, each observation at its bucket's
    midpoint (the first bucket from 0, the +Inf bucket at the largest finite bound): the
    uniform spread inside a bucket that `histogram_quantile` assumes. NaN without
    observations."""
    upper = np.asarray(upper_s, np.float64)
    cum = np.maximum.accumulate(np.nan_to_num(np.atleast_2d(counts), nan=0.0), axis=1)
    inside = np.diff(cum, axis=1, prepend=0.0)
    lower = np.concatenate(([min(upper[0], 0.0)], upper[:-1]))
    finite_top = upper[np.isfinite(upper)].max() if np.isfinite(upper).any() else np.nan
    middle = np.where(np.isinf(upper), finite_top, (lower + upper) / 2.0)
    total = cum[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, matvec(inside, middle) / total, np.nan)


def capacity_windows(series: IntervalSeries, percentile: float) -> dict[str, WindowStats]:
    """Per class (``all`` first): one window per interval with requests and histogram
    observations (gaps and idle intervals left out). Load and throughput are the interval's
    request rate, goodput its rate of requests without an error, the percentile and mean
    latency come from its buckets, concurrency from Little's law."""
    bounds = np.asarray(series.bucket_bounds_s, np.float64)
    if bounds.size < 2 or not np.isposinf(bounds[-1]):
        raise ValueError(
            "the dataset has no latency histogram with a +Inf bucket: knee curves need "
            "latencies (set the source's latency histogram selector)"
        )
    step = series.step_s
    out: dict[str, WindowStats] = {}
    for index, name in enumerate(series.classes):
        mine = series.class_index == index
        requests, errors = series.requests[mine], series.errors[mine]
        counts = series.bucket_counts[mine]
        observed = np.nan_to_num(np.maximum.accumulate(np.nan_to_num(counts), axis=1)[:, -1])
        keep = np.isfinite(requests) & (requests > 0) & (observed > 0)
        rate = requests[keep] / step
        mean = histogram_mean_s(bounds, counts[keep])
        out[name] = WindowStats(
            window_s=step,
            start_s=series.start_s[mine][keep],
            load_per_s=rate,
            throughput_per_s=rate,
            goodput_per_s=(requests[keep] - np.nan_to_num(errors[keep])) / step,
            latency_pct_s=histogram_quantile(percentile / 100.0, bounds, counts[keep]),
            mean_latency_s=mean,
            concurrency=rate * mean,
            concurrency_little=rate * mean,
            new_clients_per_s=np.full(rate.size, np.nan),
            bucket_bounds_s=bounds,
            bucket_counts=np.nan_to_num(counts[keep], nan=0.0),
        )
    return out


def bucket_around(bounds_s: F64, value_s: float | None) -> list[float | None] | None:
    """The bucket ``[lower, upper]`` holding a latency (upper null: the +Inf bucket)."""
    if value_s is None or not math.isfinite(value_s):
        return None
    bounds = np.asarray(bounds_s, np.float64)
    i = int(np.searchsorted(bounds, value_s, side="left"))
    lower = float(bounds[i - 1]) if i > 0 else min(float(bounds[0]), 0.0)
    upper = float(bounds[i]) if i < bounds.size and np.isfinite(bounds[i]) else None
    return [lower, upper]


def histogram_note(bounds_s: F64, intervals: int, windows: int) -> dict[str, Any]:
    """What a capacity report read off a histogram states about it: the bucket bounds used
    (``+Inf`` written as text), how many intervals became windows, and what is not
    recorded."""
    return {
        "bucket_bounds_s": [float(b) if math.isfinite(b) else "+Inf" for b in bounds_s],
        "intervals": intervals,
        "windows": windows,
        "interpolated": INTERPOLATED,
        "not_recorded": dict(NOT_RECORDED),
    }


def range_figures(
    series: IntervalSeries, since_s: float, percentile: float, class_name: str = "all"
) -> tuple[int, float, float | None]:
    """Over a class's intervals starting at or after ``since_s``: how many were observed,
    their requests, and the percentile of their bucket increases summed (None: no
    observations, not zero)."""
    index = series.classes.index(class_name)
    mine = (series.class_index == index) & (series.start_s >= since_s)
    requests = series.requests[mine]
    seen = np.isfinite(requests)
    if series.bucket_bounds_s.size < 2 or not seen.any():
        return int(seen.sum()), float(np.nansum(requests)), None
    counts = np.nansum(series.bucket_counts[mine], axis=0)[None, :]
    value = histogram_quantile(percentile / 100.0, series.bucket_bounds_s, counts)[0]
    return int(seen.sum()), float(requests[seen].sum()), None if np.isnan(value) else float(value)
