"""A single-tier cluster is the one-tier case of the multi-tier model: on the features both
loops have (processor sharing or FCFS, pool limit and accept queue, overhead, every
dispatch policy, autoscaling of the one tier, request classes, per-request traces, the
class-aware admission stages, the virtual waiting queue, pages: client chains, server
push, Early Hints, sticky or per-request dispatch), the tier loop (tiers/loop.py)
given the cluster as a one-tier chain reproduces the single-tier kernel (kernel/core.py)
draw for draw: same seed, same events, counts, quantiles, means and series, the same
trace rows and admission figures.

The scenario document lets tiers dispatch by least connections only and gives them no
admission stage, so the other policies and the stages reach the tier loop through the
runner's per-tier ``dispatch`` and its ``admission``; the runner starts its
dispatcher's first scan where the kernel's does (``dispatch_start=1``), so each request
goes to the same VM row.

The kernel runs its general loop (fast_paths=False), so the FCFS fast path is not what
is compared here (test_sim_fcfs_fastpath.py compares it with the general loop).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.scenario import Dispatch
from headroom.engine.sim.tiers.runner import TieredSimulation
from headroom.simulations import class_presets


def _exp(mean: float) -> dict[str, Any]:
    return {"dist": "exponential", "mean": mean}


def _docs(cluster: dict[str, Any], **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The same scenario with a single-tier cluster and with it as a one-tier chain."""
    base = {
        "duration_s": 600.0,
        "seed": 11,
        "workload": {"arrivals": {"rate_per_s": 9.0}, "service_s": _exp(0.5)},
        "autoscaling": {"policy": "none"},
        **extra,
    }
    return {**base, "cluster": cluster}, {
        **base,
        "cluster": {"tiers": [{"name": "web", **cluster}]},
    }


def _flat(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        out.update(_flat(v, f"{prefix}{k}.") if isinstance(v, dict) else {f"{prefix}{k}": v})
    return out


def _shared_summary(r: SimulationResult) -> dict[str, Any]:
    """The flattened summary less wall time, the per-tier figures and absent values."""
    flat = _flat(r.summary()).items()
    return {k: v for k, v in flat if v is not None and k != "wall_s" and k[:5] != "tiers"}


def _assert_same(a: SimulationResult, b: SimulationResult) -> None:
    """Everything both loops report the same way is equal (tiered runs add per-tier figures)."""
    x, y = _shared_summary(a), _shared_summary(b)
    assert x.keys() == y.keys()
    for k, v in y.items():
        assert x[k] == v, k
    assert (a.actions, a.events, a.little) == (b.actions, b.events, b.little)
    for ca, cb in zip(a.classes, b.classes, strict=True):
        np.testing.assert_array_equal(ca.latency_counts, cb.latency_counts)
    for name in ("allocated_vms", "active_vms", "arrivals_per_s", "completions_per_s"):
        np.testing.assert_array_equal(getattr(a.series, name), getattr(b.series, name))
    for name in ("rejected_per_s", "in_system", "utilization", "waiting"):
        np.testing.assert_array_equal(getattr(a.series, name), getattr(b.series, name))


def _tiered(doc: dict[str, Any], trace: bool = False, **options: Any) -> SimulationResult:
    """The one-tier chain through the tier runner, its dispatcher's first scan starting
    where the kernel's does (so each request goes to the same VM row)."""
    s = load_scenario(doc)
    return TieredSimulation(s, {}, s.seed, trace=trace, dispatch_start=1, **options).run()


def _both(cluster: dict[str, Any], **extra: Any) -> tuple[SimulationResult, SimulationResult]:
    single, tiered = _docs(cluster, **extra)
    return Simulation(single, fast_paths=False).run(), _tiered(tiered)


FIXED = {"min": 3, "max": 3, "start": 3}


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "limits",
    [{}, {"pool_limit": 3, "accept_queue": 2}, {"overhead": {"q_upper": 3, "factor": 0.9}}],
    ids=["plain", "pool", "overhead"],
)
def test_one_tier_chain_reproduces_the_kernel(discipline: str, limits: dict[str, Any]) -> None:
    a, b = _both({"vms": FIXED, "cores": 2, "discipline": discipline, **limits})
    assert a.completed > 300
    if limits.get("pool_limit"):
        assert a.rejected > 0  # the accept queue's bound is exercised
    _assert_same(a, b)
    assert b.tiers is not None and b.tiers["web"]["vms"]["vm_hours"] == a.vms.vm_hours


