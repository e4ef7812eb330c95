"""Closed-form queueing references: M/M/c FCFS (Erlang C), M/M/1-PS, M/M/1/K loss, overhead.

Each estimate is checked against the theory within its own 99% confidence interval from
batch means (30 batches of consecutive customers after a 5% warm-up): batches that long
(>= 10,000 customers, many relaxation times even at 95% load) are close to independent,
so the Student t interval is honest. Seeds are fixed, so every run is deterministic.
M/M/c FCFS runs on the fast path (fcfs.py), which test_sim_fcfs_fastpath.py checks
against the general event loop (the tier loop).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

from headroom.engine.sim import Simulation, load_scenario

BATCHES = 30


def erlang_c(c: int, a: float) -> float:
    """Probability an arrival waits in M/M/c with offered load a = lambda / mu."""
    terms = sum(a**k / math.factorial(k) for k in range(c))
    top = a**c / math.factorial(c) * c / (c - a)
    return top / (terms + top)


def batch_ci(x: np.ndarray) -> tuple[float, float]:
    """Mean and 99% half-width from batch means."""
    x = x[len(x) // 20 :]
    means = np.array([b.mean() for b in np.array_split(x, BATCHES)])
    half = stats.t.ppf(0.995, BATCHES - 1) * means.std(ddof=1) / math.sqrt(BATCHES)
    return float(means.mean()), float(half)


def queue(rate: float, service: dict[str, Any], cluster: dict[str, Any], n: int) -> Any:
    scenario = load_scenario(
        {
            "duration_s": n / rate,
            "seed": 11,
            "workload": {"arrivals": {"rate_per_s": rate}, "service_s": service},
            "cluster": {"vms": {"min": 1, "max": 1, "start": 1}, **cluster},
            "autoscaling": {"policy": "none", "monitor_s": 100 / rate, "step_s": n / rate / 4},
        }
    )
    return Simulation(scenario, trace=True).run()


@pytest.mark.parametrize("c", [1, 4, 16])
@pytest.mark.parametrize("rho", [0.5, 0.8, 0.95])
def test_mmc_fcfs_matches_erlang_c(c: int, rho: float) -> None:
    mu = 1.0
    lam = rho * c * mu
    n = 600_000 if rho > 0.9 else 300_000
    r = queue(lam, {"dist": "exponential", "mean": 1 / mu}, {"cores": c, "discipline": "fcfs"}, n)
    order = np.argsort(r.trace.arrival_s)
    wait = (r.trace.start_s - r.trace.arrival_s)[order]
    pw = erlang_c(c, lam / mu)
    mean_wait = pw / (c * mu - lam)
    est, half = batch_ci(wait)
    assert abs(est - mean_wait) <= half, (est, mean_wait, half)
    t = mean_wait  # P(W > t) = C(c, a) exp(-(c mu - lambda) t)
    est, half = batch_ci((wait > t).astype(np.float64))
    assert abs(est - pw * math.exp(-(c * mu - lam) * t)) <= half
    # FCFS: with one queue, service starts in arrival order.
    assert np.all(np.diff(r.trace.start_s[order]) >= -1e-9)


@pytest.mark.parametrize("rho", [0.5, 0.9])
def test_mm1_processor_sharing_mean_response(rho: float) -> None:
    r = queue(rho, {"dist": "exponential", "mean": 1.0}, {"discipline": "ps"}, 400_000)
    order = np.argsort(r.trace.arrival_s)
    est, half = batch_ci((r.trace.end_s - r.trace.arrival_s)[order])
    assert abs(est - 1 / (1 - rho)) <= half, (est, half)


def test_mg1_processor_sharing_is_insensitive() -> None:
    # M/G/1-PS: mean response depends on the service distribution only through its mean.
    r = queue(0.7, {"dist": "uniform", "low": 0.5, "high": 1.5}, {"discipline": "ps"}, 300_000)
    order = np.argsort(r.trace.arrival_s)
    est, half = batch_ci((r.trace.end_s - r.trace.arrival_s)[order])
    assert abs(est - 1 / (1 - 0.7)) <= half


@pytest.mark.parametrize("k", [1, 3])
def test_mm1k_blocking_probability(k: int) -> None:
    # One core, FCFS, at most k requests held (1 in service + k - 1 queued): M/M/1/K.
    rho, n = 0.8, 200_000
    cluster = {"discipline": "fcfs", "pool_limit": 1, "accept_queue": k - 1}
    r = queue(rho, {"dist": "exponential", "mean": 1.0}, cluster, n)
    p_block = (1 - rho) * rho**k / (1 - rho ** (k + 1))
    # Binomial standard error of the rejected fraction; PASTA makes arrivals see time averages.
    se = math.sqrt(p_block * (1 - p_block) / r.requests)
    assert abs(r.rejected_fraction - p_block) <= 5 * se
    assert r.requests == r.completed + r.rejected + r.in_system_at_end


def test_processor_sharing_on_several_cores() -> None:
    # Two requests of demand 1 on a 2-core PS VM each get a whole core: both end at t = 1.
    r = replay([0.0, 0.0], {"cores": 2})
    assert np.allclose(r.trace.end_s, [1.0, 1.0])
    # Three requests on 2 cores share 2/3 of a core each: all end at t = 1.5.
    r = replay([0.0, 0.0, 0.0], {"cores": 2})
    assert np.allclose(r.trace.end_s, [1.5, 1.5, 1.5])


def test_overhead_model_slows_the_vm_above_q_upper() -> None:
    # Hand-worked: 2 concurrent requests of demand 1 on 1 PS core; without overhead both end
    # at t = 2; with q_upper = 1 and factor 0.5 the VM runs at half speed: both end at t = 4.
    assert np.allclose(replay([0.0, 0.0], {}).trace.end_s, [2.0, 2.0])
    slowed = replay([0.0, 0.0], {"overhead": {"q_upper": 1, "factor": 0.5}})
    assert np.allclose(slowed.trace.end_s, [4.0, 4.0])
    # Staggered: the second request arrives at 1 with 0 work done on it.
    r = replay([0.0, 1.0], {"overhead": {"q_upper": 1, "factor": 0.5}})
    # 0..1: alone at full speed, finishes request 1 at t = 1 exactly when request 2 arrives.
    assert np.allclose(np.sort(r.trace.end_s), [1.0, 2.0])


def replay(times: list[float], cluster: dict[str, Any], speed: float = 1.0) -> Any:
    scenario = load_scenario(
        {
            "duration_s": 10,
            "workload": {
                "arrivals": {"times_s": times},
                "service_s": {"dist": "constant", "value": 1.0},
            },
            "cluster": {"discipline": "ps", "speed": speed, **cluster},
        }
    )
    return Simulation(scenario, trace=True).run()


def test_speed_and_replay_time_scale() -> None:
    r = replay([0.0], {}, speed=2.0)
    assert np.allclose(r.trace.end_s, [0.5])
    scenario = load_scenario(
        {
            "duration_s": 10,
            "workload": {
                "arrivals": {"times_s": [3.0, 1.0, 2.0], "time_scale": 2.0},
                "service_s": {"dist": "constant", "value": 0.1},
            },
        }
    )
    tr = Simulation(scenario, trace=True).run().trace
    assert tr is not None and np.allclose(np.sort(tr.arrival_s), [2.0, 4.0, 6.0])


def test_multiclass_processor_sharing_per_class_means() -> None:
    # M/G/1-PS with two classes: class k's mean response is E[S_k] / (1 - rho).
    doc = {
        "duration_s": 150_000,
        "seed": 4,
        "workload": {
            "classes": [
                {
                    "name": "fast",
                    "arrivals": {"rate_per_s": 0.8},
                    "service_s": {"dist": "exponential", "mean": 0.25},
                },
                {
                    "name": "slow",
                    "arrivals": {"rate_per_s": 0.2},
                    "service_s": {"dist": "constant", "value": 2.0},
                },
            ]
        },
        "autoscaling": {"monitor_s": 100, "step_s": 30_000},
    }
    r = Simulation(load_scenario(doc), trace=True).run()
    assert r.trace is not None and [c.name for c in r.classes] == ["fast", "slow"]
    rho = 0.8 * 0.25 + 0.2 * 2.0
    for k, mean_s in enumerate([0.25, 2.0]):
        mine = r.trace.klass == k
        order = np.argsort(r.trace.arrival_s[mine])
        est, half = batch_ci((r.trace.end_s - r.trace.arrival_s)[mine][order])
        assert abs(est - mean_s / (1 - rho)) <= half, (k, est, half)
        assert r.classes[k].latency.mean_s == pytest.approx(est, rel=0.01)
        assert r.classes[k].plt is None
    assert r.latency.count == sum(c.latency.count for c in r.classes) == r.completed


def test_datasets_feed_replay_and_empirical_service() -> None:
    doc = {
        "duration_s": 100,
        "workload": {
            "arrivals": {"dataset": "log"},
            "service_s": {"dist": "empirical", "dataset": "svc"},
        },
    }
    data = {"log": np.array([5.0, 1.0, 3.0]), "svc": np.array([0.25])}
    tr = Simulation(load_scenario(doc), datasets=data, trace=True).run().trace
    assert tr is not None
    assert np.allclose(np.sort(tr.arrival_s), [1, 3, 5]) and np.allclose(tr.demand_s, 0.25)
    with pytest.raises(ValueError, match="unknown dataset"):
        Simulation(load_scenario(doc), datasets={"log": data["log"]}).run()
