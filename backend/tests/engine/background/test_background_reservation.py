"""Background policies: the round model and the controller against hand-worked traces,
then the spec's claims on a variable foreground (the real EPA day, data/profiles)."""

from pathlib import Path

import numpy as np
import pytest

from headroom.engine.background.outcome import delays_s, outcome
from headroom.engine.background.reservation import ReservationParams, adaptive_step, simulate
from headroom.engine.background.series import parse_series

EPA = Path(__file__).parents[4] / "data" / "profiles" / "epa_cpu_demand.csv"
CFG = np.array([0.02, 1.0, 16.0, 4.0])  # band, min/max multiplier, overload threshold


def test_controller_hand_worked_trace() -> None:
    ctl = np.array([0.0, 1.0, 0.0])  # quota, multiplier, overload
    assert adaptive_step(ctl, 0.5, CFG) == pytest.approx(0.48)  # 0 + 0.5 - 1 x 0.02
    assert adaptive_step(ctl, 0.3, CFG) == pytest.approx(0.76)
    assert adaptive_step(ctl, 0.0, CFG) == pytest.approx(0.72)  # multiplier 2: - 0.04
    assert adaptive_step(ctl, 0.0, CFG) == pytest.approx(0.64)  # multiplier 4: - 0.08
    assert adaptive_step(ctl, 0.1, CFG) == pytest.approx(0.68)  # multiplier 3: + 0.1 - 0.06
    assert ctl[1] == 3.0 and ctl[2] == 0.0


def test_consecutive_zero_idle_rounds_reset_the_quota() -> None:
    ctl = np.array([0.9, 1.0, 0.0])
    quotas = [adaptive_step(ctl, 0.0, CFG) for _ in range(5)]
    # multipliers 2, 4, 8, 16, 16: 0.86, 0.78, 0.62, 0.30; the 5th (> 4) resets to zero
    assert quotas == pytest.approx([0.86, 0.78, 0.62, 0.30, 0.0])
    assert ctl[1] == 16.0 and ctl[2] == 0.0


def test_round_model_hand_worked() -> None:
    demand = np.array([0.3, 0.8, 0.0])
    none = simulate(demand, "none", ReservationParams())
    # d = 0.3: background takes 0.7; d = 0.8: fair share 0.5 each, 0.3 carried over
    assert none.background == pytest.approx([0.7, 0.5, 0.7])
    assert none.foreground == pytest.approx([0.3, 0.5, 0.3])
    assert none.backlog == pytest.approx([0.0, 0.3, 0.0])
    static = simulate(demand, "static", ReservationParams(static_quota=0.4))
    assert static.idle == pytest.approx([0.3, 0.0, 0.4])  # 0.2 carried into round 3
    assert static.foreground == pytest.approx([0.3, 0.6, 0.2])


def test_suspend_stops_after_a_busy_round() -> None:
    demand = np.array([0.1, 0.4, 0.1, 0.1])
    rounds = simulate(demand, "suspend", ReservationParams(suspend_threshold=0.25))
    assert rounds.quota.tolist() == [1.0, 1.0, 0.0, 1.0]
    assert rounds.idle[2] == pytest.approx(0.9)  # the idle CPU suspend wastes


def test_delay_hand_worked() -> None:
    demand = np.array([1.0, 0.0, 0.0])
    rounds = simulate(demand, "static", ReservationParams(static_quota=0.5))
    # half of round 0's demand waits for round 1 and is done at its end: 1 round late
    assert delays_s(demand, rounds, 2.0) == pytest.approx([2.0, 0.0, 0.0])
    result = outcome(demand, rounds, 2.0)
    assert result.foreground_delayed_fraction == pytest.approx(0.5)


def test_static_cap_sized_for_the_worst_case_never_delays() -> None:
    demand = parse_series(EPA.read_text()).busy_fraction
    result = outcome(demand, simulate(demand, "static", ReservationParams()), 60.0)
    assert result.foreground_delayed_fraction == 0.0
    assert result.background_cpu_fraction == pytest.approx(0.1, abs=1e-9)  # 1 - 0.9 peak


def test_adaptive_beats_the_static_cap_on_a_variable_foreground() -> None:
    """The EPA day: busy 0.9 at its peak minute, 0.19 on average. Stated bound: the adaptive
    controller delays at most 2% of the foreground work, and less than 1 round (60 s) at
    the 95th percentile, while obtaining at least 3x the static cap's background CPU."""
    series = parse_series(EPA.read_text())
    demand = series.busy_fraction
    params = ReservationParams()
    results = {
        p: outcome(demand, simulate(demand, p, params), series.round_s)
        for p in ("none", "suspend", "static", "adaptive")
    }
    adaptive, static = results["adaptive"], results["static"]
    assert adaptive.background_cpu_fraction >= 3 * static.background_cpu_fraction
    assert adaptive.foreground_delayed_fraction <= 0.02
    assert adaptive.foreground_delay_p95_s < series.round_s
    assert adaptive.idle_fraction < static.idle_fraction
    assert results["none"].foreground_delayed_fraction > adaptive.foreground_delayed_fraction


def test_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="policy"):
        simulate(np.zeros(3), "greedy", ReservationParams())
    with pytest.raises(ValueError, match="static_quota"):
        ReservationParams(static_quota=1.5)


def test_a_larger_min_multiplier_keeps_more_idle_and_delays_less() -> None:
    """min_multiplier ~8 (limited foreground parallelism) widens the idle band: less
    background CPU, less foreground delay, on the same EPA day."""
    series = parse_series(EPA.read_text())
    demand = series.busy_fraction
    low, high = (
        outcome(demand, simulate(demand, "adaptive", ReservationParams(min_multiplier=m)), 60.0)
        for m in (1.0, 8.0)
    )
    assert high.idle_fraction > low.idle_fraction
    assert high.background_cpu_fraction < low.background_cpu_fraction
    assert high.foreground_delayed_fraction < low.foreground_delayed_fraction