_RISE_AND_FALL = {"profile": [[0, 2.0], [200, 14.0], [400, 3.0]]}
_TWO_CLASSES = {
    "classes": [
        {"name": "browse", "arrivals": {"rate_per_s": 6.0}, "service_s": _exp(0.4)},
        {"name": "buy", "arrivals": {"rate_per_s": 1.0}, "service_s": _exp(1.2)},
    ]
}


@pytest.mark.parametrize(
    ("workload", "start", "boot_s"),
    [({"arrivals": _RISE_AND_FALL, "service_s": _exp(0.4)}, 2, 15.0), (_TWO_CLASSES, 1, 0.0)],
    ids=["rise-and-fall", "two-classes"],
)
def test_one_tier_chain_reproduces_the_kernel_under_autoscaling(
    workload: dict[str, Any], start: int, boot_s: float
) -> None:
    """Threshold autoscaling boots (with or without a boot delay) and drains VMs."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": start}, "cores": 2, "boot_s": boot_s}
    a, b = _both(cluster, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    _assert_same(a, b)


_POLICIES = ["round_robin", "weighted_round_robin", "least_connections", "lru", "random"]


def _both_dispatched(
    cluster: dict[str, Any], dispatch: Dispatch, **extra: Any
) -> tuple[SimulationResult, SimulationResult]:
    """The kernel with ``dispatch`` and the tier loop with it at its one tier."""
    single, tiered = _docs(cluster, **extra)
    a = Simulation({**single, "dispatch": dispatch.model_dump()}, fast_paths=False).run()
    return a, _tiered(tiered, dispatch=[dispatch])


@pytest.mark.parametrize("policy", _POLICIES)
@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
def test_one_tier_chain_dispatches_like_the_kernel(policy: str, discipline: str) -> None:
    """Every policy over a fixed cluster of unequal weights, with a bounded pool and queue."""
    dispatch = Dispatch(policy=policy, weights=[1.0, 2.0, 3.0])
    cluster = {"vms": FIXED, "cores": 2, "discipline": discipline}
    a, b = _both_dispatched({**cluster, "pool_limit": 3, "accept_queue": 2}, dispatch)
    assert a.completed > 300 and a.rejected > 0
    _assert_same(a, b)


@pytest.mark.parametrize("policy", _POLICIES)
def test_one_tier_chain_dispatches_like_the_kernel_under_autoscaling(policy: str) -> None:
    """VMs boot (weights and last dispatch times start afresh) and drain under every policy."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": _exp(0.4)}
    dispatch = Dispatch(policy=policy, weights=[3.0, 1.0])
    a, b = _both_dispatched(cluster, dispatch, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    _assert_same(a, b)


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "cluster",
    [
        {"vms": FIXED, "cores": 2, "pool_limit": 3, "accept_queue": 2},
        {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0},
    ],
    ids=["pool", "autoscaling"],
)
def test_one_tier_chain_traces_like_the_kernel(discipline: str, cluster: dict[str, Any]) -> None:
    """Every completed request's row (arrival, service start after any queueing, end,
    demand, VM, page arrival, class) is the same, in the same order."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": _exp(0.4)}
    single, tiered = _docs({**cluster, "discipline": discipline}, workload=workload,
                           autoscaling=autoscaling)  # fmt: skip
    a = Simulation(single, trace=True, fast_paths=False).run()
    b = _tiered(tiered, trace=True)
    _assert_same(a, b)
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
        "workload": {"arrivals": {"rate_per_s": 8.0}, "service_s": _exp(0.3)},
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


def _chain_of(doc: dict[str, Any]) -> dict[str, Any]:
    """A single-tier document as a one-tier chain, less what a chain's document refuses
    (the dispatch policy and the admission stage go to the runner instead)."""
    out = {k: v for k, v in doc.items() if k not in ("cluster", "dispatch", "admission")}
    return {**out, "cluster": {"tiers": [{"name": "web", **doc["cluster"]}]}}


def _staged(doc: dict[str, Any]) -> tuple[SimulationResult, SimulationResult]:
    """The kernel and the tier loop on a single-tier document with an admission stage."""
    s = load_scenario(doc)
    a = Simulation(s, fast_paths=False).run()
    return a, _tiered(_chain_of(doc), dispatch=[s.dispatch], admission=s.admission)


def _assert_same_admission(a: SimulationResult, b: SimulationResult) -> None:
    _assert_same(a, b)
    assert a.admission == b.admission
    for ca, cb in zip(a.classes, b.classes, strict=True):
        assert (ca.name, ca.arrived, ca.rejected) == (cb.name, cb.arrived, cb.rejected)
    if a.admission_series is not None:
        assert b.admission_series is not None
        assert a.admission_series.keys() == b.admission_series.keys()
        for name, values in a.admission_series.items():
            np.testing.assert_array_equal(values, b.admission_series[name], name)


_STAGES = ["switch_adm", "static_part", "dynamic_part"]


def _two_users(policy: str) -> dict[str, Any]:
    """Ten one-core PS VMs offered 1.2x their capacity, a fifth of it top users
    (test_sim_partitions.py's overload case, shortened)."""
    service = _exp(0.1)
    return {
        "duration_s": 200.0,
        "seed": 3,
        "workload": {
            "arrivals": {"rate_per_s": 120.0},
            "classes": [
                {"name": "top", "share": 0.2, "user": "top", "service_s": service},
                {"name": "normal", "share": 0.8, "service_s": service},
            ],
        },
        "cluster": {"vms": {"min": 1, "max": 10, "start": 10}, "boot_s": 0},
        "autoscaling": {"policy": "none"},
        "admission": {"policy": policy, "maxconn_sla": 8, "maxconn": 16, "period_s": 5.0},
        "sla": {"threshold_s": 5.0},
    }


@pytest.mark.parametrize("policy", _STAGES)
def test_one_tier_chain_admits_like_the_kernel(policy: str) -> None:
    """Each class-aware stage refuses the same requests, dispatches within the same
    partition sets and (DynamicPart) moves the same VMs between them at the same times."""
    a, b = _staged(_two_users(policy))
    assert a.rejected > 100 and a.completed > 10_000
    _assert_same_admission(a, b)
    if policy == "dynamic_part":
        assert a.admission_series is not None and len(set(a.admission_series["k"])) > 1


@pytest.mark.parametrize("policy", _STAGES)
def test_one_tier_chain_runs_the_class_preset_like_the_kernel(policy: str) -> None:
    """The four-class preset (static and dynamic, top and normal; weighted round robin)
    at 300 req/s, 1.4x its capacity, under each stage."""
    doc = class_presets.class_policies()
    doc["workload"]["arrivals"] = {"rate_per_s": 300.0}
    doc = {**doc, "duration_s": 120, "admission": class_presets.admission_for(policy)}
    a, b = _staged(doc)
    assert a.rejected > 100
    _assert_same_admission(a, b)


def test_one_tier_chain_stays_with_the_kernel_deep_in_overload() -> None:
    """Two classes, a rising profile and scale-outs deep in overload (over 2,000 requests
    per VM under PS): the same trace rows. Where the dispatchers' first scans start apart
    the VMs are the kernel's relabelled, interchangeable only until a scale-out adds an
    idle VM; then the two runs part (some seconds after the first scale-out)."""
    workload = {
        "arrivals": {"profile": [[0, 20.0], [200, 140.0], [400, 30.0]]},
        "classes": [
            {"name": "browse", "share": 0.8, "service_s": _exp(0.4)},
            {"name": "buy", "share": 0.2, "service_s": _exp(1.2)},
        ],
    }
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 0.0}
    single, tiered = _docs(cluster, workload=workload, autoscaling=autoscaling)
    a = Simulation(single, trace=True, fast_paths=False).run()
    b = _tiered(tiered, trace=True)
    assert a.actions[0].to_vms > a.actions[0].from_vms
    assert a.series.in_system.max() > 2000 * a.vms.max_allocated
    _assert_same(a, b)
    assert a.trace is not None and b.trace is not None
    np.testing.assert_array_equal(a.trace.end_s, b.trace.end_s)
    np.testing.assert_array_equal(a.trace.vm, b.trace.vm)
    s = load_scenario(tiered)
    apart = TieredSimulation(s, {}, s.seed, trace=True).run()
    assert apart.trace is not None and apart.completed != a.completed
    n = min(a.completed, apart.completed)
    first_apart = np.flatnonzero(apart.trace.end_s[:n] != a.trace.end_s[:n])[0]
    assert a.trace.end_s[first_apart] > a.actions[0].t_s


