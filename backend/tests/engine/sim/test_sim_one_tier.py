"""A single-tier cluster runs as the one-tier case of the multi-tier model.

A single-tier scenario ran on a compiled loop of its own (the kernel) until Simulation
ran it through the tier loop as the chain of one tier. Every single-tier run here is
checked against the kernel's results, frozen before it went (one_tier_frozen.json:
a few figures to read and a hash of every value of the result but its wall time:
series, sketches, boxes, trace rows, admission figures): moving changed no result, for
processor sharing or FCFS, pool limit and accept queue, overhead, every dispatch policy,
autoscaling, request classes, per-request traces, the class-aware admission stages, the
virtual waiting queue, pages (client chains, server push, Early Hints, sticky or
per-request dispatch).

Each run is also compared with the cluster written by hand as a one-tier chain document
and run by TieredSimulation: the scenario document lets tiers dispatch by least
connections only and gives them no admission stage, so the other policies and the stages
reach it through the runner's per-tier ``dispatch`` and its ``admission``, and its
dispatcher's first scan starts where a single-tier run's does (``dispatch_start=1``).

The runs take the loop (fast_paths=False), not the FCFS fast path
(test_sim_fcfs_fastpath.py compares the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.scenario import Dispatch
from headroom.engine.sim.tiers.runner import TieredSimulation

from .one_tier import FIXED, MIXED, assert_same, both, docs, exp, run_chain, run_single


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "limits",
    [{}, {"pool_limit": 3, "accept_queue": 2}, {"overhead": {"q_upper": 3, "factor": 0.9}}],
    ids=["plain", "pool", "overhead"],
)
def test_one_tier_chain_reproduces_the_kernels_figures(
    discipline: str, limits: dict[str, Any]
) -> None:
    a, b = both({"vms": FIXED, "cores": 2, "discipline": discipline, **limits})
    assert a.completed > 300
    if limits.get("pool_limit"):
        assert a.rejected > 0  # the accept queue's bound is exercised
    assert_same(a, b)
    assert b.tiers is not None and b.tiers["web"]["vms"]["vm_hours"] == a.vms.vm_hours


_RISE_AND_FALL = {"profile": [[0, 2.0], [200, 14.0], [400, 3.0]]}
_TWO_CLASSES = {
    "classes": [
        {"name": "browse", "arrivals": {"rate_per_s": 6.0}, "service_s": exp(0.4)},
        {"name": "buy", "arrivals": {"rate_per_s": 1.0}, "service_s": exp(1.2)},
    ]
}


@pytest.mark.parametrize(
    ("workload", "start", "boot_s"),
    [({"arrivals": _RISE_AND_FALL, "service_s": exp(0.4)}, 2, 15.0), (_TWO_CLASSES, 1, 0.0)],
    ids=["rise-and-fall", "two-classes"],
)
def test_one_tier_chain_reproduces_the_kernels_figures_under_autoscaling(
    workload: dict[str, Any], start: int, boot_s: float
) -> None:
    """Threshold autoscaling boots (with or without a boot delay) and drains VMs."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": start}, "cores": 2, "boot_s": boot_s}
    a, b = both(cluster, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    assert_same(a, b)


_POLICIES = ["round_robin", "weighted_round_robin", "least_connections", "lru", "random"]


def _both_dispatched(
    cluster: dict[str, Any], dispatch: Dispatch, **extra: Any
) -> tuple[SimulationResult, SimulationResult]:
    """The single-tier run with ``dispatch`` and the chain with it at its one tier."""
    single, tiered = docs(cluster, **extra)
    a = run_single({**single, "dispatch": dispatch.model_dump()})
    return a, run_chain(tiered, dispatch=[dispatch])


@pytest.mark.parametrize("policy", _POLICIES)
@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
def test_one_tier_chain_dispatches_as_the_kernel_did(policy: str, discipline: str) -> None:
    """Every policy over a fixed cluster of unequal weights, with a bounded pool and queue."""
    dispatch = Dispatch(policy=policy, weights=[1.0, 2.0, 3.0])
    cluster = {"vms": FIXED, "cores": 2, "discipline": discipline}
    a, b = _both_dispatched({**cluster, "pool_limit": 3, "accept_queue": 2}, dispatch)
    assert a.completed > 300 and a.rejected > 0
    assert_same(a, b)


@pytest.mark.parametrize("policy", _POLICIES)
def test_one_tier_chain_dispatches_as_the_kernel_did_under_autoscaling(policy: str) -> None:
    """VMs boot (weights and last dispatch times start afresh) and drain under every policy."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": exp(0.4)}
    dispatch = Dispatch(policy=policy, weights=[3.0, 1.0])
    a, b = _both_dispatched(cluster, dispatch, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    assert_same(a, b)


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "cluster",
    [
        {"vms": FIXED, "cores": 2, "pool_limit": 3, "accept_queue": 2},
        {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0},
    ],
    ids=["pool", "autoscaling"],
)
def test_one_tier_chain_traces_as_the_kernel_did(discipline: str, cluster: dict[str, Any]) -> None:
    """Every completed request's row (arrival, service start after any queueing, end,
    demand, VM, page arrival, class) is the same, in the same order."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": exp(0.4)}
    single, tiered = docs({**cluster, "discipline": discipline}, workload=workload,
                           autoscaling=autoscaling)  # fmt: skip
    a = run_single(single, trace=True)
    b = run_chain(tiered, trace=True)
    assert_same(a, b)
    assert a.trace is not None and b.trace is not None
    assert len(a.trace.end_s) == a.completed > 1000
    if discipline == "fcfs" or "pool_limit" in cluster:
        assert np.any(a.trace.start_s > a.trace.arrival_s)  # some requests queued
    for name in ("arrival_s", "start_s", "end_s", "demand_s", "vm", "page_arrival_s", "klass"):
        np.testing.assert_array_equal(getattr(a.trace, name), getattr(b.trace, name), name)


