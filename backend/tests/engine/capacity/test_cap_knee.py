"""Knee-curve building blocks: bins, bootstrap, isotonic fit, Kneedle, breaking point."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity import knee as kn
from headroom.engine.capacity.windows import WindowStats


def _windows(load: np.ndarray, pct: np.ndarray, x: np.ndarray | None = None) -> WindowStats:
    x = load if x is None else x
    return WindowStats(
        window_s=10.0,
        start_s=np.arange(load.size, dtype=np.float64) * 10.0,
        load_per_s=load,
        throughput_per_s=x,
        goodput_per_s=x,
        latency_pct_s=pct,
        mean_latency_s=pct / 3,
        concurrency=x * pct / 3,
        concurrency_little=x * pct / 3,
        new_clients_per_s=np.full(load.size, np.nan),
    )


@settings(max_examples=80, deadline=None)
@given(
    load=st.lists(st.floats(0.0, 1000.0), min_size=5, max_size=200),
    n_bins=st.integers(1, 40),
)
def test_bins_have_enough_windows_and_follow_load(load: list[float], n_bins: int) -> None:
    arr = np.array(load)
    bins = kn.load_bins(arr, n_bins, 5)
    counts = np.bincount(bins)
    assert counts.min() >= 5
    assert np.all(counts > 0)  # ids are contiguous
    order = np.argsort(arr, kind="stable")
    assert np.all(np.diff(bins[order]) >= 0)  # higher load never lands in a lower bin


@settings(max_examples=50, deadline=None)
@given(
    pct=st.lists(st.floats(0.001, 10.0), min_size=10, max_size=150),
    seed=st.integers(0, 2**32 - 1),
)
def test_isotonic_fit_is_monotone_and_interval_brackets_median(pct: list[float], seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = np.array(pct)
    load = rng.uniform(0, 100, p.size)
    curve = kn.knee_curve(_windows(load, p), 95.0, 10, 5, rng, resamples=200)
    assert np.all(np.diff(curve.latency_iso_s) >= -1e-12)
    assert np.all(np.diff(curve.load_per_s) > 0)
    assert np.all(curve.latency_low_s <= curve.latency_s + 1e-12)
    assert np.all(curve.latency_high_s >= curve.latency_s - 1e-12)
    # the weighted isotonic fit preserves the weighted mean (PAV pools by weighted means)
    w = curve.n_windows
    assert np.sum(w * curve.latency_iso_s) == pytest.approx(np.sum(w * curve.latency_s))


def test_kneedle_finds_the_kink_of_a_hockey_stick() -> None:
    x = np.linspace(0, 100, 101)
    y = np.where(x < 70, 1.0 + 0.01 * x, 1.7 + 0.5 * (x - 70))
    found = kn.kneedle(x, y)
    assert found is not None
    assert found.load_per_s == pytest.approx(70.0)


def test_kneedle_on_a_line_is_weak_and_flat_is_none() -> None:
    x = np.linspace(0, 1, 50)
    line = kn.kneedle(x, 2 * x + 1)
    assert line is not None and line.strength == pytest.approx(0.0, abs=1e-12)
    assert kn.kneedle(x, np.ones(50)) is None


def test_breaking_point_of_a_saturating_throughput_curve() -> None:
    """X = min(load, 100): the smallest load with X >= 0.97 max X is 97 exactly."""
    load = np.arange(5.0, 151.0, 5.0)
    rng = np.random.default_rng(0)
    w = _windows(
        np.repeat(load, 5), np.repeat(load / 1000, 5), np.repeat(np.minimum(load, 100.0), 5)
    )
    curve = kn.knee_curve(w, 95.0, load.size, 5, rng, resamples=50)
    assert kn.is_saturated(curve)
    assert kn.breaking_point_per_s(curve) == pytest.approx(97.0)