def test_one_tier_chain_queues_like_the_kernel_while_discovering() -> None:
    """The virtual-queue preset (one 4-core server, overload, then a burst of 6x its
    capacity), its capacity discovered online from the loop's counters every epoch."""
    a, b = _staged(class_presets.with_virtual_queue(class_presets.virtual_queue()))
    assert a.admission is not None and a.admission["converged_at_s"] is not None
    assert a.admission["wait_s"]["max"] > 5
    _assert_same_admission(a, b)


def test_one_tier_chain_queues_like_the_kernel_at_a_fixed_capacity() -> None:
    """Two classes of unequal hardness over a fixed capacity the load exceeds: waits up to
    the bound, then drops."""
    doc = _two_users("none")
    doc["admission"] = {
        "policy": "virtual_queue",
        "capacity": 90.0,
        "max_wait_s": 20,
        "hardness": {"top": 2.0},
    }
    a, b = _staged(doc)
    assert a.admission is not None and a.admission["dropped"] > 100
    _assert_same_admission(a, b)


def _page(push: float = 0.0, early_hints: bool = False) -> dict[str, Any]:
    return {
        "objects": {"dist": "uniform", "low": 0, "high": 12},
        "gap_s": {"dist": "exponential", "mean": 0.3},
        "push_fraction": push,
        "early_hints": early_hints,
    }


