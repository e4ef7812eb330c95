"""The virtual waiting queue at a fixed capacity, as a simulator stage: hand-computed
schedules, drops past max_wait_s, hardness, and the accounting of requests, pages and
Little's law with the stage in place (the folder's conftest also checks conservation and
Little's law on every run).

Accounting with a wait: ``requests`` counts check-ins at the front end before the end of
the run; a dropped check-in is a rejected request (and a failed page); one still waiting
for its second at the end is counted in ``in_system_at_end``. The core only sees
releases, so ``little`` (and ``latency``) is the server's: its arrivals are the releases,
which are ``admission["served"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation
from headroom.engine.sim.simulation import segment_bounds

QUICK = {"dist": "constant", "value": 0.01}  # 10 ms on an idle VM: no queueing at the server


def fixed(times: list[float], capacity: float, max_wait_s: int = 2, **extra: Any) -> dict:
    return {
        "duration_s": 10,
        "workload": {"arrivals": {"times_s": times}, "service_s": QUICK},
        "cluster": {"cores": 4},
        "admission": {
            "policy": "virtual_queue",
            "capacity": capacity,
            "max_wait_s": max_wait_s,
            **extra,
        },
    }


def waits_of(r: Any) -> tuple[np.ndarray, np.ndarray]:
    """(arrival at the server, latency) per request, in arrival order at the server."""
    tr = r.trace
    order = np.argsort(tr.arrival_s)
    return tr.arrival_s[order], (tr.end_s - tr.arrival_s)[order]


def test_waits_follow_the_hand_computed_schedule() -> None:
    """C = 2 req/s, max wait 2 s. Second 0: 0.1, 0.2 take slot 0 (w = 0); 0.3, 0.4 slot 1
    (w = 1); 0.5 slot 2 (w = 2). Second 1: 1.5 finds slot 1 full, slot 2 has one place
    (w = 1). Second 2: slot 2 is full, 2.5 and 2.6 take slot 3 (w = 1). Waits
    0,0,1,1,2,1,1,1: mean 7/8, p95 (nearest rank: the 8th of 8) 2, max 2; none dropped."""
    times = [0.1, 0.2, 0.3, 0.4, 0.5, 1.5, 2.5, 2.6]
    r = Simulation(fixed(times, 2.0), trace=True).run()
    a = r.admission
    assert a == {
        "capacity_estimate_per_s": 2.0,
        "converged_at_s": None,
        "served": 8,
        "dropped": 0,
        "wait_s": {"mean": 7 / 8, "p95": 2.0, "max": 2.0},
    }
    released, latency = waits_of(r)
    waits = np.array([0, 0, 1, 1, 2, 1, 1, 1])
    release_second = np.floor(np.array(times)) + waits
    # no wait: at once; a wait of w: some instant of the second floor(t) + w
    assert released[:2].tolist() == times[:2]
    assert np.array_equal(np.sort(np.floor(released)), np.sort(release_second))
    # latency counts from the release: the 10 ms demand on an idle core, never the wait
    assert np.allclose(latency, 0.01) and r.latency.max_s < 0.011
    s = r.admission_series
    assert s["second_offered"][:4].tolist() == [5, 1, 2, 0]
    assert s["second_admitted"][:5].tolist() == [2, 2, 2, 2, 0]
    assert s["second_wait_mean_s"][:3].tolist() == [0.8, 1.0, 1.0]
    assert s["second_wait_max_s"][:3].tolist() == [2.0, 1.0, 1.0]
    assert len(s["epoch_t_s"]) == 0  # fixed capacity: no discovery epochs


def test_requests_past_the_maximum_wait_are_dropped_and_counted_rejected() -> None:
    """C = 2, max wait 2: slots 0, 1, 2 hold six of the nine check-ins of second 0 (waits
    0,0,1,1,2,2); the other three would wait 3 s > 2 s: dropped. 3.05 finds slot 3 empty
    (w = 0). Served 7, waits mean 6/7, p95 (7th of 7) 2."""
    times = [round(0.1 * k, 1) for k in range(1, 10)] + [3.05]
    r = Simulation(fixed(times, 2.0), trace=True).run()
    a = r.admission
    assert (a["served"], a["dropped"]) == (7, 3)
    assert a["wait_s"] == {"mean": 6 / 7, "p95": 2.0, "max": 2.0}
    assert (r.requests, r.rejected, r.completed) == (10, 3, 7)
    assert r.rejected_fraction == pytest.approx(0.3)
    (klass,) = r.classes
    assert (klass.arrived, klass.rejected, klass.rejected_fraction) == (10, 3, 0.3)
    s = r.admission_series
    assert (s["second_offered"][0], s["second_dropped"][0]) == (9, 3)
    assert s["second_admitted"][:4].tolist() == [2, 2, 2, 1]
    # the ninth needs slot 4 (w = 4): a maximum wait of 3 s still drops it, 4 s takes all
    assert Simulation(fixed(times, 2.0, max_wait_s=3)).run().admission["dropped"] == 1
    assert Simulation(fixed(times, 2.0, max_wait_s=4)).run().admission["dropped"] == 0


def test_hardness_consumes_units_of_capacity() -> None:
    """C = 2 units/s; heavy requests weigh 2. heavy 0.1 fills slot 0 (w 0); light 0.2 and
    0.3 share slot 1 (w 1); heavy 0.4 takes slot 2 (w 2); light 0.5 finds slot 2 full
    (2 + 1 > 2) and takes slot 3 only if the wait allows: max wait 2, so it is dropped."""
    doc = {
        "duration_s": 10,
        "workload": {
            "classes": [
                {"name": "heavy", "arrivals": {"times_s": [0.1, 0.4]}, "service_s": QUICK},
                {"name": "light", "arrivals": {"times_s": [0.2, 0.3, 0.5]}, "service_s": QUICK},
            ]
        },
        "cluster": {"cores": 4},
        "admission": {
            "policy": "virtual_queue",
            "capacity": 2,
            "max_wait_s": 2,
            "hardness": {"heavy": 2},
        },
    }
    r = Simulation(doc, trace=True).run()
    assert (r.admission["served"], r.admission["dropped"]) == (4, 1)
    assert r.admission["wait_s"]["mean"] == pytest.approx((0 + 1 + 1 + 2) / 4)
    heavy, light = r.classes
    assert (heavy.rejected, light.rejected) == (0, 1)
    released = np.sort(r.trace.arrival_s[r.trace.klass == 0])
    assert released[0] == 0.1 and 2 <= released[1] < 3  # heavy: slots 0 and 2


def test_check_ins_still_waiting_at_the_end_are_in_the_system() -> None:
    """C = 1: 0.1, 0.2, 0.3 get waits 0, 1, 2; the run ends at 2 s, before the third's
    second: 3 requests, 2 served, 1 in the system (waiting), none rejected."""
    doc = fixed([0.1, 0.2, 0.3], 1.0)
    doc["duration_s"] = 2
    r = Simulation(doc).run()
    assert r.admission["served"] == 2 and r.completed == 2
    assert (r.requests, r.rejected, r.in_system_at_end) == (3, 0, 1)


def test_pages_check_in_once_and_their_objects_follow_the_release() -> None:
    """Pages of 3 objects (gaps 0.1 s, no push). Only the base request checks in: C = 1
    page/s gives the bases at 0.1, 0.2, 0.3 waits 0, 1, 2; each page then issues its
    objects from its release, so PLT = 3 x 0.1 s of gaps + the last object's 10 ms."""
    doc = fixed([0.1, 0.2, 0.3], 1.0)
    doc["workload"]["page"] = {
        "objects": {"dist": "constant", "value": 3},
        "gap_s": {"dist": "constant", "value": 0.1},
    }
    r = Simulation(doc).run()
    assert (r.pages, r.pages_completed, r.requests) == (3, 3, 12)
    assert r.admission["served"] == 3  # pages (base requests) released to the server
    assert r.plt is not None and r.plt.max_s == pytest.approx(0.31, abs=1e-9)


