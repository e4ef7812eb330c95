"""Power-ratio capacity: the cubic's maximiser inside the observed range, or a reason."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity.power import CHART_POINTS, NOT_REACHED, power_capacity


def test_mm1_power_curve_peaks_at_half_mu() -> None:
    """Goodput lambda and mean response 1/(mu - lambda): gamma = lambda (mu - lambda),
    a quadratic the cubic fits exactly, maximal at mu / 2."""
    mu = 100.0
    load = np.linspace(5, 95, 50)
    cap = power_capacity(load, load, 1.0 / (mu - load))
    assert cap.power_peak_load_per_s == pytest.approx(50.0, abs=1e-6)
    assert cap.r2 == pytest.approx(1.0)
    assert cap.reason is None


def test_no_peak_inside_the_range() -> None:
    load = np.linspace(5, 40, 30)
    cap = power_capacity(load, load, 1.0 / (100.0 - load))  # still rising at 40
    assert cap.power_peak_load_per_s is None
    assert cap.reason == NOT_REACHED
    assert cap.r2 is not None


def test_too_few_windows() -> None:
    load = np.array([1.0, 2.0])
    cap = power_capacity(load, load, np.array([0.1, 0.1]))
    assert cap.power_peak_load_per_s is None and cap.reason is not None


@settings(max_examples=60, deadline=None)
@given(peak=st.floats(20.0, 80.0), height=st.floats(1.0, 1e4), curvature=st.floats(0.01, 10.0))
def test_recovers_the_peak_of_any_concave_quadratic(
    peak: float, height: float, curvature: float
) -> None:
    load = np.linspace(1.0, 100.0, 40)
    gamma = height - curvature * (load - peak) ** 2
    latency = np.full(load.size, 0.5)
    cap = power_capacity(load, gamma * 0.5, latency)
    assert cap.power_peak_load_per_s == pytest.approx(peak, abs=1e-6 * 100)


def test_chart_carries_the_windows_and_the_cubic() -> None:
    """The chart's points are windows (at most CHART_POINTS, ends kept) whose power ratio is
    goodput / latency, and its coefficients reproduce gamma = lambda (mu - lambda)."""
    mu = 100.0
    load = np.linspace(5, 95, 1000)
    cap = power_capacity(load, load, 1.0 / (mu - load))
    chart = cap.to_chart()
    assert chart is not None
    points = chart["points"]
    assert isinstance(points, list) and len(points) == CHART_POINTS
    assert points[0]["load_per_s"] == 5.0 and points[-1]["load_per_s"] == 95.0
    for p in points:
        assert p["power_per_s2"] == pytest.approx(p["load_per_s"] * (mu - p["load_per_s"]))
    x = np.array([20.0, 50.0, 80.0])
    fitted = np.polyval(np.asarray(chart["coefficients"]), x)
    assert fitted == pytest.approx(x * (mu - x), rel=1e-6)
    assert chart["peak_load_per_s"] == pytest.approx(50.0, abs=1e-6)
    assert power_capacity(load[:2], load[:2], np.array([0.1, 0.1])).to_chart() is None
