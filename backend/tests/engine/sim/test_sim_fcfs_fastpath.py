"""The FCFS fast path (kernel/fcfs.py) against the general event loop (the tier loop,
which runs a single-tier cluster as the chain of one tier).

Both simulate the same queue from the same draws, so every count, series and sketch
must be identical; sums of latencies may differ by float rounding only (the loop
advances a virtual clock, the fast path adds a demand to a start time), hence the
1e-9 relative tolerance on means and times.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom.engine.sim import Simulation, SimulationResult, load_scenario
from headroom.engine.sim.kernel.fcfs import applies

COUNTS = ("requests", "completed", "rejected", "in_system_at_end", "events")
INT_SERIES = ("allocated_vms", "active_vms", "waiting", "in_system")
RATE_SERIES = ("arrivals_per_s", "completions_per_s", "rejected_per_s")


def both(doc: dict[str, Any]) -> tuple[SimulationResult, SimulationResult]:
    scenario = load_scenario(doc)
    assert applies(scenario)
    fast = Simulation(scenario, trace=True).run()
    return fast, Simulation(scenario, trace=True, fast_paths=False).run()


def assert_same(a: SimulationResult, b: SimulationResult) -> None:
    assert [getattr(a, f) for f in COUNTS] == [getattr(b, f) for f in COUNTS]
    for name in INT_SERIES + RATE_SERIES:
        assert np.array_equal(getattr(a.series, name), getattr(b.series, name)), name
    assert np.allclose(a.series.utilization, b.series.utilization, rtol=0, atol=1e-6)
    assert np.array_equal(
        a.series.window_p95_latency_s, b.series.window_p95_latency_s, equal_nan=True
    )
    for ca, cb in zip(a.classes, b.classes, strict=True):
        assert np.array_equal(ca.latency_counts, cb.latency_counts)
        assert np.isclose(ca.latency.mean_s, cb.latency.mean_s, rtol=1e-9, equal_nan=True)
    assert np.isclose(a.little.mean_in_system, b.little.mean_in_system, rtol=1e-9)
    assert a.trace is not None and b.trace is not None
    oa, ob = np.argsort(a.trace.arrival_s, kind="stable"), np.argsort(b.trace.arrival_s)
    for name in ("arrival_s", "start_s", "end_s", "demand_s"):
        x, y = getattr(a.trace, name)[oa], getattr(b.trace, name)[ob]
        assert np.allclose(x, y, rtol=1e-9, atol=1e-9), name
    assert np.array_equal(a.trace.klass[oa], b.trace.klass[ob])


def queue(cores: int, rate: float, service: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "duration_s": extra.pop("duration_s", 200.3),
        "seed": extra.pop("seed", 3),
        "workload": {"arrivals": {"rate_per_s": rate}, "service_s": service},
        "cluster": {"cores": cores, "discipline": "fcfs", **extra.pop("cluster", {})},
        "autoscaling": {"policy": "none", "monitor_s": 0.37, "step_s": 45.0},
        "sla": {"threshold_s": 2.0, "window_s": 7.0},
        **extra,
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cores=st.integers(1, 6),
    load=st.floats(0.3, 1.2),
    service=st.sampled_from(
        [
            {"dist": "exponential", "mean": 0.5},
            {"dist": "lognormal", "mu": -1.0, "sigma": 1.2},
            {"dist": "uniform", "low": 0.1, "high": 0.9},
        ]
    ),
    speed=st.sampled_from([0.5, 1.0, 3.0]),
    seed=st.integers(0, 2**16),
)
def test_fast_path_matches_the_event_loop(
    cores: int, load: float, service: dict[str, Any], speed: float, seed: int
) -> None:
    # Loads above 1 leave a growing queue (and requests inside at the horizon).
    rate = load * cores * speed / 0.5
    doc = queue(cores, rate, service, seed=seed, cluster={"speed": speed})
    assert_same(*both(doc))


def test_ties_and_tick_boundaries_follow_the_event_loop() -> None:
    # Constant 1 s services and arrivals on whole seconds: departures coincide with
    # arrivals and with the 0.5 s ticks, where the order of events decides every count.
    doc = queue(2, 1.0, {"dist": "constant", "value": 1.0}, duration_s=6.0)
    doc["workload"]["arrivals"] = {"times_s": [0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 5.5]}
    doc["autoscaling"]["monitor_s"] = 0.5
    fast, general = both(doc)
    assert_same(fast, general)
    assert fast.trace is not None
    order = np.argsort(fast.trace.arrival_s, kind="stable")
    assert np.allclose(fast.trace.start_s[order], [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    assert fast.in_system_at_end == 1
    assert fast.series.waiting[np.searchsorted(fast.series.t_s, 3.5)] == 2


def test_several_classes_share_the_queue() -> None:
    doc = queue(3, 0.0, {"dist": "constant", "value": 0.0})
    doc["workload"] = {
        "classes": [
            {"name": "fast", "arrivals": {"rate_per_s": 4.0},
             "service_s": {"dist": "exponential", "mean": 0.2}},
            {"name": "slow", "arrivals": {"rate_per_s": 1.0},
             "service_s": {"dist": "uniform", "low": 1.0, "high": 2.0}},
        ]
    }  # fmt: skip
    assert_same(*both(doc))


def test_only_plain_fcfs_queues_take_the_fast_path() -> None:
    base = queue(2, 1.0, {"dist": "exponential", "mean": 1.0})
    assert applies(load_scenario(base))
    changes: list[dict[str, Any]] = [
        {"cluster": {"cores": 2, "discipline": "ps"}},
        {"cluster": {"cores": 2, "discipline": "fcfs", "pool_limit": 3}},
        {"cluster": {"cores": 2, "discipline": "fcfs", "accept_queue": 3}},
        {"cluster": {"discipline": "fcfs", "overhead": {"q_upper": 1, "factor": 0.9}}},
        {"cluster": {"discipline": "fcfs", "vms": {"min": 1, "max": 2, "start": 1}}},
        {"autoscaling": {"policy": "threshold"}},
    ]
    for change in changes:
        assert not applies(load_scenario({**base, **change})), change
    paged = {
        **base,
        "workload": {
            **base["workload"],
            "page": {
                "objects": {"dist": "constant", "value": 2},
                "gap_s": {"dist": "constant", "value": 0.1},
            },
        },
    }
    assert not applies(load_scenario(paged))
