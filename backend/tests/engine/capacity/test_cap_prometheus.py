"""A Prometheus dataset's intervals as capacity windows: hand-worked figures, and the knee
and MaxRate(T) of an M/M/1 queue whose latency histogram is known in closed form."""

import math

import numpy as np
import pytest

from headroom.engine.capacity import CapacityParams, analyze_windows
from headroom.engine.capacity.prometheus import (
    bucket_around,
    capacity_windows,
    histogram_mean_s,
    histogram_note,
)
from headroom.engine.prometheus import IntervalSeries

BOUNDS = np.array([0.1, 0.2, math.inf])


def hand_series() -> IntervalSeries:
    """Four 60 s intervals of one class: traffic, a gap, traffic, idle."""
    counts = np.array([[20, 50, 60], [np.nan] * 3, [120, 120, 120], [0, 0, 0]], float)
    return IntervalSeries(
        step_s=60.0,
        classes=("all",),
        start_s=np.array([0.0, 60.0, 120.0, 180.0]),
        class_index=np.zeros(4, np.int64),
        requests=np.array([60.0, np.nan, 120.0, 0.0]),
        errors=np.array([6.0, np.nan, 0.0, 0.0]),
        bucket_bounds_s=BOUNDS,
        bucket_counts=counts,
    )


def test_intervals_with_traffic_become_windows_with_hand_worked_figures():
    win = capacity_windows(hand_series(), 50.0)["all"]
    np.testing.assert_array_equal(win.start_s, [0.0, 120.0])  # the gap and the idle left out
    np.testing.assert_allclose(win.load_per_s, [1.0, 2.0])
    np.testing.assert_allclose(win.throughput_per_s, [1.0, 2.0])
    np.testing.assert_allclose(win.goodput_per_s, [54 / 60, 2.0])
    # p50 of [20, 50, 60]: rank 30 in (0.1, 0.2]: 0.1 + 0.1 * 10 / 30; of [120, ...]: 0.05
    np.testing.assert_allclose(win.latency_pct_s, [0.1 + 0.1 / 3, 0.05])
    # midpoints 0.05, 0.15 and the +Inf bucket at 0.2: (20*0.05 + 30*0.15 + 10*0.2) / 60
    np.testing.assert_allclose(win.mean_latency_s, [0.125, 0.05])
    np.testing.assert_allclose(win.concurrency, [0.125, 0.1])
    assert np.isnan(win.new_clients_per_s).all()


def test_the_mean_of_an_empty_histogram_is_unknown_not_zero():
    assert np.isnan(histogram_mean_s(BOUNDS, np.zeros((1, 3))))[0]


def test_no_histogram_is_refused():
    series = hand_series()
    bare = IntervalSeries(**{**series.__dict__, "bucket_bounds_s": np.array([0.1, 0.2])})
    with pytest.raises(ValueError, match=r"\+Inf"):
        capacity_windows(bare, 95.0)


def test_the_bucket_holding_a_threshold_and_the_note():
    assert bucket_around(BOUNDS, 0.15) == [0.1, 0.2]
    assert bucket_around(BOUNDS, 0.05) == [0.0, 0.1]
    assert bucket_around(BOUNDS, 0.5) == [0.2, None]
    assert bucket_around(BOUNDS, None) is None
    note = histogram_note(BOUNDS, 4, 2)
    assert note["bucket_bounds_s"] == [0.1, 0.2, "+Inf"]
    assert "concurrency" in note["not_recorded"]


MU = 100.0  # M/M/1: response time exponential with rate MU - lambda, p95 = ln 20 / (MU - lambda)
FINE = np.array([*np.round(np.arange(0.005, 2.0001, 0.005), 3), math.inf])


def mm1_series(loads: np.ndarray, step_s: float = 60.0) -> IntervalSeries:
    requests = loads * step_s
    share = 1.0 - np.exp(-np.outer(MU - loads, FINE))
    return IntervalSeries(
        step_s=step_s,
        classes=("all",),
        start_s=step_s * np.arange(loads.size, dtype=float),
        class_index=np.zeros(loads.size, np.int64),
        requests=requests,
        errors=np.zeros(loads.size),
        bucket_bounds_s=FINE,
        bucket_counts=requests[:, None] * share,
    )


def test_knee_and_max_rate_of_an_mm1_queue():
    loads = np.repeat(np.linspace(10.0, 92.0, 20), 6)  # one load per bin
    series = mm1_series(loads)
    threshold = 0.1
    params = CapacityParams(threshold_s=threshold, bootstrap_resamples=50)
    report = analyze_windows(capacity_windows(series, 95.0), params)
    sla = report.classes["all"].sla
    assert sla is not None
    truth = MU - math.log(20) / threshold  # 70.04/s
    assert sla.max_rate_per_s == pytest.approx(truth, rel=0.03)
    # the measured curve's p95 at each bin against the closed form
    curve = report.classes["all"].curve
    exact = math.log(20) / (MU - curve.load_per_s)
    np.testing.assert_allclose(curve.latency_s, exact, rtol=0.02)


def test_the_stance_knee_is_kneedle_on_the_closed_form_curve():
    loads = np.repeat(np.linspace(10.0, 92.0, 20), 6)  # one load per bin
    report = analyze_windows(
        capacity_windows(mm1_series(loads), 95.0), CapacityParams(bootstrap_resamples=50)
    )
    knee = report.classes["all"].knee
    assert knee is not None and knee.source == "measured"
    x = np.linspace(10.0, 92.0, 2001)
    y = math.log(20) / (MU - x)
    gap = (x - x[0]) / (x[-1] - x[0]) - (y - y[0]) / (y[-1] - y[0])
    bin_width = (92.0 - 10.0) / 20
    assert knee.load_per_s == pytest.approx(x[np.argmax(gap)], abs=bin_width)
    assert report.classes["all"].sla is not None


def test_the_refreshed_range_percentile_pools_its_intervals():
    from headroom.engine.capacity.prometheus import range_figures

    # intervals from 120 s: [120, 120, 120] and [0, 0, 0]; p50 rank 60 in (0, 0.1]: 0.05
    assert range_figures(hand_series(), 120.0, 50.0) == (2, 120.0, pytest.approx(0.05))
    # all: [140, 170, 180] summed; p50 rank 90 in (0, 0.1]: 0.1 * 90 / 140
    assert range_figures(hand_series(), 0.0, 50.0)[2] == pytest.approx(0.1 * 90 / 140)
    assert range_figures(hand_series(), 240.0, 95.0) == (0, 0.0, None)