def _paged(doc: dict[str, Any], trace: bool = False) -> tuple[SimulationResult, SimulationResult]:
    """The kernel and the tier loop on a single-tier document with pages. The document
    keeps pages off chains, so the chain takes the loaded scenario's workload."""
    s = load_scenario(doc)
    plain = {"arrivals": {"rate_per_s": 1.0}, "service_s": _exp(0.1)}
    chain = load_scenario(_chain_of({**doc, "workload": plain}))
    chain = chain.model_copy(update={"workload": s.workload})
    a = Simulation(s, trace=trace, fast_paths=False).run()
    b = TieredSimulation(chain, {}, chain.seed, dispatch=[s.dispatch], trace=trace,
                         dispatch_start=1, admission=s.admission).run()  # fmt: skip
    assert a.pages > 500 and a.plt is not None
    _assert_same_admission(a, b)
    assert (a.pages, a.pages_completed, a.pages_failed) == (b.pages, b.pages_completed,
                                                            b.pages_failed)  # fmt: skip
    assert b.plt is not None
    assert a.plt == b.plt
    for ca, cb in zip(a.classes, b.classes, strict=True):
        assert (ca.plt is None) == (cb.plt is None)
        if ca.plt_counts is not None:
            np.testing.assert_array_equal(ca.plt_counts, cb.plt_counts)
    if trace:
        assert a.trace is not None and b.trace is not None
        for name in ("arrival_s", "start_s", "end_s", "demand_s", "vm", "page_arrival_s"):
            np.testing.assert_array_equal(getattr(a.trace, name), getattr(b.trace, name), name)
    return a, b


