"""Native histograms as classic buckets, against hand-worked values of Prometheus'
exponential schema rule and of its `histogram_quantile` interpolation."""

import math

import numpy as np
import pytest

from headroom.engine.prometheus import (
    Grid,
    NativeHistogram,
    NativeSeries,
    Series,
    classic_buckets,
    interval_series,
    quantile_bucket,
    summarize,
    upper_bound,
)


def test_the_exponential_schema_rule():
    assert upper_bound(0, 0) == 1.0
    assert upper_bound(3, 0) == 8.0
    assert upper_bound(-1, 0) == 0.5
    assert upper_bound(8, 3) == 2.0  # 2^(8/8)
    assert upper_bound(1, 3) == pytest.approx(1.0905077326652577)  # 2^(1/8)
    assert upper_bound(-2, -1) == 1 / 16  # schema -1: powers of 4


def _requests(counts: list[float]) -> Series:
    return Series({"code": "200"}, np.array([0.0, 60.0]), np.array(counts))


def test_a_bucket_interpolates_from_its_own_lower_bound():
    """Schema 0: buckets (0.5, 1] holding 2 and (2, 4] holding 6; (1, 2] is empty and not
    served. The median's rank 4 lies 2 into (2, 4]'s 6: 2 + 2 * 2/6 = 2.6667 (from the
    bucket below's bound 1 it would be 1 + 3 * 2/6 = 2)."""
    native = NativeSeries(
        {"route": "/a"},
        (0.0, 60.0),
        (NativeHistogram(0.0), NativeHistogram(8.0, ((0.5, 1.0, 2.0), (2.0, 4.0, 6.0)))),
    )
    buckets = classic_buckets([native])
    assert [b.labels["le"] for b in buckets] == ["0.5", "1.0", "2.0", "4.0", "+Inf"]
    assert [float(b.value[1]) for b in buckets] == [0.0, 2.0, 2.0, 8.0, 8.0]
    series = interval_series([_requests([0.0, 8.0])], buckets, Grid(0.0, 60.0, 2))
    assert series.latency_s(0.5)[0] == pytest.approx(2 + 2 * 2 / 6)
    assert series.latency_s(0.25)[0] == pytest.approx(1.0)  # rank 2: the top of (0.5, 1]
    assert series.latency_s(0.125)[0] == pytest.approx(0.75)  # rank 1: half-way in (0.5, 1]


def test_series_with_different_buckets_sum_at_every_bound():
    """/a has observations only in (1, 2], /b only in (4, 8]: at bound 4 /a still counts
    its 3 (a sum over the series that serve bound 4 alone would give 0)."""
    empty = NativeHistogram(0.0)
    a = NativeSeries({"route": "/a"}, (0.0, 60.0), (empty, NativeHistogram(3.0, ((1, 2, 3),))))
    b = NativeSeries({"route": "/b"}, (0.0, 60.0), (empty, NativeHistogram(1.0, ((4, 8, 1),))))
    buckets = classic_buckets([a, b])
    at_four = [float(s.value[1]) for s in buckets if s.labels["le"] == "4.0"]
    assert at_four == [3.0, 0.0]
    series = interval_series([_requests([0.0, 4.0])], buckets, Grid(0.0, 60.0, 2))
    summary = summarize(series)
    # rank 0.95 * 4 = 3.8 lies 0.8 into (4, 8]'s 1: 4 + 4 * 0.8
    assert summary.overall.latency_p95_s == pytest.approx(4 + 4 * 0.8)
    assert summary.bucket_bounds_s[-1] == math.inf


def test_a_counter_reset_of_the_histogram_counts_the_new_observations():
    """The histogram restarts between the samples: the interval counts its new 2."""
    native = NativeSeries(
        {},
        (0.0, 60.0),
        (NativeHistogram(9.0, ((1.0, 2.0, 9.0),)), NativeHistogram(2.0, ((1.0, 2.0, 2.0),))),
    )
    series = interval_series([_requests([9.0, 2.0])], classic_buckets([native]), Grid(0.0, 60.0, 2))
    assert series.bucket_counts[0].tolist() == [0.0, 2.0, 2.0]


def test_the_band_is_the_bucket_the_percentile_is_interpolated_in():
    """Buckets (0, 0.1], (0.1, 0.2], (0.2, +Inf) holding 90, 5, 5: p50's rank 50 is in
    (0, 0.1]; p95's rank 95 is exactly the top of (0.1, 0.2]; p99's in +Inf."""
    bounds = np.array([0.1, 0.2, np.inf])
    counts = np.array([[90.0, 95.0, 100.0], [0.0, 0.0, 0.0]])
    low, high = quantile_bucket(0.5, bounds, counts)
    assert (low[0], high[0]) == (0.0, 0.1) and np.isnan(low[1]) and np.isnan(high[1])
    assert [float(v[0]) for v in quantile_bucket(0.95, bounds, counts)] == [0.1, 0.2]
    assert [float(v[0]) for v in quantile_bucket(0.99, bounds, counts)] == [0.2, np.inf]
