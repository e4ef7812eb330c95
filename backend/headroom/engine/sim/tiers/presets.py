"""The three-tier scenario of the concurrency-aware scaling check and its figures.

web -> app -> db. Only the app tier scales (threshold policy); the db is one VM.
Derivation of the numbers (docs/methods/concurrency.md's typical values):
- db: 15 cores, 30 ms mean demand per query (exponential), processor sharing. Its SCT
  throughput rises linearly, n / 30 ms, up to n = 15 (all cores busy: TP_max = 500
  queries/s), so its SCT peak, Q_lower, is 15, the spec's typical database value.
  The overhead model (q_upper 20, factor 0.9925) is the descending stage: with n > 20
  requests in the db, throughput is 500 x 0.9925^(n - 20) (40 connections: 430/s,
  60: 370/s, 80: 318/s).
- app: 1 core, 10 ms per request, a pool of 10 threads (the usual configured
  maxThreads, here equal to the spec's 1-core optimum of 10), 1 to 8 VMs. A thread is
  held while its query runs in the db, so n_app app VMs let at most 10 n_app queries
  reach the db: 2 VMs (20) never enter the descending stage, 8 VMs (80) bring it to
  318/s. With the db unloaded the app's own SCT peak is (10 + 30) / 10 = 4 requests per
  core. 8 VMs hold the busiest profile (411 req/s) at 51% busy.
- web: 2 VMs of 4 cores, 1 ms per request, no pool limit (it only relays).
- load: the profile's rates x ``rate_scale`` (0.75: 52-411 req/s, the db at most 82%
  busy at its optimum, so every spike that remains is self-inflicted overload).
- autoscaling of the app tier: utilisation band [0.4, 0.75] over one 10 s step, scaled
  out to the band's middle at once (``band_middle``), 20 s cooldown, 20 s boot; the
  concurrency-aware variant re-runs SCT (0.5 s intervals, last 180 s) on the db after
  every action. ``time_scale`` < 1 compresses the profile and every time constant of
  the control loop alike (tests run a 6x compressed hour): boot, step, cooldown, and
  the SCT window and interval (360 intervals per window at any scale; an uncompressed
  180 s window spans a third of a 10-minute hour and mixes large_variation's swings).

Calibration (docs/policies.md, "Concurrency-aware scaling on the six bursty profiles"):
the published comparison saw hardware-only scaling's p99 in seconds (at most about
4 s) on these six shapes. With one VM per 15 s step, a 30 s cooldown and boot, up to 12
app VMs and factor 0.97, the app tier lagged every rise by a minute or more, then
released its backlog through up to 120 db connections, where the db serves under 100
queries/s: minutes of collapse (p99 up to 1,476 s). The loop now lags a rise by
seconds, at most 80 connections reach the db, and past its peak it degrades (318/s at
80) rather than collapses: hardware-only p99 0.17-13.4 s over the full hour.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from headroom.engine.sim import sketch
from headroom.engine.sim.results import SimulationResult

SCT = {"sct_interval_s": 0.5, "sct_window_s": 180.0}


def _sct(time_scale: float) -> dict[str, float]:
    return {key: value * time_scale for key, value in SCT.items()}


def _exp(mean_s: float) -> dict[str, Any]:
    return {"dist": "exponential", "mean": mean_s}


def _tiers(time_scale: float) -> list[dict[str, Any]]:
    web = {"name": "web", "vms": {"min": 2, "max": 2, "start": 2}, "cores": 4}
    app = {"name": "app", "vms": {"min": 1, "max": 8, "start": 2}, "pool_limit": 10}
    db = {"name": "db", "cores": 15, "overhead": {"q_upper": 20, "factor": 0.9925}}
    return [
        {**web, "service_s": _exp(0.001)},
        {**app, "boot_s": 20 * time_scale},
        {**db, "service_s": _exp(0.030)},
    ]


def concurrency_scenario(
    profile: list[tuple[float, float]],
    policy: str,
    seed: int = 1,
    time_scale: float = 1.0,
    rate_scale: float = 0.75,
) -> dict[str, Any]:
    """The scenario document for one bursty profile under ``threshold`` (hardware only)
    or ``concurrency_aware`` scaling."""
    steps = [[t * time_scale, r * rate_scale] for t, r in profile]
    duration = (profile[-1][0] + (profile[-1][0] - profile[-2][0])) * time_scale
    return {
        "name": f"three tiers, {policy}",
        "duration_s": duration,
        "seed": seed,
        "workload": {"arrivals": {"profile": steps}, "service_s": _exp(0.010)},
        "cluster": {"tiers": _tiers(time_scale)},
        "autoscaling": {
            "policy": policy,
            "tier": "app",
            "lower": 0.4,
            "upper": 0.75,
            "time_steps": 1,
            "step_size": "band_middle",
            "step_s": 10 * time_scale,
            "cooldown_s": 20 * time_scale,
            **(_sct(time_scale) if policy == "concurrency_aware" else {}),
        },
        "sla": {"threshold_s": 1.0, "window_s": 10 * time_scale},
    }


def scale_out_p99_s(result: SimulationResult, span_s: float) -> list[float]:
    """Per scale-out, the end-to-end p99 of the requests completed in the ``span_s``
    after it (whole SLA windows starting in [t, t + span_s)); NaN if none completed."""
    hist = result.tier_series["window_hist"] if result.tier_series else None
    if hist is None:
        return []
    width = result.series.window_s
    out = []
    for action in result.actions:
        if action.to_vms <= action.from_vms:
            continue
        lo = int(np.ceil(action.t_s / width - 1e-9))
        hi = int(np.ceil((action.t_s + span_s) / width - 1e-9))
        rows = hist[lo:hi].sum(axis=0)
        q = sketch.sketch_quantiles(rows, sketch.COARSE_ALPHA, np.array([0.99]))[0]
        out.append(float(q))
    return out
