"""The policy scenarios built from a dataset's characterization (the policy pages
show the demo dataset's own traffic, not made-up numbers).

From the characterization: the hourly page arrival rates of its workload model (summed
over the user classes), the static/dynamic request shares, the top/normal user shares
and, when the log has response times, the median latency of each request kind as that
kind's mean service time. What the log cannot say is stated and filled in:
- no top users under the dataset's rules: a fifth of each request kind is taken as top
  (the class-policies preset's share);
- no response times: the class-policies preset's 5 ms (static) and 50 ms (dynamic).

Class policies, on the class-policies preset's 6 one-core PS VMs with a p95 SLA of 1 s:
capacity = 6 / (mean demand); MaxConn_D(T_D) and MaxConn_D follow class_presets'
derivation for this mix (:func:`partition_limits`); the sweep's five offered loads are
the dataset's hourly rates at the 10/30/50/70/100th percentiles, all multiplied by one
factor that puts the busiest hour at 1.4x the cluster's capacity.

Virtual queue, on the virtual-queue preset's server (configured capacity 100 req/s):
the dataset's hourly profile compressed to 10 s per hour and multiplied by one factor
that puts the busiest hour at 1.3x the configured capacity (the quiet hours then drain
the backlog the busy ones leave).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from headroom.simulations import class_presets
from headroom.simulations.scenario_json import ScenarioJson, SweepJson

SERVERS = 6
SLA_S = 1.0
DEFAULT_TOP_SHARE = 0.2
DEFAULT_MEAN_S = {"static": 0.005, "dynamic": 0.05}
LOAD_QUANTILES = (0.1, 0.3, 0.5, 0.7, 1.0)
PEAK_OF_CAPACITY = 1.4
QUEUE_PEAK_OF_CAPACITY = 1.3
QUEUE_CAPACITY_PER_S = 100.0
HOUR_AS_S = 10.0
HOUR_S = 3600.0


@dataclass(frozen=True)
class ClassMix:
    """Request-kind shares, the top-user share and each kind's mean service time."""

    static_share: float
    top_share: float
    static_mean_s: float
    dynamic_mean_s: float
    top_assumed: bool
    service_assumed: bool

    @property
    def mean_demand_s(self) -> float:
        return self.static_share * self.static_mean_s + (1 - self.static_share) * (
            self.dynamic_mean_s
        )

    @property
    def dynamic_work_fraction(self) -> float:
        """The dynamic requests' share of the work, so (processor sharing) of those present."""
        return (1 - self.static_share) * self.dynamic_mean_s / self.mean_demand_s