def _page_doc(page: dict[str, Any], cluster: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "duration_s": 400.0,
        "seed": 7,
        "workload": {"arrivals": {"rate_per_s": 3.0}, "page": page, "service_s": _exp(0.1)},
        "cluster": cluster,
        "autoscaling": {"policy": "none"},
        **extra,
    }


_BOUNDED = {"vms": FIXED, "cores": 1, "pool_limit": 2, "accept_queue": 1}


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "page",
    [_page(), _page(push=0.5), _page(early_hints=True)],
    ids=["client-chain", "push", "early-hints"],
)
def test_one_tier_chain_loads_pages_like_the_kernel(page: dict[str, Any], discipline: str) -> None:
    """Pages sticking to their base request's VM, over bounded pools that refuse some
    requests (and so fail their pages): the same requests, pages and trace rows."""
    a, _ = _paged(_page_doc(page, {**_BOUNDED, "discipline": discipline}), trace=True)
    assert a.pages_failed > 0 and a.rejected > 0


@pytest.mark.parametrize("policy", ["round_robin", "least_connections", "random"])
@pytest.mark.parametrize(
    "page", [_page(push=0.5), _page(early_hints=True)], ids=["push", "early-hints"]
)
def test_one_tier_chain_dispatches_pages_request_by_request(
    policy: str, page: dict[str, Any]
) -> None:
    dispatch = {"policy": policy, "per": "request"}
    _paged(_page_doc(page, _BOUNDED, dispatch=dispatch), trace=True)


@pytest.mark.parametrize("per", ["page", "request"])
def test_one_tier_chain_loads_pages_like_the_kernel_under_autoscaling(per: str) -> None:
    """Scale-outs and drains (a draining VM stays while pages stick to it)."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    doc = _page_doc(_page(push=0.3), cluster, autoscaling=autoscaling,
                    dispatch={"policy": "least_connections", "per": per})  # fmt: skip
    doc["workload"]["arrivals"] = {"profile": [[0, 1.0], [150, 5.0], [300, 1.0]]}
    a, _ = _paged(doc, trace=True)
    assert any(x.to_vms < x.from_vms for x in a.actions)
    assert any(x.to_vms > x.from_vms for x in a.actions)


def test_one_tier_chain_loads_pages_of_some_classes_like_the_kernel() -> None:
    """Two classes, one loading pages with Early Hints and one of single requests."""
    doc = _page_doc(_page(), _BOUNDED)
    doc["workload"] = {
        "classes": [
            {"name": "page", "arrivals": {"rate_per_s": 2.0}, "page": _page(early_hints=True),
             "service_s": _exp(0.1)},
            {"name": "api", "arrivals": {"rate_per_s": 3.0}, "service_s": _exp(0.2)},
        ]
    }  # fmt: skip
    _paged(doc, trace=True)


@pytest.mark.parametrize("policy", _STAGES)
@pytest.mark.parametrize("per", ["page", "request"])
def test_one_tier_chain_admits_pages_like_the_kernel(policy: str, per: str) -> None:
    """Each class-aware stage decides on a page's base request; its other requests follow
    it, or (request by request) stay within its class's partition set."""
    doc = _two_users(policy)
    for k in doc["workload"]["classes"]:
        k["page"] = _page(push=0.3)
    doc["workload"]["arrivals"] = {"rate_per_s": 20.0}
    doc["dispatch"] = {"policy": "least_connections", "per": per}
    a, _ = _paged(doc)
    assert a.rejected > 100
