"""Per-interval series and the range summary against hand-worked counters."""

import math

import numpy as np
import pytest

from headroom.engine.prometheus import Grid, Series, Split, interval_series, summarize

T = np.array([0.0, 60.0, 120.0])
GRID = Grid(start_s=0.0, step_s=60.0, points=3)


def s(labels, values, t=T):
    return Series(labels, np.asarray(t, float), np.asarray(values, float))


REQUESTS = [
    s({"route": "/a", "code": "200"}, [0, 60, 120]),
    s({"route": "/b", "code": "500"}, [0, 30, 30]),
]
BUCKETS = [  # cumulative counters at t = 0, 60, 120 for le 0.1, 1, 2, +Inf
    s({"route": "/a", "le": "0.1"}, [0, 50, 100]),
    s({"route": "/a", "le": "1"}, [0, 80, 170]),
    s({"route": "/a", "le": "2"}, [0, 100, 195]),
    s({"route": "/a", "le": "+Inf"}, [0, 100, 200]),
]


def rows(series, name):
    return series.class_index == series.classes.index(name)


def test_rates_errors_and_classes_per_interval():
    series = interval_series(REQUESTS, BUCKETS, GRID, Split(class_label="route"))
    assert series.classes == ("all", "/a", "/b")
    everything = rows(series, "all")
    np.testing.assert_array_equal(series.requests[everything], [90, 60])
    np.testing.assert_array_equal(series.rate_per_s[everything], [1.5, 1.0])
    np.testing.assert_array_equal(series.errors[everything], [30, 0])
    np.testing.assert_array_equal(series.requests[rows(series, "/b")], [30, 0])
    np.testing.assert_array_equal(series.start_s[everything], [0, 60])


def test_interval_p95_interpolates_the_intervals_buckets():
    series = interval_series(REQUESTS, BUCKETS, GRID, Split(class_label="route"))
    # interval 1: increases [50, 80, 100, 100]; rank 95 in (1, 2]: 1 + 15 / 20
    # interval 2: increases [50, 90, 95, 100]; rank 95 at the top of (1, 2]: 1 + 5 / 5
    np.testing.assert_allclose(series.latency_s(0.95)[rows(series, "/a")], [1.75, 2.0])
    assert np.isnan(series.latency_s(0.95)[rows(series, "/b")]).all()


def test_summary_quantiles_come_from_the_whole_ranges_increase():
    summary = summarize(interval_series(REQUESTS, BUCKETS, GRID, Split(class_label="route")))
    overall = summary.overall
    assert overall.requests_total == 150
    assert overall.rate_per_s_mean == 150 / 120
    assert overall.rate_per_s_peak == 1.5
    assert overall.errors_total == 30
    # whole range [100, 170, 195, 200]: rank 190 in (1, 2] -> 1 + 20 / 25 (not the mean
    # of the intervals' 1.75 and 2.0)
    assert overall.latency_p95_s == pytest.approx(1.8)
    assert overall.latency_p99_s == 2.0  # rank 198 is in +Inf: the largest finite bound
    assert summary.classes["/a"].requests_total == 120
    assert summary.classes["/b"].latency_p95_s is None
    assert summary.bucket_bounds_s == (0.1, 1.0, 2.0, math.inf)


def test_a_counter_reset_counts_the_new_value():
    restarted = [s({}, [0, 100, 40])]  # the process restarted and counted 40 since
    summary = summarize(interval_series(restarted, [], GRID))
    assert summary.overall.requests_total == 140


def test_gaps_are_left_out_of_totals_and_of_the_mean_rate():
    t = np.array([0.0, 60.0, 180.0, 240.0])  # nothing at 120
    gappy = [s({}, [0, 60, 200, 260], t)]
    series = interval_series(gappy, [], Grid(0.0, 60.0, 5))
    np.testing.assert_array_equal(series.requests, [60, np.nan, np.nan, 60])
    summary = summarize(series)
    assert summary.gap_intervals == 2
    assert summary.overall.requests_total == 120
    assert summary.overall.rate_per_s_mean == 1.0  # 120 over the 120 s observed


def test_classes_sum_every_series_of_the_class():
    two = [s({"route": "/a", "code": "200"}, [0, 10, 20]), s({"route": "/a"}, [0, 5, 10])]
    series = interval_series(two, [], GRID, Split(class_label="route"))
    np.testing.assert_array_equal(series.requests[rows(series, "/a")], [15, 15])


def test_pages_joined_equal_the_whole_range():
    """Pages overlap by one grid point, so no interval is lost between them."""
    from headroom.engine.prometheus import concat

    whole = interval_series(REQUESTS, BUCKETS, GRID, Split(class_label="route"))
    first = interval_series(
        [s(r.labels, r.value[:2], T[:2]) for r in REQUESTS],
        [s(b.labels, b.value[:2], T[:2]) for b in BUCKETS],
        Grid(0.0, 60.0, 2),
        Split(class_label="route"),
    )
    second = interval_series(
        [s(r.labels, r.value[1:], T[1:]) for r in REQUESTS[:1]],  # /b absent from page 2
        [s(b.labels, b.value[1:], T[1:]) for b in BUCKETS],
        Grid(60.0, 60.0, 2),
        Split(class_label="route"),
    )
    joined = concat([first, second])
    assert joined.classes == whole.classes
    a = rows(joined, "all")
    np.testing.assert_array_equal(joined.start_s[a], [0, 60])
    np.testing.assert_array_equal(joined.requests[a], [90, 60])
    np.testing.assert_allclose(joined.latency_s(0.95)[rows(joined, "/a")], [1.75, 2.0])
    assert summarize(joined).overall.latency_p95_s == pytest.approx(1.8)