def hourly_rates(model: Mapping[str, Any]) -> tuple[np.ndarray, float]:
    """The model's page arrival rates at each profile step, summed over its classes (each
    class's profile is a step function: a rate holds until the class's next step). A
    profile finer than an hour is averaged per hour (each step weighted by the seconds of
    the model it holds), so the presets see hourly rates whatever the model's step."""
    step = float(model.get("profile_step_s", 3600.0))
    duration = float(model["duration_s"])
    grid = np.arange(max(math.ceil(duration / step), 1)) * step
    total = np.zeros(grid.size)
    for cls in model["classes"]:
        steps = np.asarray(cls["profile"], dtype=float).reshape(-1, 2)
        at = np.searchsorted(steps[:, 0], grid, side="right") - 1
        total += np.where(at >= 0, steps[np.maximum(at, 0), 1], 0.0)
    if step >= HOUR_S or HOUR_S % step:
        return total, step
    held = np.clip(np.minimum(grid + step, duration) - grid, 1e-9, None)
    hour = (grid // HOUR_S).astype(np.int64)
    return np.bincount(hour, total * held) / np.bincount(hour, held), HOUR_S


def _busiest(rates: np.ndarray) -> float:
    peak = float(rates.max())
    if not peak > 0:
        raise ValueError("model.classes: no arrivals in any profile step")
    return peak


def class_mix(characterization: Mapping[str, Any]) -> ClassMix:
    classes = characterization.get("classes") or {}
    request = classes.get("request") or {}
    kinds = request.get("static", 0.0) + request.get("dynamic", 0.0)
    static_share = request.get("static", 0.0) / kinds if kinds > 0 else 0.5
    top = (classes.get("user") or {}).get("top", 0.0)
    measured = characterization.get("latency_by_class") or {}
    means = {
        kind: float(measured[kind]["p50_s"]) if measured.get(kind) else DEFAULT_MEAN_S[kind]
        for kind in ("static", "dynamic")
    }
    return ClassMix(
        static_share=min(max(static_share, 0.0), 1.0),
        top_share=top if 0 < top < 1 else DEFAULT_TOP_SHARE,
        static_mean_s=max(means["static"], 1e-6),
        dynamic_mean_s=max(means["dynamic"], 1e-6),
        top_assumed=not 0 < top < 1,
        service_assumed=not all(measured.get(k) for k in ("static", "dynamic")),
    )


def partition_limits(mix: ClassMix, sla_s: float = SLA_S) -> ScenarioJson:
    """MaxConn_D(T_D) and MaxConn_D per server (class_presets' derivation): an M/M/1-PS
    server keeps the dynamic p95 (ln 20 x the dynamic mean, stretched by 1 / (1 - rho))
    under the SLA up to rho_sla; it then holds rho / (1 - rho) requests, the dynamic
    ones in proportion to their work. MaxConn_D is the same count at rho = 0.92."""
    p95_size_s = math.log(20) * mix.dynamic_mean_s
    rho_sla = min(max(1 - p95_size_s / sla_s, 0.05), 0.9)

    def dynamic_present(rho: float) -> int:
        return max(round(mix.dynamic_work_fraction * rho / (1 - rho)), 1)

    maxconn_sla = dynamic_present(rho_sla)
    maxconn = max(dynamic_present(0.92), maxconn_sla)
    return {"maxconn_sla": maxconn_sla, "maxconn": maxconn, "period_s": 10.0}


def _classes(mix: ClassMix) -> list[ScenarioJson]:
    shares = {"static": mix.static_share, "dynamic": 1 - mix.static_share}
    means = {"static": mix.static_mean_s, "dynamic": mix.dynamic_mean_s}
    users = {"top": mix.top_share, "normal": 1 - mix.top_share}
    return [
        {
            "name": f"{kind}_{user}",
            "share": round(shares[kind] * users[user], 6),
            "kind": kind,
            "user": user,
            "service_s": {"dist": "exponential", "mean": round(means[kind], 6)},
        }
        for kind in ("static", "dynamic")
        for user in ("top", "normal")
        if shares[kind] * users[user] > 0
    ]


def _normalised_shares(classes: list[ScenarioJson]) -> list[ScenarioJson]:
    """Rounded shares adjusted to add up to exactly 1 (the scenario checks the sum)."""
    total = sum(c["share"] for c in classes)
    last = classes[-1]
    return [*classes[:-1], {**last, "share": round(last["share"] + 1 - total, 6)}]


@dataclass(frozen=True)
class PolicyPreset:
    scenario: ScenarioJson
    description: str
    sweep: SweepJson | None = None


def class_policies_from(characterization: Mapping[str, Any], name: str) -> PolicyPreset:
    """The four-class comparison on the dataset's mix, swept over its scaled hourly loads."""
    mix = class_mix(characterization)
    rates, _ = hourly_rates(characterization["model"])
    capacity = SERVERS / mix.mean_demand_s
    factor = PEAK_OF_CAPACITY * capacity / _busiest(rates)
    loads = [round(float(np.quantile(rates, q)) * factor, 1) for q in LOAD_QUANTILES]
    limits = partition_limits(mix)
    scenario = class_presets.class_policies()
    scenario["name"] = (
        f"{name}: hourly loads x{factor:,.0f} (busiest hour {PEAK_OF_CAPACITY:g}x capacity)"
    )
    scenario["workload"] = {
        "arrivals": {"rate_per_s": loads[2]},
        "classes": _normalised_shares(_classes(mix)),
    }
    sweep = class_presets.class_policies_sweep(loads, limits)
    return PolicyPreset(scenario, _class_description(mix, capacity, factor, loads, limits), sweep)


def _class_description(
    mix: ClassMix, capacity: float, factor: float, loads: list[float], limits: ScenarioJson
) -> str:
    top = "assumed: the log marks no top users" if mix.top_assumed else "from the log"
    service = "assumed: no response times" if mix.service_assumed else "median latencies"
    return (
        f"The dataset's request mix: {mix.static_share:.0%} static, "
        f"{1 - mix.static_share:.0%} dynamic; {mix.top_share:.0%} top ({top}). Service "
        f"{mix.static_mean_s * 1000:g} / {mix.dynamic_mean_s * 1000:g} ms ({service}) on "
        f"{SERVERS} one-core PS VMs ({capacity:.0f} req/s), p95 SLA {SLA_S:g} s. Offered "
        f"loads: its hourly page rates at the 10/30/50/70/100th percentiles, each x"
        f"{factor:,.0f} so the busiest hour is {PEAK_OF_CAPACITY:g}x capacity: "
        f"{', '.join(f'{v:g}' for v in loads)} req/s. MaxConn_D(T_D) = "
        f"{limits['maxconn_sla']}, MaxConn_D = {limits['maxconn']}."
    )


def virtual_queue_from(characterization: Mapping[str, Any], name: str) -> PolicyPreset:
    """The virtual-queue server under the dataset's hourly profile, compressed and scaled."""
    rates, step_s = hourly_rates(characterization["model"])
    factor = QUEUE_PEAK_OF_CAPACITY * QUEUE_CAPACITY_PER_S / _busiest(rates)
    profile = [[i * HOUR_AS_S, round(float(r) * factor, 2)] for i, r in enumerate(rates)]
    scenario = class_presets.virtual_queue()
    scenario["name"] = (
        f"{name}: hourly profile {step_s / HOUR_AS_S:g}x faster, x{factor:,.0f} "
        f"(busiest hour {QUEUE_PEAK_OF_CAPACITY:g}x capacity)"
    )
    scenario["duration_s"] = len(rates) * HOUR_AS_S
    scenario["workload"] = {**scenario["workload"], "arrivals": {"profile": profile}}
    peak, mean = float(rates.max()) * factor, float(rates.mean()) * factor
    description = (
        f"The dataset's {len(rates)} hourly page rates, each hour played in "
        f"{HOUR_AS_S:g} s ({step_s / HOUR_AS_S:g}x faster) and every rate x{factor:,.0f} so "
        f"the busiest hour is {peak:.0f} req/s ({QUEUE_PEAK_OF_CAPACITY:g}x the configured "
        f"capacity; mean {mean:.0f} req/s), on "
        f"{class_presets.virtual_queue_server_text(scenario)}."
    )
    return PolicyPreset(scenario, description)