def test_tiers_take_a_dispatch_policy_each() -> None:
    """Two tiers, each with its own policy: every request is accounted for, and the
    policies change the run (least connections, the document's, gives another)."""
    doc = {
        "duration_s": 300.0,
        "seed": 3,
        "workload": {"arrivals": {"rate_per_s": 8.0}, "service_s": exp(0.3)},
        "cluster": {
            "tiers": [
                {"name": "web", "vms": FIXED, "cores": 1, "pool_limit": 4},
                {"name": "db", "vms": FIXED, "cores": 2, "discipline": "fcfs"},
            ]
        },
    }
    s = load_scenario(doc)
    policies = [Dispatch(policy="random"), Dispatch(policy="weighted_round_robin", weights=[1, 4])]
    mixed = TieredSimulation(s, {}, s.seed, dispatch=policies).run()
    default = Simulation(s).run()
    assert mixed.requests == default.requests
    assert mixed.completed + mixed.rejected + mixed.in_system_at_end == mixed.requests
    assert mixed.events != default.events or mixed.latency.mean_s != default.latency.mean_s


def test_one_tier_chain_stays_with_the_kernels_figures_deep_in_overload() -> None:
    """Two classes, a rising profile and scale-outs deep in overload (over 2,000 requests
    per VM under PS): the same trace rows. Where the dispatchers' first scans start apart
    the VMs are the single-tier run's relabelled, interchangeable only until a scale-out adds an
    idle VM; then the two runs part (some seconds after the first scale-out)."""
    workload = {
        "arrivals": {"profile": [[0, 20.0], [200, 140.0], [400, 30.0]]},
        "classes": [
            {"name": "browse", "share": 0.8, "service_s": exp(0.4)},
            {"name": "buy", "share": 0.2, "service_s": exp(1.2)},
        ],
    }
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 0.0}
    single, tiered = docs(cluster, workload=workload, autoscaling=autoscaling)
    a = run_single(single, trace=True)
    b = run_chain(tiered, trace=True)
    assert a.actions[0].to_vms > a.actions[0].from_vms
    assert a.series.in_system.max() > 2000 * a.vms.max_allocated
    assert_same(a, b)
    assert a.trace is not None and b.trace is not None
    np.testing.assert_array_equal(a.trace.end_s, b.trace.end_s)
    np.testing.assert_array_equal(a.trace.vm, b.trace.vm)
    s = load_scenario(tiered)
    apart = TieredSimulation(s, {}, s.seed, trace=True).run()
    assert apart.trace is not None and apart.completed != a.completed
    n = min(a.completed, apart.completed)
    first_apart = np.flatnonzero(apart.trace.end_s[:n] != a.trace.end_s[:n])[0]
    assert a.trace.end_s[first_apart] > a.actions[0].t_s


def test_one_tier_chain_draws_a_mixture_as_the_kernel_did_under_autoscaling() -> None:
    """Many segments (decision periods), each topping up the demands by its arrivals."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": MIXED}
    a, b = both(cluster, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    assert_same(a, b)
