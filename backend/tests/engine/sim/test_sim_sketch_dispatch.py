"""The quantile sketch against exact quantiles; dispatch policies on hand-built arrivals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario, sketch
from headroom.engine.sim.arrivals import ProfileArrivals


@pytest.mark.parametrize("sigma", [0.5, 2.5])
def test_sketch_quantiles_within_half_a_percent(sigma: float) -> None:
    x = np.random.default_rng(1).lognormal(-3, sigma, 200_000)
    inv = 1 / sketch.log_gamma(sketch.FINE_ALPHA)
    nb = sketch.n_buckets(sketch.FINE_ALPHA)
    counts = np.bincount([sketch.bucket_of(v, inv, nb) for v in x[:20_000]], minlength=nb)
    qs = np.array([0.5, 0.95, 0.99, 0.999])
    got = sketch.sketch_quantiles(counts, sketch.FINE_ALPHA, qs)
    exact = np.quantile(x[:20_000], qs, method="inverted_cdf")  # nearest rank
    assert np.all(np.abs(got / exact - 1) <= 0.005)


def test_engine_latency_quantiles_match_the_trace() -> None:
    doc = {
        "duration_s": 5000,
        "workload": {
            "arrivals": {"rate_per_s": 8},
            "service_s": {"dist": "lognormal", "mu": -3, "sigma": 1},
        },
    }
    r = Simulation(load_scenario(doc), trace=True).run()
    assert r.trace is not None
    lat = r.trace.end_s - r.trace.arrival_s
    exact = np.quantile(lat, [0.5, 0.95, 0.99], method="inverted_cdf")
    got = np.array([r.latency.p50_s, r.latency.p95_s, r.latency.p99_s])
    assert np.all(np.abs(got / exact - 1) <= 0.005)
    assert r.latency.mean_s == pytest.approx(lat.mean(), rel=1e-9)  # exact mean
    assert r.latency.max_s == pytest.approx(lat.max(), rel=1e-12)


def dispatched(policy: str, n: int, gap_s: float, service_s: float, **kw: Any) -> np.ndarray:
    doc = {
        "duration_s": n * gap_s + 100,
        "workload": {
            "arrivals": {"times_s": list(np.arange(n) * gap_s)},
            "service_s": {"dist": "constant", "value": service_s},
        },
        "cluster": {"vms": {"min": 3, "max": 3, "start": 3}},
        "dispatch": {"policy": policy, **kw},
    }
    tr = Simulation(load_scenario(doc), trace=True).run().trace
    assert tr is not None
    return tr.vm[np.argsort(tr.arrival_s)]


@pytest.mark.parametrize("policy", ["round_robin", "lru"])
def test_round_robin_and_lru_cycle(policy: str) -> None:
    vms = dispatched(policy, 30, 1.0, 0.1)
    assert len(set(vms[:3])) == 3 and np.array_equal(vms[3:], vms[:-3])


def test_weighted_round_robin_counts() -> None:
    vms = dispatched("weighted_round_robin", 400, 1.0, 0.1, weights=[1, 2, 1])
    assert np.bincount(vms, minlength=3).tolist() == [100, 200, 100]
    assert np.bincount(vms[:4], minlength=3).tolist() == [1, 2, 1]  # smooth interleaving


def test_least_connections_picks_the_emptiest() -> None:
    # Three simultaneous long requests go to three different VMs; a fourth waits for none.
    vms = dispatched("least_connections", 3, 0.0, 10.0)
    assert sorted(vms.tolist()) == [0, 1, 2]


def test_random_dispatch_is_uniform() -> None:
    vms = dispatched("random", 3000, 0.1, 0.01)
    counts = np.bincount(vms, minlength=3)
    assert np.all(np.abs(counts - 1000) < 5 * np.sqrt(3000 * (1 / 3) * (2 / 3)))


def test_thinning_follows_the_profile() -> None:
    profile = ProfileArrivals((0.0, 500.0), (1.0, 5.0))
    t = profile.between(np.random.default_rng(2), 0.0, 1000.0)
    assert np.all(np.diff(t) >= 0)
    low, high = np.sum(t < 500), np.sum(t >= 500)
    assert abs(low - 500) < 5 * np.sqrt(500) and abs(high - 2500) < 5 * np.sqrt(2500)
    assert profile.mean_rate_per_s(1000.0) == 3.0


def test_cdf_from_the_sketch_matches_the_trace() -> None:
    doc = {
        "duration_s": 3000,
        "workload": {
            "arrivals": {"rate_per_s": 2},
            "page": {
                "objects": {"dist": "constant", "value": 3},
                "gap_s": {"dist": "uniform", "low": 0, "high": 1},
            },
            "service_s": {"dist": "exponential", "mean": 0.05},
        },
    }
    r = Simulation(load_scenario(doc), trace=True).run()
    assert r.trace is not None
    (cls,) = r.classes
    values, frac = cls.latency_cdf()
    assert frac[-1] == 1.0 and np.all(np.diff(values) > 0) and np.all(np.diff(frac) > 0)
    lat = np.sort(r.trace.end_s - r.trace.arrival_s)
    # A bucket with representative value v holds (v / (1 + alpha), v / (1 - alpha)]: the
    # exact CDF at its upper edge equals the sketch's fraction, and at its lower edge it is
    # at most that (1e-9 relative slack for rounding at the edges).
    a = sketch.FINE_ALPHA
    hi = np.searchsorted(lat, values / (1 - a) * (1 + 1e-9), side="right") / len(lat)
    lo = np.searchsorted(lat, values / (1 + a) * (1 - 1e-9), side="right") / len(lat)
    assert np.all(hi >= frac - 1e-12) and np.all(lo <= frac + 1e-12)
    pv, pf = cls.plt_cdf()
    assert len(pv) > 0 and pf[-1] == 1.0
