"""The concurrency-aware scaling check: on the six bursty profiles, hardware-only threshold
scaling of the app tier stays in seconds (calibrated like the published comparison) and
shows p99 spikes after the sharp rises that the concurrency-aware policy removes.

The scenario (engine/sim/tiers/presets.py, where its numbers and their calibration are derived) runs
each profile 6x compressed (a 10 minute hour; boot, step, cooldown and the SCT window and
interval compressed alike; big_spike's gap also over the full hour) with seed 1, so every
figure below is deterministic; the thresholds leave wide margins around the figures this
seed gives (stated per assertion), and the full hour over seeds 1-3
(bench/bench_concurrency_scaling.py, docs/policies.md) shows the same ordering.
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
from headroom.engine.sim.tiers.presets import concurrency_scenario, scale_out_p99_s

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


NO_GAP = ("large_variation", "quick_varying", "slowly_varying", "dual_phase")


@pytest.mark.parametrize("name", NAMES)
def test_hardware_only_stays_in_seconds(name: str) -> None:
    """Calibrated like the published comparison: hardware-only p99 in seconds, not minutes
    (before the calibration, compressed: 35, 48, 37 and 203 s on four profiles; seed 1
    now: at most 1.15 s; the full hour, seeds 1-3: at most 23 s)."""
    assert _run(name, "threshold").latency.p99_s < 10.0


@pytest.mark.parametrize("name", NAMES)
def test_concurrency_aware_never_clearly_worse(name: str) -> None:
    """On every profile, concurrency-aware p99 (overall and after scale-outs) stays
    within 1.3x of hardware-only (seed 1: at most 1.0x)."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert any(a.to_vms > a.from_vms for a in hw.actions)  # scale-outs happen
    assert ca.latency.p99_s <= 1.3 * hw.latency.p99_s
    assert _after(ca) <= 1.3 * _after(hw)


@pytest.mark.parametrize("seed", [1, 2])
def test_big_spike_spikes_are_removed(seed: int) -> None:
    """big_spike's 1-minute rise to 3.4x outruns the app tier's loop; the backlog it
    releases on scaling out reaches the db through up to 80 connections, past its peak,
    for a few seconds. The full hour (compressed, the backlog and its drain are 6x
    smaller and the gap is within noise): hardware-only p99 in seconds, and
    concurrency-aware scaling cuts it at least 2x and the p95 at least 10x (seeds 1-3:
    p99 8.3-9.5 s against 2.4-2.6 s; p95 6.9-7.9 s against 0.17-0.18 s)."""
    hw, ca = (
        Simulation(concurrency_scenario(_profile("big_spike"), policy, seed)).run()
        for policy in ("threshold", "concurrency_aware")
    )
    assert hw.latency.p99_s < 30.0
    assert hw.latency.p99_s >= 2 * ca.latency.p99_s
    assert hw.latency.p95_s >= 10 * ca.latency.p95_s


@pytest.mark.parametrize("name", NO_GAP)
def test_no_spike_to_remove(name: str) -> None:
    """On four profiles the app tier keeps up closely enough that no backlog takes the
    db past its peak for long, so both policies give the same tail (within 1.5x; seed 1:
    at most 1.01x):
    - slowly_varying and dual_phase rise slower than the loop reacts (p99 0.2 s each);
    - large_variation's and quick_varying's fast swings make the app tier lag each rise
      by a few seconds (p99 3-4 s in the full hour), the same under both policies, and
      the small backlogs they leave never fill the db past 20 queries for long."""
    hw, ca = _run(name, "threshold"), _run(name, "concurrency_aware")
    assert hw.latency.p99_s <= 1.5 * ca.latency.p99_s


def test_the_db_pool_follows_sct() -> None:
    """Hardware-only never touches a pool; concurrency-aware sets the db's (only) right
    after scaling actions, by the rules of tiers_sct.py, and ends between the derived
    peak of 15 (the db's cores, the rules' floor) and twice it (seed 1: 15, 30 and 15)."""
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
        assert 15 <= last.to_pool <= 30, changes
        pool = ca.tier_series["db.pool"]
        assert np.isinf(pool[0]) and pool[-1] == last.to_pool
        assert ca.tiers is not None and ca.tiers["db"]["pool"]["final"] == [last.to_pool]
        assert ca.tiers["db"]["pool_changes"] == len(changes)


def test_a_quiet_window_never_sets_a_pool_below_the_cores() -> None:
    """The db has 15 cores. Profiles at 0.7 of their rates, a milder overhead (0.985
    per query past 20) and the control loop before the calibration (one VM per 15 s
    step, 30 s cooldown and boot, band [0.4, 0.75], up to 12 VMs), large_variation,
    seed 1: after a scale-in at 300 s (compressed) the SCT window covers a quiet
    stretch whose levels 1-8 plateau at the offered load,
    which rule 1 read as the stable stage: pool 6 (at most 200 queries/s), and the next
    rise queued behind it (p99 37 s against hardware-only's 1.9 s). No pool goes under
    the 15 cores now, and the p99 is within 1.3x of hardware-only's."""
    profile = _profile("large_variation")
    runs = {}
    for policy in ("threshold", "concurrency_aware"):
        doc = concurrency_scenario(profile, policy, 1, time_scale=SCALE, rate_scale=0.7)
        doc["cluster"]["tiers"][2]["overhead"] = {"q_upper": 20, "factor": 0.985}
        app, loop = doc["cluster"]["tiers"][1], doc["autoscaling"]
        app["vms"]["max"], app["boot_s"] = 12, 30 * SCALE
        loop.update(step_size=1, step_s=15 * SCALE, cooldown_s=30 * SCALE)
        runs[policy] = Simulation(doc).run()
    ca = runs["concurrency_aware"]
    assert ca.tier_series is not None
    assert all(c.to_pool >= 15 for c in ca.tier_series["pool_changes"])
    assert ca.latency.p99_s <= 1.3 * runs["threshold"].latency.p99_s
