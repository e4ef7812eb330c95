"""Request rates, error rates and latency percentiles from Prometheus range queries
(docs/sources.md): counter increases with Prometheus' reset rule, and quantiles by
`histogram_quantile`'s bucket interpolation."""

from headroom.engine.prometheus.counters import increases
from headroom.engine.prometheus.grid import Grid, Series
from headroom.engine.prometheus.native import (
    NativeHistogram,
    NativeSeries,
    classic_buckets,
    upper_bound,
)
from headroom.engine.prometheus.quantile import histogram_quantile, quantile_bucket
from headroom.engine.prometheus.series import (
    IntervalSeries,
    RangeSummary,
    Split,
    concat,
    interval_series,
    summarize,
)

__all__ = [
    "Grid",
    "IntervalSeries",
    "NativeHistogram",
    "NativeSeries",
    "RangeSummary",
    "Series",
    "Split",
    "classic_buckets",
    "concat",
    "histogram_quantile",
    "increases",
    "interval_series",
    "quantile_bucket",
    "summarize",
    "upper_bound",
]
