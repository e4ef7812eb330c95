"""Pages: client gaps, server push, 103 Early Hints, stickiness (docs/methods/simulator.md)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario

N_OBJECTS = 10
SERVICE_MEAN_S = 0.002


def pages(push_fraction: float = 0.0, early_hints: bool = False, **extra: Any) -> dict[str, Any]:
    return {
        "duration_s": 4000,
        "seed": 5,
        "workload": {
            "arrivals": {"rate_per_s": 2.0},
            "page": {
                "objects": {"dist": "constant", "value": N_OBJECTS},
                "gap_s": {"dist": "uniform", "low": 0, "high": 1},
                "push_fraction": push_fraction,
                "early_hints": early_hints,
            },
            "service_s": {"dist": "exponential", "mean": SERVICE_MEAN_S},
        },
        "cluster": {"vms": {"min": 4, "max": 4, "start": 4}},
        "autoscaling": {"monitor_s": 1.0},
        **extra,
    }


def test_no_push_plt_is_sum_of_gaps_plus_last_object() -> None:
    r = Simulation(load_scenario(pages())).run()
    assert r.plt is not None and r.pages_failed == 0
    # Light load (utilisation ~1%): the last object's response ~ its service time.
    expected = N_OBJECTS * 0.5 + SERVICE_MEAN_S
    # PLT = sum of 10 U(0,1) gaps (+ ~ms): sd 0.913 s; its mean over ~8000 pages has
    # sd ~0.01 s. 5 sd plus 5 ms for queueing and the base-response clamp.
    se = math.sqrt(N_OBJECTS / 12) / math.sqrt(r.plt.count)
    assert abs(r.plt.mean_s - expected) <= 5 * se + 0.005, (r.plt.mean_s, expected)


def test_plt_falls_monotonically_as_push_grows() -> None:
    runs = [Simulation(load_scenario(pages(p))).run() for p in np.linspace(0, 1, 6)]
    means = [r.plt.mean_s for r in runs if r.plt is not None]
    # Each step removes 2 of 10 client gaps (~1 s) from the PLT: far above the noise.
    assert all(b < a for a, b in itertools.pairwise(means)), means
    assert means[-1] < 0.1  # full push: base + objects served back to back on one VM


def test_full_push_and_early_hints_need_no_gaps() -> None:
    hints = Simulation(load_scenario(pages(early_hints=True))).run()
    push = Simulation(load_scenario(pages(1.0))).run()
    assert hints.plt is not None and push.plt is not None
    # Both: base, then all 10 objects at once on the base's VM (PS): ~ 11 service times.
    for plt in (hints.plt, push.plt):
        assert plt.mean_s == pytest.approx((1 + N_OBJECTS) * SERVICE_MEAN_S, rel=0.1)
    assert hints.requests == push.requests


def test_pages_stick_to_the_base_vm() -> None:
    r = Simulation(load_scenario(pages(0.3)), trace=True).run()
    tr = r.trace
    assert tr is not None
    keys, first = np.unique(tr.page_arrival_s, return_inverse=True)
    vm_of_page = np.full(len(keys), -1)
    vm_of_page[first] = tr.vm
    assert np.array_equal(vm_of_page[first], tr.vm)  # every request on its page's VM
    assert len(np.unique(tr.vm)) == 4  # and pages spread over all VMs


def test_per_request_dispatch_spreads_a_page() -> None:
    s = pages(0.0, dispatch={"policy": "round_robin", "per": "request"})
    tr = Simulation(load_scenario(s), trace=True).run().trace
    assert tr is not None
    per_page = {k: set(tr.vm[tr.page_arrival_s == k]) for k in np.unique(tr.page_arrival_s)[:50]}
    assert all(len(v) > 1 for v in per_page.values())


def test_page_counts_are_conserved() -> None:
    r = Simulation(load_scenario(pages(0.5))).run()
    objects = r.pages * (1 + N_OBJECTS)
    # Pages still in flight at the end have issued only part of their objects.
    assert r.requests <= objects and r.requests > objects - 20 * (1 + N_OBJECTS)
    assert r.pages_completed + r.pages_failed <= r.pages


def test_a_page_whose_hinted_objects_are_all_refused_is_done_once() -> None:
    """Bounded pools refuse every hinted object of some pages as their base response
    leaves: such a page fails once, and its row is not handed to a later page while its
    requests are still in the system (each request belongs to a page that arrived before
    it)."""
    s = pages(early_hints=True, duration_s=400, seed=7)
    s["workload"]["arrivals"] = {"rate_per_s": 3.0}
    s["workload"]["page"]["objects"] = {"dist": "uniform", "low": 0, "high": 12}
    s["workload"]["service_s"] = {"dist": "exponential", "mean": 0.1}
    s["cluster"] = {"vms": {"min": 3, "max": 3, "start": 3}, "pool_limit": 2, "accept_queue": 1}
    s["dispatch"] = {"policy": "round_robin", "per": "request"}
    r = Simulation(load_scenario(s), trace=True).run()
    assert r.trace is not None and r.pages_failed > 100
    assert np.all(r.trace.page_arrival_s <= r.trace.arrival_s)
    assert r.pages_completed + r.pages_failed <= r.pages
