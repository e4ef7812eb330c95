"""Bursts of 10x capacity with an average below it (docs/methods/admission.md, "Expected
behaviour"): the virtual queue against drop-tail and an unbounded queue, on one server
and one arrival stream (the same seed, so the same check-ins in all three runs).

The server: one PS VM, 4 cores, a constant 0.04 s demand (configured 100 req/s), a pool
of 16 with the overhead model above 8 in service (x 0.98 each): at most
100 x 0.98^8 = 85 req/s get through. Unloaded response time: 0.04 s.
The demand: Poisson 15 req/s, plus a burst of 600 req/s (10x the queue's 60 req/s) for
3 s every 60 s; mean 15 + 600 x 3 / 60 = 45 req/s, below capacity. 420 s: 7 bursts.
- Virtual queue at 60 req/s (just under the server's power peak, 65 req/s by the sweep
  in test_sim_waiting_room_discovery): a burst's ~1800 check-ins wait up to
  1800 / 60 = 30 s and all get served; the server never gets more than 60 req/s in a
  second, where the sweep measured a mean response of 0.047 s. Inside a second the
  first 60 check-ins of a burst pass at once (wait 0, in ~0.1 s): those bunch at the
  server, so the tail (p99 ~0.5 s) is longer than the median (0.04 s).
- Drop-tail (no stage, an accept queue of 16 behind the pool): a burst brings 1800
  requests in 3 s to a server that passes 85 req/s: most of each burst is refused.
- Unbounded queue (no stage, an unbounded accept queue): nothing is refused, but a
  burst's backlog of ~1800 - 3 x 85 requests drains at 85 - 15 = 70 req/s: ~22 s.
"""

from __future__ import annotations

from typing import Any

from headroom.engine.sim import Simulation

UNLOADED_S = 0.04


def scenario(admission: dict[str, Any], accept_queue: int | None = None) -> dict[str, Any]:
    profile: list[list[float]] = []
    for k in range(7):
        profile += [[60.0 * k, 15.0], [60.0 * k + 30, 600.0], [60.0 * k + 33, 15.0]]
    cluster: dict[str, Any] = {
        "cores": 4,
        "pool_limit": 16,
        "overhead": {"q_upper": 8, "factor": 0.98},
    }
    if accept_queue is not None:
        cluster["accept_queue"] = accept_queue
    return {
        "duration_s": 420,
        "seed": 7,
        "workload": {
            "arrivals": {"profile": profile},
            "service_s": {"dist": "constant", "value": UNLOADED_S},
        },
        "cluster": cluster,
        "admission": admission,
    }


def test_the_queue_serves_every_burst_where_drop_tail_drops_and_unbounded_explodes() -> None:
    queue = Simulation(scenario({"policy": "virtual_queue", "capacity": 60})).run()
    drop_tail = Simulation(scenario({"policy": "none"}, accept_queue=16)).run()
    unbounded = Simulation(scenario({"policy": "none"})).run()
    # one check-in stream: ~18,900 requests (45 req/s x 420 s), the same in all three runs
    assert queue.requests == drop_tail.requests == unbounded.requests
    assert 17_000 < queue.requests < 21_000

    # the queue: nothing dropped, the longest wait about a burst's 30 s, and after the
    # wait the response time stays near the unloaded 0.04 s: median within 10%, p95
    # within 2.5x; the p99 (bunched immediate admissions, see above) under 1 s
    a = queue.admission
    assert a["dropped"] == 0 and queue.rejected == 0
    assert 25 <= a["wait_s"]["max"] <= 35
    assert queue.latency.p50_s < 1.1 * UNLOADED_S
    assert queue.latency.p95_s < 2.5 * UNLOADED_S
    assert queue.latency.p99_s < 1.0
    assert queue.admission_series["second_admitted"].max() <= 60

    # drop-tail: most of each burst refused (a burst's 1,800 vs ~300 that get through)
    assert drop_tail.rejected_fraction > 0.3
    # unbounded: nothing refused, but responses of tens of seconds (vs 0.04 s unloaded)
    assert unbounded.rejected == 0
    assert unbounded.latency.p95_s > 15.0
    assert unbounded.latency.p95_s > 100 * queue.latency.p95_s
