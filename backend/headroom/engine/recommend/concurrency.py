"""The concurrency-aware scaling recommendation of an SCT report: the server's best pool
size, and a three-tier scenario to try it, built on the engine's calibrated three-tier
preset (engine/sim/tiers/presets.py) with the analysed server as its database."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from headroom.engine.recommend import wording as w
from headroom.engine.recommend.model import Confidence, Link, Recommendation
from headroom.engine.sim.tiers.presets import concurrency_scenario as preset_scenario

BASE_SHARE, SPIKE_SHARE = 0.25, 0.8  # the load: a quarter of the server's peak, a spike to 0.8
SPIKE_S = (1200.0, 1500.0)  # the spike: five minutes of the hour
START_BUSY, SPIKE_BUSY = 0.6, 0.5  # app VMs at the start, and enough to hold the spike, so busy
MAX_VMS = 4096
EN_DASH = "\u2013"  # a range of numbers, as the web UI writes it


def sct_recommendation(name: str, server: Mapping[str, Any]) -> Recommendation | None:
    """SCT found this server's best pool size; concurrency-aware scaling re-derives it after
    every scaling action. None without a pool size or a peak throughput."""
    q, q_upper, tp = server.get("q_lower"), server.get("q_upper"), server.get("tp_max_per_s")
    if q is None or q < 1 or tp is None or not tp > 0:
        return None
    q = int(q)
    span = f"{q} and above (no decline seen)" if q_upper is None else f"{q}{EN_DASH}{int(q_upper)}"
    text = (
        f"SCT puts {name}'s best pool size at {q} concurrent requests (rational range {span}, "
        f"{w.rate_per_s(tp)} at the peak): concurrency-aware scaling resets the pools in front "
        "of it to this size after every scale-out, where hardware-only scaling lets them grow "
        "past it."
    )
    scenario = concurrency_scenario(name, q, None if q_upper is None else int(q_upper), tp)
    link = Link("/simulations/new", "Simulate concurrency-aware scaling", scenario)
    confidence: Confidence = "weak fit" if server.get("warnings") else "measured"
    return Recommendation(f"sct-{name}", name, text, confidence, "throughput-chart", link)


def _round3(x: float) -> float:
    return float(f"{x:.3g}")


def concurrency_scenario(
    server: str, q: int, q_upper: int | None, tp_per_s: float
) -> dict[str, Any]:
    """The preset's three tiers and control loop, with the analysed server (renamed "db" when
    it is called "app") as the database: a PS server of ``q`` cores, each request q / tp s,
    so it peaks at ``q`` concurrent requests and ``tp_per_s``, slowing by the preset's factor
    per request past ``q_upper``. The app tier keeps the preset's one-core VMs and boot time,
    its pools start at ``q``, and it may grow to hold the spike at half busy (at least the
    preset's maximum). Set the policy to threshold to compare."""
    preset = preset_scenario([(0.0, 1.0), (3600.0, 1.0)], "concurrency_aware")
    _web, app, db = preset["cluster"]["tiers"]
    app_s = preset["workload"]["service_s"]["mean"]
    base, spike = _round3(BASE_SHARE * tp_per_s), _round3(SPIKE_SHARE * tp_per_s)
    need = math.ceil(SPIKE_SHARE * tp_per_s * app_s / SPIKE_BUSY)
    vms = {
        "min": 1,
        "max": min(MAX_VMS, max(app["vms"]["max"], need)),
        "start": max(1, math.ceil(BASE_SHARE * tp_per_s * app_s / START_BUSY)),
    }
    overhead = {} if q_upper is None else {"overhead": {**db["overhead"], "q_upper": q_upper}}
    return {
        "name": f"concurrency-aware scaling in front of {server} (pool {q})",
        "duration_s": 3600,
        "seed": 1,
        "workload": {
            "arrivals": {"profile": [[0, base], [SPIKE_S[0], spike], [SPIKE_S[1], base]]},
            "service_s": preset["workload"]["service_s"],
        },
        "cluster": {
            "tiers": [
                {**app, "vms": vms, "pool_limit": q},
                {
                    "name": "db" if server == "app" else server,
                    "cores": q,
                    "service_s": {"dist": "exponential", "mean": _round3(q / tp_per_s)},
                    **overhead,
                },
            ]
        },
        "autoscaling": preset["autoscaling"],
        "sla": preset["sla"],
    }