def test_little_on_the_server_counts_releases() -> None:
    """Poisson 30 req/s into a 20 req/s queue for 60 s: the server's accepted arrivals
    (Little's lambda x T) are exactly the releases; the wait is not server time."""
    doc = {
        "duration_s": 60,
        "seed": 4,
        "workload": {"arrivals": {"rate_per_s": 30}, "service_s": QUICK},
        "admission": {"policy": "virtual_queue", "capacity": 20},
    }
    r = Simulation(doc).run()
    served = r.admission["served"]
    assert round(r.little.arrival_rate_per_s * 60) == served
    assert r.little.relative_error < 0.01
    assert r.requests == r.completed + r.in_system_at_end  # none dropped in an hour's reach
    assert r.admission["wait_s"]["max"] > 10  # ~10 extra req/s pile up for 60 s
    # After the wait the server sees 20 req/s on one PS core (rho = 0.2): M/G/1-PS gives
    # 0.01 / (1 - 0.2) = 12.5 ms for Poisson releases; 20 per second at uniform instants
    # is no burstier, so 15 ms bounds it (the 30 s waits never count).
    assert r.latency.mean_s < 0.015
    assert r.admission_series["second_admitted"].max() <= 20


def test_segments_cut_at_every_boundary_inside_the_run() -> None:
    bounds = segment_bounds({60.0, 120.0} | {8.0 * k for k in range(1, 19)}, 150.0)
    cuts = [t0 for t0, _ in bounds] + [bounds[-1][1]]
    assert cuts == sorted({0.0, 150.0, 60.0, 120.0, *(8.0 * k for k in range(1, 19))})
    assert segment_bounds([], 5.0) == [(0.0, 5.0)]
    assert segment_bounds([0.0, 5.0, 7.0], 5.0) == [(0.0, 5.0)]


def test_discovery_measures_pages_in_pages() -> None:
    """Discovery's rate is in check-ins (pages here): goodput must count completed pages,
    not their 1 + 3 requests, else every epoch would seem to serve 4x the probe and
    discovery would pause at c0 for ever. 100 pages/s of 10 ms requests on 16 cores:
    the coarse probe grows 15 x 1.15^k, each epoch's goodput within 10% of its rate (the
    last epochs' releases spill into the next)."""
    doc = fixed([0.1], 1.0)
    doc["duration_s"] = 80
    doc["cluster"] = {"cores": 16}
    doc["workload"] = {
        "arrivals": {"rate_per_s": 100},
        "service_s": QUICK,
        "page": {
            "objects": {"dist": "constant", "value": 3},
            "gap_s": {"dist": "constant", "value": 0.01},
        },
    }
    doc["admission"] = {"policy": "virtual_queue", "capacity": "discover"}
    s = Simulation(doc).run().admission_series
    rate, goodput = s["epoch_rate_per_s"], s["epoch_goodput_per_s"]
    assert np.allclose(rate[:6], 15 * 1.15 ** np.arange(6))
    assert np.all(np.abs(goodput[:6] / rate[:6] - 1) < 0.1)
