"""A single-tier cluster is the one-tier case of the multi-tier model: on the features both
loops have (processor sharing or FCFS, pool limit and accept queue, overhead, least
connections dispatch, autoscaling of the one tier, request classes), the tier
loop (tiers/loop.py) given the cluster as a one-tier chain reproduces the single-tier
kernel (kernel/core.py) draw for draw: same seed, same events, counts, quantiles and
series (means up to the order of their sums).

The kernel runs its general loop (fast_paths=False), so the FCFS fast path is not what
is compared here (test_sim_fcfs_fastpath.py compares it with the general loop).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation
from headroom.engine.sim.results import SimulationResult


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
    # Counts and quantiles are equal; means may differ in the last bits (the tiered
    # results sum latencies in another order and average VM counts from float32 series).
    x, y = _shared_summary(a), _shared_summary(b)
    assert x.keys() == y.keys()
    for k, v in y.items():
        assert x[k] == (pytest.approx(v, rel=1e-7, abs=0) if isinstance(v, float) else v), k
    assert (a.actions, a.events) == (b.actions, b.events)
    assert a.little.mean_in_system == b.little.mean_in_system
    assert a.little.mean_time_in_system_s == pytest.approx(
        b.little.mean_time_in_system_s, rel=1e-12
    )
    for ca, cb in zip(a.classes, b.classes, strict=True):
        np.testing.assert_array_equal(ca.latency_counts, cb.latency_counts)
    for name in ("allocated_vms", "active_vms", "arrivals_per_s", "completions_per_s"):
        np.testing.assert_array_equal(getattr(a.series, name), getattr(b.series, name))
    for name in ("rejected_per_s", "in_system", "utilization"):
        np.testing.assert_array_equal(getattr(a.series, name), getattr(b.series, name))


def _both(cluster: dict[str, Any], **extra: Any) -> tuple[SimulationResult, SimulationResult]:
    single, tiered = _docs(cluster, **extra)
    return Simulation(single, fast_paths=False).run(), Simulation(tiered).run()


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
