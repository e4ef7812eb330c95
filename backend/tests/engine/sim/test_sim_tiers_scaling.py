"""Issue 7's check: on the six bursty profiles, hardware-only threshold scaling of the app
tier shows p99 spikes after scale-outs that the concurrency-aware policy removes.

The scenario (tiers_presets.py, where its numbers are derived) runs each profile 6x
compressed (a 10 minute hour; boot, step and cooldown compressed alike) with seed 1, so
every figure below is deterministic; the thresholds leave wide margins around the
figures this seed gives (stated per assertion). The full hour, three seeds, is
bench/bench_concurrency_scaling.py.
"""

from __future__ import annotations

import csv
import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from headroom.engine.sim import Simulation
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.tiers_presets import concurrency_scenario, scale_out_p99_s

PROFILES = Path(__file__).resolve().parents[4] / "data" / "profiles"
NAMES = (
    "large_variation",
    "quick_varying",
    "slowly_varying",
    "big_spike",
    "dual_phase",
    "steep_tri_phase",
)
SCALE = 1 / 6


def _profile(name: str) -> list[tuple[float, float]]:
    with open(PROFILES / f"{name}.csv", newline="") as f:
        return [(float(r["t_s"]), float(r["rate_per_s"])) for r in csv.DictReader(f)]


@cache
def _run(name: str, policy: str) -> SimulationResult:
    return Simulation(concurrency_scenario(_profile(name), policy, 1, time_scale=SCALE)).run()


def _after(result: SimulationResult) -> float:
    """Median over the run's scale-outs of the p99 in the (compressed) minute after."""
    values = [x for x in scale_out_p99_s(result, 60 * SCALE) if not math.isnan(x)]
    return float(np.median(values)) if values else 0.0


@pytest.mark.parametrize("name", NAMES)
def test_concurrency_aware_never_clearly_worse(name: str) -> None:
    """On every profile, concurrency-aware p99 (overall and after scale-outs) stays
    within 1.3x of hardware-only (seed 1: at most 1.16x, on dual_phase's 0.32 vs 0.27 s)."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert any(a.to_vms > a.from_vms for a in hw.actions)  # scale-outs happen
    assert ca.latency.p99_s <= 1.3 * hw.latency.p99_s
    assert _after(ca) <= 1.3 * _after(hw)


def test_spikes_after_scale_outs_are_removed() -> None:
    """Where hardware-only scaling spikes after its scale-outs (p99 in the minute after
    above 1 s: four of the six profiles with seed 1), concurrency-aware scaling cuts
    the overall p99 at least 5x and the after-scale-out p99 at least 2.5x on three of
    them (seed 1: 98x, 12x, 45x overall; 174x, 2.9x, 72x after). large_variation starts
    at its peak, before any window to learn from, and its first overload is shared."""
    spiky, removed = [], []
    for name in NAMES:
        hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
        if _after(hw) > 1.0:
            spiky.append(name)
            overall = hw.latency.p99_s / ca.latency.p99_s
            if overall >= 5 and _after(hw) / max(_after(ca), 1e-9) >= 2.5:
                removed.append(name)
    assert len(spiky) >= 4
    assert len(removed) >= 3, (spiky, removed)


def test_the_db_pool_follows_sct() -> None:
    """Hardware-only never touches a pool; concurrency-aware sets the db's (only) right
    after scaling actions, by the rules of tiers_sct.py, and ends near the derived peak
    of 15 (seed 1: 20, 12 and 20; [9, 24] is 0.6-1.6x the peak)."""
    for name in ("big_spike", "steep_tri_phase", "slowly_varying"):
        hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
        assert hw.tier_series is not None and ca.tier_series is not None
        assert hw.tier_series["pool_changes"] == []
        changes = ca.tier_series["pool_changes"]
        assert changes and all(c.tier == "db" for c in changes)
        assert {c.rule for c in changes} <= {"q_lower", "explore", "levels"}
        action_times = {a.t_s for a in ca.actions}
        assert all(c.t_s in action_times for c in changes)
        last = changes[-1]
        assert 9 <= last.to_pool <= 24, changes
        pool = ca.tier_series["db.pool"]
        assert np.isinf(pool[0]) and pool[-1] == last.to_pool
        assert ca.tiers is not None and ca.tiers["db"]["pool"]["final"] == [last.to_pool]
        assert ca.tiers["db"]["pool_changes"] == len(changes)
