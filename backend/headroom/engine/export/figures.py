"""The figures an export reads, each from one named field of a scenario or of an analysis'
result document (capacity: docs/methods/capacity.md; SCT: docs/methods/concurrency.md).
Reading goes through these accessors only, so a change of either document touches here."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from headroom.engine.export.model import ExportError
from headroom.engine.sim.scenario import Scenario, Tier, VmCount


@dataclass(frozen=True)
class ScaledPool:
    """The VMs an autoscaling policy scales: their bounds, boot time and cores."""

    name: str | None  # the tier's name; None for a single-pool cluster
    vms: VmCount
    boot_s: float
    cores: int


@dataclass(frozen=True)
class SlaFigures:
    percentile: float
    threshold_s: float


@dataclass(frozen=True)
class ConnectionFigures:
    """Per server: MaxConn(T) (connections in service), the queue and its timeout; the
    rate per server MaxRate(T) when known; how many servers."""

    max_conn: int
    queue: int
    queue_timeout_s: float
    rate_per_s: float | None
    servers: int


def scaled_pool(scenario: Scenario) -> ScaledPool:
    """The pool the policy scales: the cluster, or its ``autoscaling.tier`` (default: the
    first tier whose VM bounds let it scale)."""
    tiers = scenario.cluster.tiers
    if tiers is None:
        c = scenario.cluster
        return ScaledPool(None, c.vms, c.boot_s, c.cores)
    wanted = getattr(scenario.autoscaling, "tier", None)
    tier = _tier(tiers, wanted)
    return ScaledPool(tier.name, tier.vms, tier.boot_s, tier.cores)


def _tier(tiers: list[Tier], wanted: str | None) -> Tier:
    if wanted is not None:
        return next(t for t in tiers if t.name == wanted)
    return next((t for t in tiers if t.vms.min < t.vms.max), tiers[0])


def scenario_sla(scenario: Scenario) -> SlaFigures:
    sla = scenario.sla
    if sla is None:
        raise ExportError("the scenario has no sla section (sla.threshold_s): nothing to export")
    return SlaFigures(sla.percentile, sla.threshold_s)


def scenario_connections(scenario: Scenario) -> ConnectionFigures:
    """MaxConn(T) per server from the admission stage (maxconn_sla), else the pool limit;
    the queue from the accept queue, timed out at the SLA threshold."""
    admission, cluster = scenario.admission, scenario.cluster
    limit = getattr(admission, "maxconn_sla", None) or cluster.pool_limit
    if cluster.tiers is not None or limit is None:
        raise ExportError(
            "the scenario sets no per-server connection limit (admission.maxconn_sla or "
            "cluster.pool_limit on a single-pool cluster); export from a capacity analysis"
        )
    timeout_s = scenario_sla(scenario).threshold_s
    return ConnectionFigures(limit, cluster.accept_queue or 0, timeout_s, None, cluster.vms.start)


def scenario_pools(scenario: Scenario) -> dict[str, int]:
    """Pool size per tier (``cluster.tiers[*].pool_limit``) or of the cluster."""
    cluster = scenario.cluster
    if cluster.tiers is not None:
        pools = {t.name: t.pool_limit for t in cluster.tiers if t.pool_limit is not None}
    else:
        pools = {} if cluster.pool_limit is None else {"cluster": cluster.pool_limit}
    if not pools:
        raise ExportError("the scenario sets no pool_limit: no pool size to export")
    return pools


def capacity_class(result: Mapping[str, Any], name: str | None) -> tuple[str, Mapping[str, Any]]:
    """A request class of a capacity result (``classes.<name>``; default "all")."""
    classes = result.get("classes")
    if not isinstance(classes, Mapping) or not classes:
        raise ExportError("this analysis has no request classes (is it a capacity analysis?)")
    chosen = name or ("all" if "all" in classes else next(iter(classes)))
    if chosen not in classes:
        raise ExportError(f"no request class {chosen!r}; the analysis has {sorted(classes)}")
    return chosen, classes[chosen]


def capacity_sla(cls: Mapping[str, Any]) -> SlaFigures:
    sla = _sla(cls)
    return SlaFigures(float(sla["percentile"]), float(sla["threshold_s"]))


def _sla(cls: Mapping[str, Any]) -> Mapping[str, Any]:
    sla = cls.get("sla")
    if not isinstance(sla, Mapping) or not sla.get("max_rate_per_s") or not sla.get("max_conn"):
        raise ExportError("this class has no SLA target (MaxRate(T), MaxConn(T)) to export")
    return sla


def servers_needed(cls: Mapping[str, Any]) -> int:
    """``servers_needed`` = ceil(peak / MaxRate(T)), at least 1."""
    return max(1, int(cls.get("servers_needed") or 1))


def capacity_connections(cls: Mapping[str, Any], servers: int | None) -> ConnectionFigures:
    """Per server: floor(MaxConn(T)) in service; a queue holding what MaxRate(T) brings in
    one T, timed out at T (a request waiting longer has missed its SLA already)."""
    sla = _sla(cls)
    threshold_s, rate = float(sla["threshold_s"]), float(sla["max_rate_per_s"])
    max_conn = max(1, math.floor(float(sla["max_conn"])))
    queue = max(1, math.ceil(rate * threshold_s))
    return ConnectionFigures(max_conn, queue, threshold_s, rate, servers or servers_needed(cls))


def sct_pools(result: Mapping[str, Any]) -> dict[str, int]:
    """The best pool size Q_lower per server (``servers.<name>.q_lower``)."""
    servers = result.get("servers")
    if not isinstance(servers, Mapping):
        raise ExportError("this analysis has no servers (is it a concurrency (SCT) analysis?)")
    pools = {n: int(s["q_lower"]) for n, s in servers.items() if (s.get("q_lower") or 0) >= 1}
    if not pools:
        raise ExportError("SCT found no best pool size for any server of this trace")
    return pools
