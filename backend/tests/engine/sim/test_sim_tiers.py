"""Multi-tier clusters (cluster.tiers): hand-checked cases, Jackson tandems, pool caps.

Every run here also passes the folder's conservation and Little's-law check (conftest).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity.params import SctParams
from headroom.engine.capacity.sct import sct_levels
from headroom.engine.capacity.windows import interval_counts
from headroom.engine.sim import Simulation
from headroom.engine.sim.scenario import ScenarioError, load_scenario, scenario_json_schema
from headroom.engine.sim.tiers.sct import levels_from_intervals


def _const(value: float) -> dict[str, Any]:
    return {"dist": "constant", "value": value}


def _exp(mean: float) -> dict[str, Any]:
    return {"dist": "exponential", "mean": mean}


def _doc(tiers: list[dict[str, Any]], arrivals: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "duration_s": extra.pop("duration_s", 100.0),
        "seed": extra.pop("seed", 1),
        "workload": {"arrivals": arrivals, "service_s": extra.pop("service_s", _const(0.5))},
        "cluster": {"tiers": tiers},
        **extra,
    }


def test_one_request_takes_the_sum_of_its_demands() -> None:
    """Hand check: 10 ms at the web, the class's 0.5 s at the app (no tier demand given),
    0.25 s at a db of speed 2: 0.01 + 0.5 + 0.125 = 0.635 s end to end."""
    tiers = [
        {"name": "web", "service_s": _const(0.01)},
        {"name": "app"},
        {"name": "db", "service_s": _const(0.25), "speed": 2.0},
    ]
    r = Simulation(_doc(tiers, {"times_s": [3.0]})).run()
    assert r.completed == 1
    assert r.latency.mean_s == pytest.approx(0.635, abs=1e-12)
    t = r.tiers
    assert t is not None
    assert t["web"]["own_s"] == pytest.approx(0.01, abs=1e-12)
    assert t["app"]["own_s"] == pytest.approx(0.5, abs=1e-12)
    assert t["db"]["residence_s"] == pytest.approx(0.125, abs=1e-12)
    assert t["web"]["residence_s"] == pytest.approx(0.635, abs=1e-12)
    assert sum(t[n]["latency_share"] for n in ("web", "app", "db")) == pytest.approx(1.0)


def _paged_chain(tiers: list[dict[str, Any]], workload: dict[str, Any], **extra: Any) -> Any:
    """A chain with a page workload (the document keeps pages off chains: the chain
    takes the workload a single-tier document loads)."""
    single = load_scenario({**_doc([], {}, **extra), "workload": workload, "cluster": {}})
    chain = load_scenario(_doc(tiers, {"rate_per_s": 1.0}, **extra))
    return chain.model_copy(update={"workload": single.workload})


def test_a_page_visits_every_tier() -> None:
    """Hand check: a page of two objects (client gaps of 0.05 s) arriving at 1 s; each
    request takes the class's 0.1 s at the web and the db's own 0.2 s. The base response
    leaves at 1.3 s; the client's two requests are both due by then (1.05 and 1.1 s), so
    both go at 1.3 s and end at 1.6 s: a page load time of 0.6 s."""
    tiers = [{"name": "web", "cores": 4}, {"name": "db", "cores": 4, "service_s": _const(0.2)}]
    page = {"objects": _const(2), "gap_s": _const(0.05)}
    workload = {"arrivals": {"times_s": [1.0]}, "page": page, "service_s": _const(0.1)}
    r = Simulation(_paged_chain(tiers, workload)).run()
    assert (r.requests, r.completed, r.pages, r.pages_completed) == (3, 3, 1, 1)
    assert r.plt is not None and r.plt.mean_s == pytest.approx(0.6, abs=1e-12)
    assert r.latency.mean_s == pytest.approx(0.3, abs=1e-12)


@pytest.mark.parametrize("page", [{"push_fraction": 0.5}, {"early_hints": True}])
def test_pages_through_bounded_tiers_are_conserved(page: dict[str, Any]) -> None:
    """Pages over two tiers whose pools and queues refuse requests: every request and
    page is accounted for (conftest), some pages fail."""
    tiers = [
        {"name": "web", "vms": {"min": 2, "max": 2, "start": 2}, "pool_limit": 2,
         "accept_queue": 1},
        {"name": "db", "cores": 2, "pool_limit": 2, "accept_queue": 2,
         "service_s": _exp(0.05)},
    ]  # fmt: skip
    page = {"objects": {"dist": "uniform", "low": 0, "high": 8}, "gap_s": _exp(0.2), **page}
    workload = {"arrivals": {"rate_per_s": 4.0}, "page": page, "service_s": _exp(0.1)}
    r = Simulation(_paged_chain(tiers, workload, duration_s=300.0)).run()
    assert r.pages > 1000 and r.pages_failed > 10 and r.pages_completed > 100


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
def test_tandem_of_mm1_tiers_matches_jackson(discipline: str) -> None:
    """Three M/M/1 tiers (PS or FCFS, unbounded pools) in tandem: a Jackson network, so
    the mean response is sum 1 / (mu_i - lambda) = 1/80 + 1/30 + 1/20 = 0.09583 s and each
    tier's own time is its M/M/1 mean. 80,000 requests at utilisations <= 0.5: the
    relative standard error of these means is below 1.5% (batch means), so 5% (per tier
    8%) is more than 3 standard errors, a safe tolerance for this fixed seed."""
    lam, means = 20.0, (0.01, 0.02, 0.025)
    tiers = [
        {"name": f"t{i}", "service_s": _exp(m), "discipline": discipline}
        for i, m in enumerate(means)
    ]
    r = Simulation(_doc(tiers, {"rate_per_s": lam}, duration_s=4000.0, seed=7)).run()
    expected = [1 / (1 / m - lam) for m in means]
    assert r.latency.mean_s == pytest.approx(sum(expected), rel=0.05)
    assert r.tiers is not None
    for i, want in enumerate(expected):
        assert r.tiers[f"t{i}"]["own_s"] == pytest.approx(want, rel=0.08)
        assert r.tiers[f"t{i}"]["utilization_mean"] == pytest.approx(lam * means[i], rel=0.05)


def test_upstream_pools_cap_the_concurrency_downstream() -> None:
    """3 app VMs with 4 threads each under overload: the db never holds more than 12
    queries (and does reach 12: the cap binds), whatever its own pool."""
    tiers = [
        {"name": "app", "vms": {"min": 3, "max": 3, "start": 3}, "pool_limit": 4,
         "service_s": _exp(0.001)},
        {"name": "db", "cores": 2, "service_s": _exp(0.05)},
    ]  # fmt: skip
    r = Simulation(_doc(tiers, {"rate_per_s": 200.0}, duration_s=60.0)).run()
    assert r.tiers is not None
    assert r.tiers["db"]["concurrency_peak"] == 12
    assert r.tiers["app"]["concurrency_peak"] == 12
    assert r.tier_series is not None
    assert float(np.nanmax(r.tier_series["db.concurrency"])) <= 12.0 + 1e-9
    assert r.series.waiting.max() > 100  # the excess waits in the app's accept queues


def test_accept_queue_bound_refuses_and_releases_upstream_slots() -> None:
    """A db with a pool of 2 and an accept queue of 1 under overload refuses queries;
    the refused requests give their web slots back (conservation holds, conftest), and
    the refusals are counted per class."""
    tiers = [
        {"name": "web", "pool_limit": 50, "service_s": _const(0.001)},
        {"name": "db", "pool_limit": 2, "accept_queue": 1, "service_s": _exp(0.1)},
    ]
    r = Simulation(_doc(tiers, {"rate_per_s": 50.0}, duration_s=60.0)).run()
    assert r.rejected > 0
    assert r.classes[0].rejected == r.rejected
    assert r.classes[0].arrived == r.requests
    assert r.tiers is not None and r.tiers["db"]["concurrency_peak"] == 2


def test_overhead_slows_the_tier_past_q_upper() -> None:
    """Hand check of the descending stage: 4 requests at t = 0 on one 1-core PS VM with
    q_upper 2 and factor 0.5: 4 in service -> speed 0.25 x 1/4 each. All have demand 1 s
    and finish together at t = 16 s."""
    tiers = [{"name": "db", "overhead": {"q_upper": 2, "factor": 0.5}, "service_s": _const(1.0)}]
    r = Simulation(_doc(tiers, {"times_s": [0.0, 0.0, 0.0, 0.0]})).run()
    assert r.latency.max_s == pytest.approx(16.0, rel=1e-9)
    assert r.latency.mean_s == pytest.approx(16.0, rel=1e-9)


def test_summary_is_json_and_names_every_tier() -> None:
    tiers = [{"name": "web", "service_s": _const(0.01)}, {"name": "db", "pool_limit": 5}]
    r = Simulation(_doc(tiers, {"rate_per_s": 5.0}, duration_s=20.0)).run()
    summary = json.loads(json.dumps(r.summary()))
    assert set(summary["tiers"]) == {"web", "db"}
    db = summary["tiers"]["db"]
    keys = {"vms", "utilization_mean", "concurrency_mean", "concurrency_peak", "residence_s"}
    assert keys | {"own_s", "latency_share", "pool", "pool_changes"} == set(db)
    assert db["pool"] == {"initial": 5, "final": [5]}


@pytest.mark.parametrize(
    ("cluster", "extra", "message"),
    [
        ({"cores": 2}, {}, "with tiers, set cores per tier"),
        ({}, {"admission": {"policy": "switch_adm", "maxconn_sla": 1, "maxconn": 2}}, "admission"),
        ({}, {"dispatch": "round_robin"}, "dispatch.policy"),
        ({}, {"autoscaling": {"policy": "threshold", "tier": "nope"}}, "autoscaling.tier"),
    ],
)
def test_unsupported_combinations_are_refused(
    cluster: dict[str, Any], extra: dict[str, Any], message: str
) -> None:
    doc = _doc([{"name": "a"}, {"name": "b"}], {"rate_per_s": 1.0}, **extra)
    doc["cluster"].update(cluster)
    with pytest.raises(ScenarioError, match=message):
        load_scenario(doc)


def test_tier_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"cluster\.tiers\.1\.pool_limit"):
        load_scenario(_doc([{"name": "a"}, {"name": "b", "pool_limit": 0}], {"rate_per_s": 1}))
    with pytest.raises(ScenarioError, match="tier names must be unique"):
        load_scenario(_doc([{"name": "a"}, {"name": "a"}], {"rate_per_s": 1}))
    plain = {"duration_s": 1, "workload": {"arrivals": {"rate_per_s": 1}, "service_s": _const(1)}}
    with pytest.raises(ScenarioError, match=r"concurrency_aware needs cluster\.tiers"):
        load_scenario({**plain, "autoscaling": {"policy": "concurrency_aware"}})
    pages = _doc([{"name": "a"}], {"rate_per_s": 1})
    pages["workload"]["page"] = {"objects": _const(2), "gap_s": _const(0.1)}
    with pytest.raises(ScenarioError, match=r"pages do not run with cluster\.tiers"):
        load_scenario(pages)


def test_schema_publishes_tiers_and_the_policy() -> None:
    schema = scenario_json_schema()
    assert "Tier" in schema["$defs"]
    assert "ConcurrencyAwarePolicy" in schema["$defs"]
    assert "sct_window_s" in schema["$defs"]["ConcurrencyAwarePolicy"]["properties"]


def test_interval_levels_match_the_trace_sct() -> None:
    """The levels the policy forms from per-interval sums equal capacity.sct's levels
    from the same requests' arrivals and departures (the reference implementation)."""
    rng = np.random.default_rng(3)
    arrive = np.sort(rng.uniform(0, 60, 6000))
    depart = arrive + rng.exponential(0.03, arrive.size) * (1 + 20 * (arrive > 30))
    params = SctParams(interval_ms=50.0, window_s=None, min_intervals=10)
    want = sct_levels(arrive, depart, params)
    n = int(np.floor(arrive.max() / 0.05))
    counts = interval_counts(arrive, depart, 0.05, n)
    got = levels_from_intervals(
        counts.completions.astype(float), counts.in_system_s, counts.completed_latency_s, 0.05, 10
    )
    assert want.n.size > 5
    np.testing.assert_array_equal(got.n, want.n)
    np.testing.assert_allclose(got.throughput_per_s, want.throughput_per_s, rtol=1e-12)
    np.testing.assert_allclose(got.response_s, want.response_s, rtol=1e-12)
    np.testing.assert_array_equal(got.intervals, want.intervals)


