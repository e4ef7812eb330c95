"""Deployable settings from a simulated scenario or an analysis: an HPA or a KEDA
ScaledObject, an EC2 Auto Scaling policy, HAProxy / nginx / Envoy connection limits, pool
sizes, and the SLA as an SLO. :func:`from_scenario` and :func:`from_analysis` give the
file, or raise :class:`ExportError` saying why this source has no such file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from headroom.engine.export import aws as aws_
from headroom.engine.export import figures, kubernetes, pools, proxies, slo
from headroom.engine.export.model import (
    KINDS,
    ExportError,
    ExportFile,
    ExportOptions,
    Kind,
    SloFormat,
)
from headroom.engine.sim.scenario import Scenario

__all__ = [
    "KINDS",
    "ExportError",
    "ExportFile",
    "ExportOptions",
    "Kind",
    "SloFormat",
    "from_analysis",
    "from_scenario",
]

PROXIES = {"haproxy": proxies.haproxy, "nginx": proxies.nginx, "envoy": proxies.envoy}


def from_scenario(kind: Kind, scenario: Scenario, o: ExportOptions) -> ExportFile:
    if kind == "hpa":
        return kubernetes.hpa(scenario, o)
    if kind == "keda":
        return kubernetes.keda_from_scenario(scenario, o)
    if kind == "aws":
        return aws_.aws(scenario, o)
    if kind in PROXIES:
        return PROXIES[kind](_servers(figures.scenario_connections(scenario), o), o)
    if kind == "pools":
        return pools.pools(figures.scenario_pools(scenario), o, "the scenario's pool_limit")
    if kind == "slo":
        return slo.slo(figures.scenario_sla(scenario), o)
    raise ExportError(f"unknown kind {kind!r}; one of {', '.join(KINDS)}")


def from_analysis(
    kind: Kind, analysis: Literal["capacity", "sct"], result: Mapping[str, Any], o: ExportOptions
) -> ExportFile:
    """From a capacity analysis: keda, haproxy, nginx, envoy, slo; from an SCT
    (concurrency) analysis: pools."""
    if analysis == "sct":
        if kind != "pools":
            raise ExportError(f"{kind}: a concurrency (SCT) analysis gives pools only")
        return pools.pools(figures.sct_pools(result), o, "SCT's best pool size Q_lower")
    if kind in ("hpa", "aws", "pools"):
        raise ExportError(
            f"{kind}: a capacity analysis has no autoscaling policy or pool size; export it "
            "from a simulation (hpa, aws), a concurrency analysis (pools), or use keda"
        )
    if kind == "keda":
        return kubernetes.keda_from_capacity(result, o)
    _, cls = figures.capacity_class(result, o.service_class)
    if kind in PROXIES:
        return PROXIES[kind](figures.capacity_connections(cls, o.servers), o)
    if kind == "slo":
        return slo.slo(figures.capacity_sla(cls), o)
    raise ExportError(f"unknown kind {kind!r}; one of {', '.join(KINDS)}")


def _servers(c: figures.ConnectionFigures, o: ExportOptions) -> figures.ConnectionFigures:
    if o.servers is None:
        return c
    return figures.ConnectionFigures(
        c.max_conn, c.queue, c.queue_timeout_s, c.rate_per_s, o.servers
    )
