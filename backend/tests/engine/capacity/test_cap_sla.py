"""Stances, MaxRate(T) and MaxConn(T) read off a hand-built curve (docs/methods/capacity.md)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity.sla import LoadCurve, max_rate_per_s, sla_target, threshold_for_stance


def _curve(model_from: int = 99) -> LoadCurve:
    load = np.array([0.0, 50.0, 100.0, 150.0, 200.0])
    return LoadCurve(
        load_per_s=load,
        latency_s=np.array([0.5, 0.6, 0.8, 1.5, 2.0]),
        throughput_per_s=load,
        concurrency=np.array([0.0, 30.0, 70.0, 150.0, 300.0]),
        is_model=np.arange(5) >= model_from,
    )


def test_stances_read_the_latency_at_their_loads() -> None:
    c = _curve()
    assert threshold_for_stance(c, "strict", 100.0, 150.0) == pytest.approx(0.72)  # at 80/s
    assert threshold_for_stance(c, "balanced", 100.0, 150.0) == pytest.approx(0.8)
    assert threshold_for_stance(c, "loose", 100.0, 150.0) == pytest.approx(1.5)
    with pytest.raises(ValueError, match="stance"):
        threshold_for_stance(c, "lax", 100.0, 150.0)  # type: ignore[arg-type]


def test_max_rate_and_max_conn_interpolate() -> None:
    target = sla_target(_curve(), "user", 95.0, 1.2)
    assert target.max_rate_per_s == pytest.approx(100 + 50 * 0.4 / 0.7)
    assert target.max_conn == pytest.approx(70 + 80 * (0.4 / 0.7))
    assert target.source == "measured" and not target.capped


def test_threshold_below_the_curve_and_above_it() -> None:
    assert sla_target(_curve(), "user", 95.0, 0.4).max_rate_per_s == 0.0
    top = sla_target(_curve(), "user", 95.0, 3.0)
    assert top.capped and top.max_rate_per_s == 200.0


def test_rate_past_the_measured_points_is_model() -> None:
    target = sla_target(_curve(model_from=3), "user", 95.0, 1.8)
    assert target.source == "model"
    assert sla_target(_curve(model_from=3), "user", 95.0, 0.7).source == "measured"


@settings(max_examples=100, deadline=None)
@given(
    steps=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=30),
    frac=st.floats(0.0, 1.0),
)
def test_max_rate_inverts_a_monotone_curve(steps: list[float], frac: float) -> None:
    lat = 0.1 + np.cumsum(steps)
    load = np.arange(lat.size, dtype=np.float64) * 10
    curve = LoadCurve(load, lat, load, load * lat, np.zeros(lat.size, dtype=bool))
    t = float(lat[0] + frac * (lat[-1] - lat[0]))
    rate, capped = max_rate_per_s(curve, t)
    assert curve.latency_at(rate) <= t + 1e-9
    if not capped:  # a hair more load breaks the threshold
        assert curve.latency_at(rate + 1e-6) > t - 1e-9
    assert max_rate_per_s(curve, t + 0.05)[0] >= rate
