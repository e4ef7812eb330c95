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

import dataclasses
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.scenario import Dispatch
from headroom.engine.sim.tiers.runner import TieredSimulation
from headroom.simulations import class_presets

FROZEN = Path(__file__).with_name("one_tier_frozen.json")
_CASE: list[str] = [""]


@pytest.fixture(autouse=True)
def _case_name(request: pytest.FixtureRequest) -> None:
    _CASE[0] = request.node.name


@cache
def _frozen() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(FROZEN.read_text())
    return found


def _hash(h: Any, x: Any) -> None:
    """Feed a result's values (not their types) to the hash ``h``."""
    if isinstance(x, np.ndarray):
        h.update(np.ascontiguousarray(x, dtype=np.float64).tobytes())
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _hash(h, getattr(x, f.name))
    elif isinstance(x, dict):
        for k in sorted(x):
            h.update(str(k).encode())
            _hash(h, x[k])
    elif isinstance(x, list | tuple):
        for v in x:
            _hash(h, v)
    elif isinstance(x, bool | int | float | np.number):
        h.update(repr(float(x)).encode())
    else:
        h.update(repr(x).encode())


_NOT_HASHED = ("scenario", "wall_s", "engine_version", "tiers", "tier_series")


def _figures(r: SimulationResult) -> dict[str, Any]:
    """A few figures to read, and a hash of every value the result holds (series, trace,
    sketches, boxes, admission) but its wall time, scenario and version."""
    h = hashlib.sha256()
    for f in dataclasses.fields(r):
        if f.name not in _NOT_HASHED:
            _hash(h, getattr(r, f.name))
    return {
        "requests": r.requests,
        "completed": r.completed,
        "rejected": r.rejected,
        "events": r.events,
        "latency_mean_s": r.latency.mean_s,
        "mean_allocated": r.vms.mean_allocated,
        "sha256": h.hexdigest(),
    }


def _single(scenario: Any, **options: Any) -> SimulationResult:
    """A single-tier run on the loop; its figures as the kernel's (frozen)."""
    r = Simulation(scenario, fast_paths=False, **options).run()
    assert _figures(r) == _frozen()[_CASE[0]]
    return r


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
    where a single-tier run's does (so each request goes to the same VM row)."""
    s = load_scenario(doc)
    return TieredSimulation(s, {}, s.seed, trace=trace, dispatch_start=1, **options).run()


def _both(cluster: dict[str, Any], **extra: Any) -> tuple[SimulationResult, SimulationResult]:
    single, tiered = _docs(cluster, **extra)
    return _single(single), _tiered(tiered)


