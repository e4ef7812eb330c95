"""The single-tier runs with an admission stage or pages, against the kernel's frozen
figures and the hand-written one-tier chain (test_sim_one_tier.py describes the method):
the class-aware stages, the virtual waiting queue, pages (client chains, server push,
Early Hints, sticky or per-request dispatch)."""

from __future__ import annotations

from typing import Any

import pytest

from headroom.simulations import class_presets

from .one_tier import (
    BOUNDED,
    MIXED,
    STAGES,
    assert_same_admission,
    exp,
    page_doc,
    page_spec,
    paged,
    staged,
    two_users,
)


@pytest.mark.parametrize("policy", STAGES)
def test_one_tier_chain_admits_as_the_kernel_did(policy: str) -> None:
    """Each class-aware stage refuses the same requests, dispatches within the same
    partition sets and (DynamicPart) moves the same VMs between them at the same times."""
    a, b = staged(two_users(policy))
    assert a.rejected > 100 and a.completed > 10_000
    assert_same_admission(a, b)
    if policy == "dynamic_part":
        assert a.admission_series is not None and len(set(a.admission_series["k"])) > 1


@pytest.mark.parametrize("policy", STAGES)
def test_one_tier_chain_runs_the_class_preset_as_the_kernel_did(policy: str) -> None:
    """The four-class preset (static and dynamic, top and normal; weighted round robin)
    at 300 req/s, 1.4x its capacity, under each stage."""
    doc = class_presets.class_policies()
    doc["workload"]["arrivals"] = {"rate_per_s": 300.0}
    doc = {**doc, "duration_s": 120, "admission": class_presets.admission_for(policy)}
    a, b = staged(doc)
    assert a.rejected > 100
    assert_same_admission(a, b)


def test_one_tier_chain_queues_as_the_kernel_did_while_discovering() -> None:
    """The virtual-queue preset (one 4-core server, overload, then a burst of 6x its
    capacity), its capacity discovered online from the loop's counters every epoch."""
    a, b = staged(class_presets.with_virtual_queue(class_presets.virtual_queue()))
    assert a.admission is not None and a.admission["converged_at_s"] is not None
    assert a.admission["wait_s"]["max"] > 5
    assert_same_admission(a, b)


def test_one_tier_chain_queues_as_the_kernel_did_at_a_fixed_capacity() -> None:
    """Two classes of unequal hardness over a fixed capacity the load exceeds: waits up to
    the bound, then drops."""
    doc = two_users("none")
    doc["admission"] = {
        "policy": "virtual_queue",
        "capacity": 90.0,
        "max_wait_s": 20,
        "hardness": {"top": 2.0},
    }
    a, b = staged(doc)
    assert a.admission is not None and a.admission["dropped"] > 100
    assert_same_admission(a, b)


@pytest.mark.parametrize("discipline", ["ps", "fcfs"])
@pytest.mark.parametrize(
    "page",
    [page_spec(), page_spec(push=0.5), page_spec(early_hints=True)],
    ids=["client-chain", "push", "early-hints"],
)
def test_one_tier_chain_loads_pages_as_the_kernel_did(
    page: dict[str, Any], discipline: str
) -> None:
    """Pages sticking to their base request's VM, over bounded pools that refuse some
    requests (and so fail their pages): the same requests, pages and trace rows."""
    a, _ = paged(page_doc(page, {**BOUNDED, "discipline": discipline}), trace=True)
    assert a.pages_failed > 0 and a.rejected > 0


@pytest.mark.parametrize("policy", ["round_robin", "least_connections", "random"])
@pytest.mark.parametrize(
    "page", [page_spec(push=0.5), page_spec(early_hints=True)], ids=["push", "early-hints"]
)
def test_one_tier_chain_dispatches_pages_request_by_request(
    policy: str, page: dict[str, Any]
) -> None:
    dispatch = {"policy": policy, "per": "request"}
    paged(page_doc(page, BOUNDED, dispatch=dispatch), trace=True)


@pytest.mark.parametrize("per", ["page", "request"])
def test_one_tier_chain_loads_pages_as_the_kernel_did_under_autoscaling(per: str) -> None:
    """Scale-outs and drains (a draining VM stays while pages stick to it)."""
    autoscaling = {"policy": "threshold", "step_s": 20.0, "monitor_s": 5.0, "time_steps": 2}
    cluster = {"vms": {"min": 1, "max": 8, "start": 2}, "cores": 2, "boot_s": 15.0}
    doc = page_doc(page_spec(push=0.3), cluster, autoscaling=autoscaling,
                    dispatch={"policy": "least_connections", "per": per})  # fmt: skip
    doc["workload"]["arrivals"] = {"profile": [[0, 1.0], [150, 5.0], [300, 1.0]]}
    a, _ = paged(doc, trace=True)
    assert any(x.to_vms < x.from_vms for x in a.actions)
    assert any(x.to_vms > x.from_vms for x in a.actions)


def test_one_tier_chain_loads_pages_of_some_classes_as_the_kernel_did() -> None:
    """Two classes, one loading pages with Early Hints and one of single requests."""
    doc = page_doc(page_spec(), BOUNDED)
    doc["workload"] = {
        "classes": [
            {"name": "page", "arrivals": {"rate_per_s": 2.0}, "page": page_spec(early_hints=True),
             "service_s": exp(0.1)},
            {"name": "api", "arrivals": {"rate_per_s": 3.0}, "service_s": exp(0.2)},
        ]
    }  # fmt: skip
    paged(doc, trace=True)


@pytest.mark.parametrize("policy", STAGES)
@pytest.mark.parametrize("per", ["page", "request"])
def test_one_tier_chain_admits_pages_as_the_kernel_did(policy: str, per: str) -> None:
    """Each class-aware stage decides on a page's base request; its other requests follow
    it, or (request by request) stay within its class's partition set."""
    doc = two_users(policy)
    for k in doc["workload"]["classes"]:
        k["page"] = page_spec(push=0.3)
    doc["workload"]["arrivals"] = {"rate_per_s": 20.0}
    doc["dispatch"] = {"policy": "least_connections", "per": per}
    a, _ = paged(doc)
    assert a.rejected > 100


def test_one_tier_chain_draws_mixed_pages_as_the_kernel_did() -> None:
    """Pages whose demands and client gaps are mixtures: the gaps' pool is topped up by
    the objects the client asks for, not by every request."""
    page = {**page_spec(push=0.3), "gap_s": MIXED}
    doc = page_doc(page, {**BOUNDED, "pool_limit": 4})
    doc["workload"]["service_s"] = MIXED
    paged(doc, trace=True)


def test_one_tier_chain_draws_a_mixture_as_the_kernel_did_behind_the_waiting_queue() -> None:
    """The waiting queue holds and drops arrivals: the demands are topped up by the
    arrivals drawn, and read by those released."""
    doc = two_users("none")
    for k in doc["workload"]["classes"]:
        k["service_s"] = MIXED
    doc["admission"] = {"policy": "virtual_queue", "capacity": 90.0, "max_wait_s": 20}
    a, b = staged(doc)
    assert a.admission is not None and a.admission["dropped"] > 100
    assert_same_admission(a, b)
