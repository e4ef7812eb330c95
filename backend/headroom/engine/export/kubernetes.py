"""Kubernetes: an autoscaling/v2 HorizontalPodAutoscaler for CPU policies, and a KEDA
ScaledObject on a Prometheus query for latency-SLO policies and a measured MaxRate(T)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from headroom.engine.export import figures
from headroom.engine.export import scaling as sc
from headroom.engine.export.model import ExportError, ExportFile, ExportOptions
from headroom.engine.export.yaml_text import dump, number
from headroom.engine.sim.scenario import (
    LatencySloPolicy,
    Scenario,
    TargetTrackingPolicy,
    ThresholdPolicy,
)

YAML = "application/yaml"


def _target_ref(o: ExportOptions) -> dict[str, str]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "name": o.deployment}


def _metadata(o: ExportOptions) -> dict[str, str]:
    return {"name": o.deployment, "namespace": o.namespace}


def _rule(window_s: int, kind: str, value: int, period_s: int) -> dict[str, Any]:
    policy = {"type": kind, "value": value, "periodSeconds": period_s}
    return {"stabilizationWindowSeconds": window_s, "selectPolicy": "Max", "policies": [policy]}


def behavior(policy: ThresholdPolicy | TargetTrackingPolicy) -> dict[str, Any]:
    """Scale-up and scale-down rules from the steps, step interval and cooldown."""
    if isinstance(policy, TargetTrackingPolicy):
        down = sc.seconds(policy.stabilization_s, sc.MAX_WINDOW_S)
        return {
            "scaleUp": {"stabilizationWindowSeconds": 0},
            "scaleDown": {"stabilizationWindowSeconds": down},
        }
    window_s, period_s = sc.sustained_s(policy), sc.action_period_s(policy)
    if policy.step_size == "band_middle":  # proportional, as HPA scales by itself
        up = {"stabilizationWindowSeconds": window_s}
    else:
        up = _rule(window_s, "Pods", policy.step_size, period_s)
    return {"scaleUp": up, "scaleDown": _rule(window_s, "Pods", 1, period_s)}


def hpa(scenario: Scenario, o: ExportOptions) -> ExportFile:
    policy = scenario.autoscaling
    target = sc.cpu_target(policy, "hpa")
    assert isinstance(policy, ThresholdPolicy | TargetTrackingPolicy)  # cpu_target refused others
    pool = figures.scaled_pool(scenario)
    cpu = {"type": "Utilization", "averageUtilization": target.percent}
    document = {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": _metadata(o),
        "spec": {
            "scaleTargetRef": _target_ref(o),
            "minReplicas": pool.vms.min,
            "maxReplicas": pool.vms.max,
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": cpu}}],
            "behavior": behavior(policy),
        },
    }
    note = (
        f"Scales Deployment {o.deployment} between {pool.vms.min} and {pool.vms.max} pods "
        f"(the scenario's VM bounds) to hold CPU at {target.percent}% ({target.source}); "
        "behavior carries its steps, step interval and cooldown. Set each pod's CPU request "
        f"to the VM's {pool.cores} core(s), as utilisation is measured against it."
        + _hpa_caveats(policy)
    )
    return ExportFile("hpa", dump(document), YAML, f"{o.deployment}-hpa.yaml", note)


def _hpa_caveats(policy: ThresholdPolicy | TargetTrackingPolicy) -> str:
    if isinstance(policy, TargetTrackingPolicy):
        return (
            f" The tolerance ({policy.tolerance:g}) is the controller's "
            "--horizontal-pod-autoscaler-tolerance (0.1 by default)."
        )
    if policy.policy in ("predictive", "concurrency_aware"):
        return f" Only the reactive part of the {policy.policy} policy is exported."
    return ""


def _selector(o: ExportOptions) -> str:
    return f'namespace="{o.namespace}",service="{o.deployment}"'


def _scaled_object(
    o: ExportOptions, bounds: tuple[int, int], trigger: dict[str, Any], extra: dict[str, Any]
) -> dict[str, Any]:
    spec = {
        "scaleTargetRef": {"name": o.deployment},
        **extra,
        "minReplicaCount": bounds[0],
        "maxReplicaCount": bounds[1],
        "triggers": [{"type": "prometheus", **trigger}],
    }
    return {
        "apiVersion": "keda.sh/v1alpha1",
        "kind": "ScaledObject",
        "metadata": _metadata(o),
        "spec": spec,
    }


def keda_from_scenario(scenario: Scenario, o: ExportOptions) -> ExportFile:
    policy = scenario.autoscaling
    if not isinstance(policy, LatencySloPolicy):
        raise ExportError(
            f"keda: exported for latency_slo policies (this one is {policy.policy}); "
            "a CPU policy is an hpa, a capacity analysis gives a request-rate keda"
        )
    threshold_s = policy.threshold_s or figures.scenario_sla(scenario).threshold_s
    bucket = f"{o.latency_metric}_bucket{{{_selector(o)}}}"
    window = f"{sc.seconds(policy.window_s, 86400)}s"
    query = (
        f"histogram_quantile({policy.percentile / 100:g}, sum by (le) (rate({bucket}[{window}])))"
    )
    trigger = {
        "metricType": "Value",
        "metadata": {
            "serverAddress": o.prometheus_url,
            "query": query,
            "threshold": f"{threshold_s:g}",
        },
    }
    period_s = sc.action_period_s(policy)
    advanced = {
        "horizontalPodAutoscalerConfig": {
            "behavior": {
                "scaleUp": _rule(0, "Pods", policy.step_size, period_s),
                "scaleDown": _rule(period_s, "Pods", 1, period_s),
            }
        }
    }
    pool = figures.scaled_pool(scenario)
    extra = {"pollingInterval": sc.seconds(policy.step_s, 3600), "advanced": advanced}
    document = _scaled_object(o, (pool.vms.min, pool.vms.max), trigger, extra)
    note = (
        f"Scales {o.deployment} between {pool.vms.min} and {pool.vms.max} pods on the "
        f"p{policy.percentile:g} latency over {window} against {threshold_s:g} s, adding "
        f"{policy.step_size} pod(s) at most every {period_s} s. The scenario also needs "
        f"utilisation under {policy.lower:g} to scale in, which a single trigger cannot say."
    )
    return ExportFile("keda", dump(document), YAML, f"{o.deployment}-scaledobject.yaml", note)


def keda_from_capacity(result: Mapping[str, Any], o: ExportOptions) -> ExportFile:
    name, cls = figures.capacity_class(result, o.service_class)
    links = figures.capacity_connections(cls, None)
    if links.rate_per_s is None:
        raise ExportError("keda: the class has no MaxRate(T)")
    needed = figures.servers_needed(cls)
    top = o.max_replicas or 2 * needed
    query = f"sum(rate({o.requests_metric}{{{_selector(o)}}}[1m]))"
    per_pod = number(links.rate_per_s)
    trigger = {
        "metricType": "AverageValue",
        "metadata": {"serverAddress": o.prometheus_url, "query": query, "threshold": f"{per_pod}"},
    }
    document = _scaled_object(o, (1, max(top, 1)), trigger, {})
    note = (
        f"Scales {o.deployment} so each pod takes at most {per_pod} req/s, the MaxRate(T) of "
        f"class {name} at T = {links.queue_timeout_s:.3g} s; up to {top} pods (twice the "
        f"{needed} the logged peak needs unless --max-replicas says otherwise)."
    )
    return ExportFile("keda", dump(document), YAML, f"{o.deployment}-scaledobject.yaml", note)