FIXED = {"min": 3, "max": 3, "start": 3}


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "limits",
    [{}, {"pool_limit": 3, "accept_queue": 2}, {"overhead": {"q_upper": 3, "factor": 0.9}}],
    ids=["plain", "pool", "overhead"],
)
def test_one_tier_chain_reproduces_the_kernels_figures(
    discipline: str, limits: dict[str, Any]
) -> None:
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
def test_one_tier_chain_reproduces_the_kernels_figures_under_autoscaling(
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
    """The single-tier run with ``dispatch`` and the chain with it at its one tier."""
    single, tiered = _docs(cluster, **extra)
    a = _single({**single, "dispatch": dispatch.model_dump()})
    return a, _tiered(tiered, dispatch=[dispatch])


@pytest.mark.parametrize("policy", _POLICIES)
@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
def test_one_tier_chain_dispatches_as_the_kernel_did(policy: str, discipline: str) -> None:
    """Every policy over a fixed cluster of unequal weights, with a bounded pool and queue."""
    dispatch = Dispatch(policy=policy, weights=[1.0, 2.0, 3.0])
    cluster = {"vms": FIXED, "cores": 2, "discipline": discipline}
    a, b = _both_dispatched({**cluster, "pool_limit": 3, "accept_queue": 2}, dispatch)
    assert a.completed > 300 and a.rejected > 0
    _assert_same(a, b)


@pytest.mark.parametrize("policy", _POLICIES)
def test_one_tier_chain_dispatches_as_the_kernel_did_under_autoscaling(policy: str) -> None:
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
def test_one_tier_chain_traces_as_the_kernel_did(discipline: str, cluster: dict[str, Any]) -> None:
    """Every completed request's row (arrival, service start after any queueing, end,
    demand, VM, page arrival, class) is the same, in the same order."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": _exp(0.4)}
    single, tiered = _docs({**cluster, "discipline": discipline}, workload=workload,
                           autoscaling=autoscaling)  # fmt: skip
    a = _single(single, trace=True)
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
    """The single-tier run and the chain on a single-tier document with an admission
    stage."""
    s = load_scenario(doc)
    a = _single(s)
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
def test_one_tier_chain_admits_as_the_kernel_did(policy: str) -> None:
    """Each class-aware stage refuses the same requests, dispatches within the same
    partition sets and (DynamicPart) moves the same VMs between them at the same times."""
    a, b = _staged(_two_users(policy))
    assert a.rejected > 100 and a.completed > 10_000
    _assert_same_admission(a, b)
    if policy == "dynamic_part":
        assert a.admission_series is not None and len(set(a.admission_series["k"])) > 1


@pytest.mark.parametrize("policy", _STAGES)
def test_one_tier_chain_runs_the_class_preset_as_the_kernel_did(policy: str) -> None:
    """The four-class preset (static and dynamic, top and normal; weighted round robin)
    at 300 req/s, 1.4x its capacity, under each stage."""
    doc = class_presets.class_policies()
    doc["workload"]["arrivals"] = {"rate_per_s": 300.0}
    doc = {**doc, "duration_s": 120, "admission": class_presets.admission_for(policy)}
    a, b = _staged(doc)
    assert a.rejected > 100
    _assert_same_admission(a, b)


def test_one_tier_chain_stays_with_the_kernels_figures_deep_in_overload() -> None:
    """Two classes, a rising profile and scale-outs deep in overload (over 2,000 requests
    per VM under PS): the same trace rows. Where the dispatchers' first scans start apart
    the VMs are the single-tier run's relabelled, interchangeable only until a scale-out adds an
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
    a = _single(single, trace=True)
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


def test_one_tier_chain_queues_as_the_kernel_did_while_discovering() -> None:
    """The virtual-queue preset (one 4-core server, overload, then a burst of 6x its
    capacity), its capacity discovered online from the loop's counters every epoch."""
    a, b = _staged(class_presets.with_virtual_queue(class_presets.virtual_queue()))
    assert a.admission is not None and a.admission["converged_at_s"] is not None
    assert a.admission["wait_s"]["max"] > 5
    _assert_same_admission(a, b)


def test_one_tier_chain_queues_as_the_kernel_did_at_a_fixed_capacity() -> None:
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
    """The single-tier run and the chain on a single-tier document with pages. The document
    keeps pages off chains, so the chain takes the loaded scenario's workload."""
    s = load_scenario(doc)
    plain = {"arrivals": {"rate_per_s": 1.0}, "service_s": _exp(0.1)}
    chain = load_scenario(_chain_of({**doc, "workload": plain}))
    chain = chain.model_copy(update={"workload": s.workload})
    a = _single(s, trace=trace)
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
def test_one_tier_chain_loads_pages_as_the_kernel_did(
    page: dict[str, Any], discipline: str
) -> None:
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
def test_one_tier_chain_loads_pages_as_the_kernel_did_under_autoscaling(per: str) -> None:
    """Scale-outs and drains (a draining VM stays while pages stick to it)."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    doc = _page_doc(_page(push=0.3), cluster, autoscaling=autoscaling,
                    dispatch={"policy": "least_connections", "per": per})  # fmt: skip
    doc["workload"]["arrivals"] = {"profile": [[0, 1.0], [150, 5.0], [300, 1.0]]}
    a, _ = _paged(doc, trace=True)
    assert any(x.to_vms < x.from_vms for x in a.actions)
    assert any(x.to_vms > x.from_vms for x in a.actions)


def test_one_tier_chain_loads_pages_of_some_classes_as_the_kernel_did() -> None:
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
def test_one_tier_chain_admits_pages_as_the_kernel_did(policy: str, per: str) -> None:
    """Each class-aware stage decides on a page's base request; its other requests follow
    it, or (request by request) stay within its class's partition set."""
    doc = _two_users(policy)
    for k in doc["workload"]["classes"]:
        k["page"] = _page(push=0.3)
    doc["workload"]["arrivals"] = {"rate_per_s": 20.0}
    doc["dispatch"] = {"policy": "least_connections", "per": per}
    a, _ = _paged(doc)
    assert a.rejected > 100


# A mixture draws other values when the same number of draws is split otherwise: the
# pools must be topped up by what each segment drew, as the single-tier runs were.
_MIXED = {
    "dist": "mixture",
    "parts": [[0.6, {"dist": "uniform", "low": 0.01, "high": 0.05}], [0.4, _exp(0.9)]],
}


def test_one_tier_chain_draws_a_mixture_as_the_kernel_did_under_autoscaling() -> None:
    """Many segments (decision periods), each topping up the demands by its arrivals."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    workload = {"arrivals": _RISE_AND_FALL, "service_s": _MIXED}
    a, b = _both(cluster, workload=workload, autoscaling=autoscaling)
    assert len(a.actions) >= 2
    _assert_same(a, b)


def test_one_tier_chain_draws_mixed_pages_as_the_kernel_did() -> None:
    """Pages whose demands and client gaps are mixtures: the gaps' pool is topped up by
    the objects the client asks for, not by every request."""
    page = {**_page(push=0.3), "gap_s": _MIXED}
    doc = _page_doc(page, {**_BOUNDED, "pool_limit": 4})
    doc["workload"]["service_s"] = _MIXED
    _paged(doc, trace=True)


def test_one_tier_chain_draws_a_mixture_as_the_kernel_did_behind_the_waiting_queue() -> None:
    """The waiting queue holds and drops arrivals: the demands are topped up by the
    arrivals drawn, and read by those released."""
    doc = _two_users("none")
    for k in doc["workload"]["classes"]:
        k["service_s"] = _MIXED
    doc["admission"] = {"policy": "virtual_queue", "capacity": 90.0, "max_wait_s": 20}
    a, b = _staged(doc)
    assert a.admission is not None and a.admission["dropped"] > 100
    _assert_same_admission(a, b)
