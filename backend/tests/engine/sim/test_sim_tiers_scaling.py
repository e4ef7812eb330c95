"""Issue 7's check: on the six bursty profiles, hardware-only threshold scaling of the app
tier shows p99 spikes after scale-outs that the concurrency-aware policy removes.

The scenario (tiers_presets.py, where its numbers are derived) runs each profile 6x
compressed (a 10 minute hour; boot, step, cooldown and the SCT window and interval
compressed alike) with seed 1, so
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


SPIKY = ("large_variation", "slowly_varying", "big_spike", "steep_tri_phase")


@pytest.mark.parametrize("name", NAMES)
def test_concurrency_aware_never_clearly_worse(name: str) -> None:
    """On every profile, concurrency-aware p99 (overall and after scale-outs) stays
    within 1.3x of hardware-only (seed 1: at most 1.01x, on quick_varying's 2.66 vs
    2.64 s)."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert any(a.to_vms > a.from_vms for a in hw.actions)  # scale-outs happen
    assert ca.latency.p99_s <= 1.3 * hw.latency.p99_s
    assert _after(ca) <= 1.3 * _after(hw)


@pytest.mark.parametrize("name", SPIKY)
def test_spikes_after_scale_outs_are_removed(name: str) -> None:
    """Four profiles spike after hardware-only scale-outs (p99 in the minute after above
    1 s; seed 1: 3.7, 31.8, 8.8 and 21.3 s), and on each of them concurrency-aware scaling
    cuts the overall p99 at least 8x and the after-scale-out p99 at least 2.5x (seed 1:
    13x, 273x, 14x, 32x overall; 13x, 181x, 3.2x, 45x after)."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert _after(hw) > 1.0
    assert hw.latency.p99_s >= 8 * ca.latency.p99_s
    assert _after(hw) >= 2.5 * _after(ca)


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(SPIKY)))
def test_no_spike_to_remove(name: str) -> None:
    """The other two never spike after a scale-out under either policy (p99 in the minute
    after under 0.5 s; seed 1: 0.19 and 0.41 s), so there is nothing to remove:
    - quick_varying's 3-minute swing (30 s compressed) is shorter than the control loop
      (a 15 s step, 30 s cooldown, 30 s boot): its tail is the app tier lagging the
      load, both policies alike (p99 2.6 s each), which no db pool size changes;
    - dual_phase's 400 req/s phase (300 after the 0.75 rate scale) needs about 9 db
      queries in flight, under the peak; in the full hour (bench, 3 seeds) hardware-only
      does collapse late in that phase (p99 189 s against 0.23 s), but minutes after its
      last scale-out, not in the minute after, and the 6x compressed phase is too short
      for that drift."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert _after(hw) < 0.5 and _after(ca) < 0.5
    assert ca.latency.p99_s <= 1.3 * hw.latency.p99_s


def test_the_db_pool_follows_sct() -> None:
    """Hardware-only never touches a pool; concurrency-aware sets the db's (only) right
    after scaling actions, by the rules of tiers_sct.py, and ends near the derived peak
    of 15 (seed 1: 11, 20 and 12; [9, 24] is 0.6-1.6x the peak)."""
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


def test_a_quiet_window_never_sets_a_pool_below_the_cores() -> None:
    """The db has 15 cores. Profiles at 0.7 of their rates and a milder overhead (0.985
    per query past 20), large_variation, seed 1: after a scale-in at 300 s (compressed)
    the SCT window covers a quiet stretch whose levels 1-8 plateau at the offered load,
    which rule 1 read as the stable stage: pool 6 (at most 200 queries/s), and the next
    rise queued behind it (p99 37 s against hardware-only's 1.9 s). No pool goes under
    the 15 cores now, and the p99 is within 1.3x of hardware-only's."""
    profile = _profile("large_variation")
    runs = {}
    for policy in ("threshold", "concurrency_aware"):
        doc = concurrency_scenario(profile, policy, 1, time_scale=SCALE, rate_scale=0.7)
        doc["cluster"]["tiers"][2]["overhead"] = {"q_upper": 20, "factor": 0.985}
        runs[policy] = Simulation(doc).run()
    ca = runs["concurrency_aware"]
    assert ca.tier_series is not None
    assert all(c.to_pool >= 15 for c in ca.tier_series["pool_changes"])
    assert ca.latency.p99_s <= 1.3 * runs["threshold"].latency.p99_s
