"""The issue-7 presets: a four-class site for the class-policies comparison, and an
overloaded server for the virtual queue. Every number is derived below.

Class policies (docs/methods/admission.md's classes, static/dynamic x top/normal, requests
dispatched one by one by weighted round robin to 6 one-core processor-sharing VMs):
- service: static exponential, mean 5 ms; dynamic exponential, mean 50 ms; half of the
  requests are dynamic, a fifth are top (shares 0.05 / 0.45 / 0.15 / 0.35), so a request
  needs 0.5 x 5 + 0.5 x 50 = 27.5 ms on average: 36.4 req/s per VM, 218 req/s for six.
- SLA: p95 of 1 s. On an M/M/1-PS server at utilisation rho a request of size x stays
  x / (1 - rho) on average; the p95 dynamic size is ln(20) x 50 ms = 0.15 s, so the
  dynamic p95 stays under 1 s while 0.15 / (1 - rho) <= 1, i.e. rho <= 0.85. There the
  server holds rho / (1 - rho) = 5.7 requests, 91% of them dynamic (they stay 10x longer):
  MaxConn_D(T_D) = 5. At rho = 0.92 (11.5 requests, about 10 dynamic) latency is still
  finite but past any useful SLA: MaxConn_D = 10.
- StaticPart's K = ceil(0.2 x 6 + 6 x 0.8 x (1 - 5 / 10)) = ceil(3.6) = 4 servers.
- The comparison sweeps the offered load over 100..300 req/s (0.46 to 1.38 of capacity).

Virtual queue (docs/methods/admission.md's check, on the server of the engine's discovery tests):
one VM of 4 cores with a constant 40 ms demand (configured capacity 4 / 0.04 = 100
req/s), a pool of 16 and the overhead model past 8 requests in service (x 0.98 each), so
at most 100 x 0.98^8 = 85 req/s get through and the power ratio peaks near 65 req/s.
90 req/s for 240 s keeps the discovery probing (it converges in about 180 s), then
40 req/s with a burst of 400 req/s for 5 s at 600 s (6x the capacity): the queue spreads
the backlog and the burst's 1,800 extra requests over the spare capacity instead of
queueing them in the server.
"""

from headroom.simulations.scenario_json import ScenarioJson, SweepJson

CLASS_POLICIES_LOADS_PER_S = [100.0, 150.0, 200.0, 250.0, 300.0]
CLASS_POLICIES = ["none", "switch_adm", "static_part", "dynamic_part"]
PARTITION_LIMITS = {"maxconn_sla": 5, "maxconn": 10, "period_s": 10.0}


def _class(name: str, share: float, kind: str, user: str, mean_s: float) -> ScenarioJson:
    service = {"dist": "exponential", "mean": mean_s}
    return {"name": name, "share": share, "kind": kind, "user": user, "service_s": service}


def class_policies() -> ScenarioJson:
    """The four-class site; admission none (the comparison sets each policy)."""
    return {
        "name": "four classes, 6 VMs",
        "duration_s": 300,
        "seed": 11,
        "workload": {
            "arrivals": {"rate_per_s": 200.0},
            "classes": [
                _class("static_top", 0.05, "static", "top", 0.005),
                _class("static_normal", 0.45, "static", "normal", 0.005),
                _class("dynamic_top", 0.15, "dynamic", "top", 0.05),
                _class("dynamic_normal", 0.35, "dynamic", "normal", 0.05),
            ],
        },
        "cluster": {"vms": {"min": 6, "max": 6, "start": 6}, "cores": 1, "discipline": "ps"},
        "dispatch": {"policy": "weighted_round_robin", "per": "request"},
        "autoscaling": {"policy": "none"},
        "admission": {"policy": "none"},
        "sla": {"percentile": 95, "threshold_s": 1.0, "window_s": 30},
    }


def admission_for(policy: str, limits: ScenarioJson | None = None) -> ScenarioJson:
    """The admission block of one policy of the comparison."""
    if policy == "none":
        return {"policy": "none"}
    return {"policy": policy, **(limits or PARTITION_LIMITS)}


def class_policies_sweep(
    loads_per_s: list[float] | None = None, limits: ScenarioJson | None = None
) -> SweepJson:
    """The comparison as one sweep: the admission block x the offered load."""
    return {
        "path": "admission",
        "values": [admission_for(p, limits) for p in CLASS_POLICIES],
        "second": {
            "path": "workload.arrivals.rate_per_s",
            "values": loads_per_s or CLASS_POLICIES_LOADS_PER_S,
        },
    }


def virtual_queue() -> ScenarioJson:
    """The overloaded server, without an admission stage (the page adds the queue)."""
    return {
        "name": "one 4-core server, 100 req/s configured, overload and a burst",
        "duration_s": 900,
        "seed": 13,
        "workload": {
            "arrivals": {"profile": [[0, 90.0], [240, 40.0], [600, 400.0], [605, 40.0]]},
            "service_s": {"dist": "constant", "value": 0.04},
        },
        "cluster": {
            "vms": {"min": 1, "max": 1, "start": 1},
            "cores": 4,
            "discipline": "ps",
            "pool_limit": 16,
            "overhead": {"q_upper": 8, "factor": 0.98},
        },
        "dispatch": {"policy": "least_connections", "per": "request"},
        "autoscaling": {"policy": "none"},
        "sla": {"percentile": 95, "threshold_s": 0.5, "window_s": 30},
    }


def with_virtual_queue(scenario: ScenarioJson) -> ScenarioJson:
    """The scenario with a discovering virtual queue in front of it."""
    return {**scenario, "admission": {"policy": "virtual_queue", "capacity": "discover"}}


def virtual_queue_server_text(scenario: ScenarioJson) -> str:
    """The server of a virtual-queue scenario in words, from its numbers."""
    cluster = scenario["cluster"]
    service_s = float(scenario["workload"]["service_s"]["value"])
    capacity = cluster["cores"] / service_s
    return (
        f"one {cluster['cores']}-core PS VM of {service_s * 1000:g} ms per request "
        f"(configured capacity {capacity:g} req/s, a pool of {cluster['pool_limit']})"
    )


def _rate_text(rate_per_s: float) -> str:
    return f"{rate_per_s:g} req/s"


def virtual_queue_description(scenario: ScenarioJson) -> str:
    """The preset's description, read from its profile (so the two cannot disagree): each
    step as "<rate> from <t> s", a step shorter than a minute as a burst."""
    profile = scenario["workload"]["arrivals"]["profile"]
    ends = [t for t, _ in profile[1:]] + [scenario["duration_s"]]
    parts = []
    for (t_s, rate), end_s in zip(profile, ends, strict=True):
        span = f"{end_s - t_s:g} s"
        kind = "a burst of " if end_s - t_s < 60 else ""
        parts.append(f"{kind}{_rate_text(rate)} for {span} (from {t_s:g} s)")
    return f"{'; then '.join(parts)}; on {virtual_queue_server_text(scenario)}."