def test_the_example_scenario_file_validates_and_runs() -> None:
    """data/profiles/three_tier_big_spike.yaml (what `headroom simulate` reads): its first
    two minutes run, with the app tier scaled and the db's pool resized after actions."""
    path = Path(__file__).resolve().parents[4] / "data" / "profiles" / "three_tier_big_spike.yaml"
    s = load_scenario(path.read_text())
    assert s.cluster.tiers is not None and [t.name for t in s.cluster.tiers] == ["web", "app", "db"]
    short = s.model_copy(update={"duration_s": 120.0})
    r = Simulation(short).run()
    assert r.completed > 10_000 and r.tiers is not None
    assert set(r.tiers) == {"web", "app", "db"}


tier_st = st.fixed_dictionaries(
    {
        "vms": st.integers(1, 3),
        "cores": st.integers(1, 3),
        "discipline": st.sampled_from(["ps", "fcfs"]),
        "pool_limit": st.none() | st.integers(1, 6),
        "accept_queue": st.none() | st.integers(0, 5),
        "overhead": st.none() | st.just({"q_upper": 2, "factor": 0.8}),
        "mean_s": st.floats(0.001, 0.05),
    }
)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(tiers=st.lists(tier_st, min_size=1, max_size=3), rate=st.floats(5.0, 300.0))
def test_random_clusters_conserve_and_respect_every_pool(
    tiers: list[dict[str, Any]], rate: float
) -> None:
    """Any cluster: requests are conserved and Little's law holds (conftest), no tier
    holds more than its VMs x pool, no tier below holds more than the tier above can
    send (its VMs x pool), and, as every request holding a slot downstream holds one
    upstream at the same instant, peaks never grow down the chain."""
    doc_tiers = []
    for i, t in enumerate(tiers):
        n = t["vms"]
        entry = {k: v for k, v in t.items() if k not in ("vms", "mean_s") and v is not None}
        doc_tiers.append(
            {**entry, "name": f"t{i}", "vms": {"min": n, "max": n, "start": n},
             "service_s": _exp(t["mean_s"])}
        )  # fmt: skip
    r = Simulation(_doc(doc_tiers, {"rate_per_s": rate}, duration_s=20.0)).run()
    assert r.tiers is not None
    cap = None
    for i, t in enumerate(tiers):
        peak = r.tiers[f"t{i}"]["concurrency_peak"]
        if t["pool_limit"] is not None:
            assert peak <= t["vms"] * t["pool_limit"]
        if cap is not None:
            assert peak <= cap
        cap = t["vms"] * t["pool_limit"] if t["pool_limit"] is not None else cap
    peaks = [r.tiers[f"t{i}"]["concurrency_peak"] for i in range(len(tiers))]
    assert peaks == sorted(peaks, reverse=True)


def test_the_first_scalable_tier_scales_by_default() -> None:
    """Without autoscaling.tier the threshold policy resizes the first tier whose
    vms.min < vms.max; the result's VM figures are that tier's, the others stay put."""
    tiers = [
        {"name": "web", "vms": {"min": 2, "max": 2, "start": 2}, "service_s": _const(0.001)},
        {"name": "app", "vms": {"min": 1, "max": 4, "start": 1}, "boot_s": 0,
         "service_s": _exp(0.02)},
    ]  # fmt: skip
    policy = {"policy": "threshold", "upper": 0.6, "time_steps": 1, "step_s": 5, "cooldown_s": 0}
    r = Simulation(_doc(tiers, {"rate_per_s": 120.0}, duration_s=60.0, autoscaling=policy)).run()
    assert r.tiers is not None and r.actions
    assert r.tiers["web"]["vms"]["max_allocated"] == 2
    assert r.vms.max_allocated == r.tiers["app"]["vms"]["max_allocated"] >= 3
    assert r.series.allocated_vms.max() == r.vms.max_allocated
