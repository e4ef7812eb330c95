"""The scenario document: pydantic v2 models (the parts are in this package's modules).

Unknown keys are errors; every field is defaulted except ``duration_s`` and
``workload``. :func:`load_scenario` accepts YAML or JSON text or a mapping, and
raises :class:`ScenarioError` whose message names the offending field path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, get_args

import yaml
from pydantic import Field, ValidationError, field_validator, model_validator

from headroom.engine.sim.scenario.base import PosFloat, ScenarioError, StrictModel
from headroom.engine.sim.scenario.cluster import Cluster, Dispatch, DispatchName
from headroom.engine.sim.scenario.policies import (
    Admission,
    Autoscaling,
    ConcurrencyAwarePolicy,
    LatencySloPolicy,
    NoAdmission,
    NoPolicy,
    VirtualQueueAdmission,
)
from headroom.engine.sim.scenario.workload import Workload


class Sla(StrictModel):
    percentile: Annotated[float, Field(gt=0, lt=100)] = 95.0
    threshold_s: PosFloat
    window_s: PosFloat = 60.0


class Scenario(StrictModel):
    name: str = "scenario"
    duration_s: PosFloat
    seed: Annotated[int, Field(ge=0)] = 0
    workload: Workload
    cluster: Cluster = Cluster()
    dispatch: Dispatch = Dispatch()
    autoscaling: Autoscaling = NoPolicy()
    admission: Admission = NoAdmission()
    sla: Sla | None = None

    @field_validator("dispatch", mode="before")
    @classmethod
    def _dispatch_name(cls, value: Any) -> Any:
        return {"policy": value} if isinstance(value, str) else value

    @field_validator("autoscaling", mode="before")
    @classmethod
    def _policy_default(cls, value: Any) -> Any:
        if isinstance(value, Mapping) and "policy" not in value:
            return {**value, "policy": "none"}
        return value

    @field_validator("admission", mode="before")
    @classmethod
    def _admission_default(cls, value: Any) -> Any:
        if isinstance(value, Mapping) and "policy" not in value:
            return {**value, "policy": "none"}
        return value

    @model_validator(mode="after")
    def _hardness_names(self) -> Scenario:
        a = self.admission
        if isinstance(a, VirtualQueueAdmission):
            names = {c.name for c in self.workload.class_list()}
            unknown = sorted(set(a.hardness) - names)
            if unknown:
                raise ValueError(f"admission.hardness: no class named {unknown[0]!r}")
        return self

    @model_validator(mode="after")
    def _tiered(self) -> Scenario:
        tiers, a = self.cluster.tiers, self.autoscaling
        tier = getattr(a, "tier", None)
        if tiers is None:
            if isinstance(a, ConcurrencyAwarePolicy):
                raise ValueError("autoscaling.policy: concurrency_aware needs cluster.tiers")
            if tier is not None:
                raise ValueError("autoscaling.tier: only for clusters with tiers")
            return self
        if tier is not None and tier not in {t.name for t in tiers}:
            raise ValueError(f"autoscaling.tier: no tier named {tier!r}")
        if self.admission.policy != "none":
            raise ValueError("admission.policy: admission stages do not run with cluster.tiers")
        if any(c.page is not None for c in self.workload.class_list()):
            raise ValueError("workload.page: pages do not run with cluster.tiers")
        if self.dispatch.policy != "least_connections":
            raise ValueError("dispatch.policy: tiers dispatch by least_connections only")
        return self

    @model_validator(mode="after")
    def _slo_threshold(self) -> Scenario:
        a = self.autoscaling
        if isinstance(a, LatencySloPolicy) and a.threshold_s is None and self.sla is None:
            raise ValueError("autoscaling.threshold_s: latency_slo needs it or an sla section")
        return self

    @model_validator(mode="after")
    def _partitioned_cluster(self) -> Scenario:
        """StaticPart and DynamicPart split a fixed cluster of N = cluster.vms.start VMs
        (N >= 2 is checked when a simulation is built: admission.partitions.prepare)."""
        policy = self.admission.policy
        if policy not in ("static_part", "dynamic_part"):
            return self
        if self.autoscaling.policy != "none":
            raise ValueError(
                f"autoscaling.policy: {policy} partitions a fixed cluster; set it to none "
                "(switch_adm works with autoscaling)"
            )
        return self


def _format(err: ValidationError) -> str:
    first = err.errors()[0]
    path = ".".join(str(p) for p in first["loc"]) or "(document)"
    more = f" (+{err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{path}: {first['msg']}{more}"


def load_scenario(source: str | Mapping[str, Any]) -> Scenario:
    """Validate a scenario from YAML or JSON text, or from an already-parsed mapping."""
    if isinstance(source, str):
        try:
            data = json.loads(source) if source.lstrip().startswith("{") else yaml.safe_load(source)
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            raise ScenarioError(f"(document): not valid YAML/JSON: {exc}") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise ScenarioError("(document): expected a mapping at the top level")
    try:
        return Scenario.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError(_format(exc)) from None


def scenario_json_schema() -> dict[str, Any]:
    """The published JSON Schema of the scenario document."""
    schema = Scenario.model_json_schema()
    dispatch = schema["properties"]["dispatch"]
    names = {"type": "string", "enum": list(get_args(DispatchName))}
    schema["properties"]["dispatch"] = {"anyOf": [{"$ref": "#/$defs/Dispatch"}, names]}
    schema["properties"]["dispatch"]["default"] = dispatch.get("default")
    return schema
