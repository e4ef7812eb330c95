"""What the single-tier tests share (test_sim_one_tier.py, test_sim_one_tier_stages.py):
the single-tier run checked against the kernel's frozen figures, the same cluster as a
hand-written one-tier chain, and the comparison of the two."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from headroom.engine.sim import Simulation, load_scenario
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.tiers.runner import TieredSimulation

FROZEN = Path(__file__).with_name("one_tier_frozen.json")


def _test_name() -> str:
    """The running test's name, with its parameters (the key of its frozen figures)."""
    return os.environ["PYTEST_CURRENT_TEST"].split("::")[-1].rsplit(" ", 1)[0]


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


def run_single(scenario: Any, **options: Any) -> SimulationResult:
    """A single-tier run on the loop; its figures as the kernel's (frozen)."""
    r = Simulation(scenario, fast_paths=False, **options).run()
    assert _figures(r) == _frozen()[_test_name()]
    return r


def exp(mean: float) -> dict[str, Any]:
    return {"dist": "exponential", "mean": mean}


def docs(cluster: dict[str, Any], **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The same scenario with a single-tier cluster and with it as a one-tier chain."""
    base = {
        "duration_s": 600.0,
        "seed": 11,
        "workload": {"arrivals": {"rate_per_s": 9.0}, "service_s": exp(0.5)},
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


def assert_same(a: SimulationResult, b: SimulationResult) -> None:
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


def run_chain(doc: dict[str, Any], trace: bool = False, **options: Any) -> SimulationResult:
    """The one-tier chain through the tier runner, its dispatcher's first scan starting
    where a single-tier run's does (so each request goes to the same VM row)."""
    s = load_scenario(doc)
    return TieredSimulation(s, {}, s.seed, trace=trace, dispatch_start=1, **options).run()


def both(cluster: dict[str, Any], **extra: Any) -> tuple[SimulationResult, SimulationResult]:
    single, tiered = docs(cluster, **extra)
    return run_single(single), run_chain(tiered)


FIXED = {"min": 3, "max": 3, "start": 3}


def chain_of(doc: dict[str, Any]) -> dict[str, Any]:
    """A single-tier document as a one-tier chain, less what a chain's document refuses
    (the dispatch policy and the admission stage go to the runner instead)."""
    out = {k: v for k, v in doc.items() if k not in ("cluster", "dispatch", "admission")}
    return {**out, "cluster": {"tiers": [{"name": "web", **doc["cluster"]}]}}


def staged(doc: dict[str, Any]) -> tuple[SimulationResult, SimulationResult]:
    """The single-tier run and the chain on a single-tier document with an admission
    stage."""
    s = load_scenario(doc)
    a = run_single(s)
    return a, run_chain(chain_of(doc), dispatch=[s.dispatch], admission=s.admission)


def assert_same_admission(a: SimulationResult, b: SimulationResult) -> None:
    assert_same(a, b)
    assert a.admission == b.admission
    for ca, cb in zip(a.classes, b.classes, strict=True):
        assert (ca.name, ca.arrived, ca.rejected) == (cb.name, cb.arrived, cb.rejected)
    if a.admission_series is not None:
        assert b.admission_series is not None
        assert a.admission_series.keys() == b.admission_series.keys()
        for name, values in a.admission_series.items():
            np.testing.assert_array_equal(values, b.admission_series[name], name)


STAGES = ["switch_adm", "static_part", "dynamic_part"]


def two_users(policy: str) -> dict[str, Any]:
    """Ten one-core PS VMs offered 1.2x their capacity, a fifth of it top users
    (test_sim_partitions.py's overload case, shortened)."""
    service = exp(0.1)
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


def page_spec(push: float = 0.0, early_hints: bool = False) -> dict[str, Any]:
    return {
        "objects": {"dist": "uniform", "low": 0, "high": 12},
        "gap_s": {"dist": "exponential", "mean": 0.3},
        "push_fraction": push,
        "early_hints": early_hints,
    }


def paged(doc: dict[str, Any], trace: bool = False) -> tuple[SimulationResult, SimulationResult]:
    """The single-tier run and the chain on a single-tier document with pages. The document
    keeps pages off chains, so the chain takes the loaded scenario's workload."""
    s = load_scenario(doc)
    plain = {"arrivals": {"rate_per_s": 1.0}, "service_s": exp(0.1)}
    chain = load_scenario(chain_of({**doc, "workload": plain}))
    chain = chain.model_copy(update={"workload": s.workload})
    a = run_single(s, trace=trace)
    b = TieredSimulation(chain, {}, chain.seed, dispatch=[s.dispatch], trace=trace,
                         dispatch_start=1, admission=s.admission).run()  # fmt: skip
    assert a.pages > 500 and a.plt is not None
    assert_same_admission(a, b)
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


def page_doc(page: dict[str, Any], cluster: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "duration_s": 400.0,
        "seed": 7,
        "workload": {"arrivals": {"rate_per_s": 3.0}, "page": page, "service_s": exp(0.1)},
        "cluster": cluster,
        "autoscaling": {"policy": "none"},
        **extra,
    }


BOUNDED = {"vms": FIXED, "cores": 1, "pool_limit": 2, "accept_queue": 1}


# A mixture draws other values when the same number of draws is split otherwise: the
# pools must be topped up by what each segment drew, as the single-tier runs were.
MIXED = {
    "dist": "mixture",
    "parts": [[0.6, {"dist": "uniform", "low": 0.01, "high": 0.05}], [0.4, exp(0.9)]],
}
