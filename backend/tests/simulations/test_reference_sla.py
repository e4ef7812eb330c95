"""The reference preset's SLA against the spec's reference numbers, and the SLA window
computation (violations, p50/p95/p99 per window) against hand-worked examples.

Reference for the PLT floor: with the spec's gaps (uniform [0, 1] w.p. 0.97, [1, 2] w.p.
0.03) a page whose n objects are requested by the client cannot load before the sum of n
gaps (docs/methods/simulator.md, "Pages": requests chain on the gaps from the base arrival). The
distribution of that sum is computed here by numerical convolution of the gap density,
independently of the engine."""

import math
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation
from headroom.engine.sim.presets import REFERENCE_SLA_THRESHOLD_S, reference
from headroom.simulations.documents import run_document
from headroom.simulations.result_models import stored

OBJECTS = 40
GRID_S = 1e-3


def gap_sum_quantile(n: int, q: float) -> float:
    """Quantile q of the sum of n i.i.d. spec gaps (density on a 1 ms grid, convolved)."""
    x = np.arange(0.0, 2.0, GRID_S) + GRID_S / 2
    density = np.where(x < 1.0, 0.97, 0.03)
    density /= density.sum()
    total = np.array([1.0])
    for _ in range(n):
        total = np.convolve(total, density)
    return float(np.searchsorted(np.cumsum(total), q) * GRID_S + n * GRID_S / 2)


def one_hour(threshold_s: float | None = None) -> dict[str, Any]:
    """The editor's '1 h variant': the preset with duration_s = 3600."""
    document = reference()
    document["duration_s"] = 3600
    if threshold_s is not None:
        document["sla"]["threshold_s"] = threshold_s
    return document


def test_the_convolution_matches_the_gap_moments() -> None:
    # mean 0.53 s, variance 0.3933 - 0.53^2; the sum of 40 is close to normal (CLT)
    mean, sd = 0.53 * OBJECTS, math.sqrt(OBJECTS * (0.97 / 3 + 0.03 * 7 / 3 - 0.53**2))
    assert gap_sum_quantile(OBJECTS, 0.5) == pytest.approx(mean, abs=0.05)
    assert gap_sum_quantile(OBJECTS, 0.95) == pytest.approx(mean + 1.645 * sd, abs=0.15)


@pytest.mark.parametrize("push", [0.0, 0.5, 1.0])
def test_the_preset_sla_is_attainable_at_every_push_level(push: float) -> None:
    """The preset's p95 threshold clears the PLT floor with room for queueing; the spec's
    10 s did not at the preset's own 50% push (so every window was violated)."""
    client_requested = round(OBJECTS * (1 - push))
    floor_p95_s = gap_sum_quantile(client_requested, 0.95)
    assert reference()["sla"] == {"percentile": 95, "threshold_s": REFERENCE_SLA_THRESHOLD_S}
    assert floor_p95_s < REFERENCE_SLA_THRESHOLD_S - 5.0
    if push == 0.5:
        assert floor_p95_s > 10.0  # the spec's threshold: unattainable however many VMs


def test_the_one_hour_preset_meets_its_sla_and_its_plt_sits_on_the_floor() -> None:
    result = Simulation(one_hour()).run()
    assert result.plt is not None and result.pages > 2000
    floor_p95_s = gap_sum_quantile(OBJECTS // 2, 0.95)
    # above the floor (less the sketch's 0.4% error); at most 1.5 s over it: the last
    # object's response plus processor sharing with the page's 20 pushed objects on its VM
    # (0.7 s measured with this seed); 16 s of room remain below the threshold
    assert floor_p95_s * (1 - 0.004) <= result.plt.p95_s <= floor_p95_s + 1.5
    assert result.sla_violation_fraction == 0.0
    windows = result.series.window_p95_latency_s
    assert np.nanmax(windows) < REFERENCE_SLA_THRESHOLD_S


def test_under_the_spec_threshold_every_window_is_violated() -> None:
    """What the preset showed before: the median PLT floor (10.55 s) is over 10 s, so about
    60% of each window's PLTs exceed it, far more than the 5% a p95 SLA allows."""
    assert gap_sum_quantile(OBJECTS // 2, 0.5) > 10.0
    result = Simulation(one_hour(threshold_s=10.0)).run()
    assert result.sla_violation_fraction == 1.0


def fcfs_bursts(percentile: float) -> dict[str, Any]:
    """One FCFS core, 0.5 s requests, one a second; window [0, 20) gets one extra request at
    5 s, window [20, 40) two extra at 25 s and 30 s: each extra one waits 0.5 s (latency
    1 s), every other request takes 0.5 s."""
    times = [float(t) for t in range(40)] + [5.0, 25.0, 30.0]
    return {
        "duration_s": 40,
        "workload": {
            "arrivals": {"times_s": sorted(times)},
            "service_s": {"dist": "constant", "value": 0.5},
        },
        "cluster": {"vms": {"min": 1, "max": 1, "start": 1}, "discipline": "fcfs"},
        "sla": {"percentile": percentile, "threshold_s": 0.75, "window_s": 20},
    }


def test_a_window_is_violated_when_more_than_the_allowed_share_exceeds_the_threshold() -> None:
    # window 0: 1 of 21 over 0.75 s (4.8% <= 5%): kept; window 1: 2 of 22 (9.1%): violated
    series = Simulation(fcfs_bursts(95)).run().series
    assert series.window_violated.tolist() == [False, True]
    # at p90 (10% allowed) neither window is violated
    assert Simulation(fcfs_bursts(90)).run().series.window_violated.tolist() == [False, False]


def test_window_percentiles_are_the_nearest_rank_values() -> None:
    """Nearest rank ceil(q n): window 0 holds 20 x 0.5 s and 1 x 1 s, window 1 20 x 0.5 s
    and 2 x 1 s; the per-window sketch is within 2% (COARSE_ALPHA) of each value."""
    result = Simulation(fcfs_bursts(95)).run()
    series = result.series
    expected = {
        "window_p50_latency_s": [0.5, 0.5],
        "window_p95_latency_s": [0.5, 1.0],  # ranks 20 of 21, 21 of 22
        "window_p99_latency_s": [1.0, 1.0],
    }
    for name, values in expected.items():
        assert getattr(series, name) == pytest.approx(values, rel=0.02), name
    document = stored(run_document(result))["series"]
    assert document["window_percentile"] == 95
    assert document["window_t_s"] == [20.0, 40.0]
    for name, values in expected.items():
        assert document[name] == pytest.approx(values, rel=0.02), name
