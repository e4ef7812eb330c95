"""Profile arrivals joined by straight lines (``interpolation: linear``), and step profiles
drawing exactly what they drew before linear profiles existed."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from scipy import stats

from headroom.engine.sim.arrivals import ProfileArrivals
from headroom.engine.sim.feed import build_arrivals
from headroom.engine.sim.scenario import Arrivals, Workload

# A ramp from 0 to 10/s over 100 s, flat to 200 s, down to 4/s at 300 s, then held.
RAMP = ProfileArrivals((0.0, 100.0, 200.0, 300.0), (0.0, 10.0, 10.0, 4.0), linear=True)


def test_rate_and_integral_by_hand() -> None:
    """Worked by hand: rate(50) = 5, rate(250) = 7; the integral over [0, 100) is the
    triangle 100 x 10 / 2 = 500, over [50, 150) 375 + 500 = 875 (the ramp's part is
    (100^2 - 50^2) / 20), over [200, 300) the trapezoid 100 x (10 + 4) / 2 = 700, and past
    the last point the rate holds at 4/s: [300, 400) holds 400."""
    rates = RAMP.rate_at(np.array([-5.0, 50.0, 150.0, 250.0, 1000.0]))
    assert rates.tolist() == [0.0, 5.0, 10.0, 7.0, 4.0]
    assert RAMP.integral(0, 100) == pytest.approx(500)
    assert RAMP.integral(50, 150) == pytest.approx(875)
    assert RAMP.integral(200, 300) == pytest.approx(700)
    assert RAMP.integral(300, 400) == pytest.approx(400)
    assert RAMP.mean_rate_per_s(400) == pytest.approx((500 + 1000 + 700 + 400) / 400)


def test_integral_before_a_late_first_point_is_zero() -> None:
    late = ProfileArrivals((100.0, 200.0), (10.0, 20.0), linear=True)
    assert late.integral(0, 100) == 0.0
    assert late.integral(0, 200) == pytest.approx(1500)
    step = ProfileArrivals((100.0, 200.0), (10.0, 20.0))
    assert step.integral(0, 300) == pytest.approx(1000 + 2000)
    assert step.mean_rate_per_s(300) == pytest.approx(3000 / 300)


def _draw(process: ProfileArrivals, seed: int, end_s: float, segment_s: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    edges = np.append(np.arange(0.0, end_s, segment_s), end_s)
    return np.concatenate([process.between(rng, a, b) for a, b in pairwise(edges)])


def test_counts_per_interval_match_the_integral() -> None:
    """200 runs drawn in 37 s segments (they cut the profile's lines off the points):
    each 50 s interval's total count is Poisson with mean 200 x the rate's integral, so
    it lies within 4 standard deviations (sqrt of the mean) of it: a false alarm has
    odds below 1e-4 per interval."""
    bins = np.arange(0.0, 401.0, 50.0)
    counts = sum(np.histogram(_draw(RAMP, s, 400.0, 37.0), bins)[0] for s in range(200))
    for (a, b), n in zip(pairwise(bins), counts, strict=True):
        expected = 200 * RAMP.integral(a, b)
        assert abs(n - expected) <= 4 * np.sqrt(expected), (a, b, n, expected)


def test_times_on_the_ramp_follow_its_density() -> None:
    """On [0, 100) the rate is t / 10: given their number, arrivals there are i.i.d. with
    CDF (t / 100)^2 (a property of the Poisson process). Kolmogorov-Smirnov at 1%."""
    times = np.concatenate([_draw(RAMP, s, 100.0, 30.0) for s in range(40)])
    assert stats.kstest(times, lambda t: (t / 100.0) ** 2).pvalue > 0.01


def _old_step_between(
    starts: tuple[float, ...],
    rates: tuple[float, ...],
    rng: np.random.Generator,
    t0: float,
    t1: float,
) -> np.ndarray:
    """The step profile's drawing as written before linear profiles (kept verbatim)."""
    s, r = np.asarray(starts), np.asarray(rates)

    def rate_at(t: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(s, t, side="right") - 1
        return np.where(idx >= 0, r[np.maximum(idx, 0)], 0.0)

    peak = float(max(rate_at(np.array([t0]))[0], *r[(s > t0) & (s < t1)], 0.0))
    n = rng.poisson(peak * (t1 - t0)) if peak > 0 else 0
    candidates = np.sort(rng.uniform(t0, t1, n))
    return candidates[rng.uniform(0.0, peak, len(candidates)) < rate_at(candidates)]


def test_step_profiles_draw_what_they_drew() -> None:
    """Same seed, same segments: the same arrival times, to the bit."""
    starts, rates = (0.0, 60.0, 95.0, 200.0), (5.0, 40.0, 2.0, 12.0)
    new = _draw(ProfileArrivals(starts, rates), 7, 300.0, 10.0)
    rng = np.random.default_rng(7)
    old = np.concatenate(
        [_old_step_between(starts, rates, rng, a, a + 10.0) for a in np.arange(0.0, 300.0, 10.0)]
    )
    assert len(new) > 1000 and np.array_equal(new, old)


def test_scenario_field() -> None:
    linear = Arrivals.model_validate({"profile": [[0, 1], [60, 5]], "interpolation": "linear"})
    process = build_arrivals(linear, {})
    assert isinstance(process, ProfileArrivals) and process.linear
    assert not build_arrivals(Arrivals.model_validate({"profile": [[0, 1]]}), {}).linear  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="applies to a profile"):
        Arrivals.model_validate({"rate_per_s": 3, "interpolation": "linear"})
    with pytest.raises(ValueError, match="distinct"):
        Arrivals.model_validate({"profile": [[0, 1], [0, 5]], "interpolation": "linear"})


def test_class_shares_keep_the_interpolation() -> None:
    work = Workload.model_validate(
        {
            "arrivals": {"profile": [[0, 10], [60, 50]], "interpolation": "linear"},
            "classes": [
                {"name": "a", "share": 0.25, "service_s": {"dist": "constant", "value": 0.01}},
                {"name": "b", "share": 0.75, "service_s": {"dist": "constant", "value": 0.01}},
            ],
        }
    )
    first = work.class_list()[0].arrivals
    assert first is not None and first.interpolation == "linear"
    assert first.profile == [(0, 2.5), (60, 12.5)]
