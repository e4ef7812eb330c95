"""The scenario document (simulation.md, "The scenario document"): pydantic v2 models.

Unknown keys are errors; every field is defaulted except ``duration_s`` and
``workload``. :func:`load_scenario` accepts YAML or JSON text or a mapping, and
raises :class:`ScenarioError` whose message names the offending field path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from headroom.engine.sim import distributions as d

PosFloat = Annotated[float, Field(gt=0)]
NonNegFloat = Annotated[float, Field(ge=0)]
Fraction = Annotated[float, Field(ge=0, le=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConstantDist(_Strict):
    dist: Literal["constant"]
    value: NonNegFloat


class UniformDist(_Strict):
    dist: Literal["uniform"]
    low: NonNegFloat
    high: NonNegFloat

    @model_validator(mode="after")
    def _ordered(self) -> UniformDist:
        if self.high < self.low:
            raise ValueError("high must be >= low")
        return self


class ExponentialDist(_Strict):
    dist: Literal["exponential"]
    mean: PosFloat


class LognormalDist(_Strict):
    dist: Literal["lognormal"]
    mu: float
    sigma: Annotated[float, Field(ge=0, lt=20)]


class ParetoDist(_Strict):
    dist: Literal["pareto"]
    alpha: PosFloat
    scale: PosFloat


class EmpiricalDist(_Strict):
    """Resample ``values``, or the named dataset's values (resolved at run time)."""

    dist: Literal["empirical"]
    values: Annotated[list[NonNegFloat], Field(min_length=1)] | None = None
    dataset: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> EmpiricalDist:
        if (self.values is None) == (self.dataset is None):
            raise ValueError("give exactly one of values, dataset")
        return self


class MixtureDist(_Strict):
    dist: Literal["mixture"]
    parts: Annotated[list[tuple[NonNegFloat, DistSpec]], Field(min_length=1)]


DistSpec = Annotated[
    ConstantDist
    | UniformDist
    | ExponentialDist
    | LognormalDist
    | ParetoDist
    | EmpiricalDist
    | MixtureDist,
    Field(discriminator="dist"),
]
MixtureDist.model_rebuild()


def build_distribution(
    spec: BaseModel, datasets: Mapping[str, Any] | None = None
) -> d.Distribution:
    """Turn a validated distribution spec into a distribution object."""
    try:
        return d.parse_distribution(spec.model_dump(exclude_none=True), datasets)
    except ValueError as exc:
        raise ScenarioError(f"workload: {exc}") from None


class Arrivals(_Strict):
    """Pages (or single requests) per second: exactly one source."""

    rate_per_s: NonNegFloat | None = None
    profile: list[tuple[NonNegFloat, NonNegFloat]] | None = None
    times_s: list[NonNegFloat] | None = None
    dataset: str | None = None
    time_scale: PosFloat = 1.0

    @model_validator(mode="after")
    def _one_source(self) -> Arrivals:
        given = [k for k in ("rate_per_s", "profile", "times_s", "dataset") if getattr(self, k)]
        if len(given) != 1 and not (self.rate_per_s == 0 and not given):
            raise ValueError("give exactly one of rate_per_s, profile, times_s, dataset")
        if self.profile is not None:
            starts = [t for t, _ in self.profile]
            if starts != sorted(starts):
                raise ValueError("profile steps must be sorted by t_s")
        return self


class Page(_Strict):
    objects: DistSpec
    gap_s: DistSpec
    push_fraction: Fraction = 0.0
    early_hints: bool = False


class WorkloadClass(_Strict):
    """One request class: its own arrivals, pages and service demands."""

    name: Annotated[str, Field(min_length=1)]
    arrivals: Arrivals
    page: Page | None = None
    service_s: DistSpec


class Workload(_Strict):
    """One class written inline (arrivals, page, service_s), or several under ``classes``."""

    arrivals: Arrivals | None = None
    page: Page | None = None
    service_s: DistSpec | None = None
    classes: Annotated[list[WorkloadClass], Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Workload:
        inline = (self.arrivals, self.page, self.service_s)
        if self.classes is not None:
            if any(x is not None for x in inline):
                raise ValueError("give either classes or arrivals/page/service_s, not both")
            if len({c.name for c in self.classes}) != len(self.classes):
                raise ValueError("class names must be unique")
        elif self.arrivals is None or self.service_s is None:
            raise ValueError("arrivals and service_s are required (or give classes)")
        return self

    def class_list(self) -> list[WorkloadClass]:
        if self.classes is not None:
            return self.classes
        assert self.arrivals is not None and self.service_s is not None
        return [
            WorkloadClass(
                name="default", arrivals=self.arrivals, page=self.page, service_s=self.service_s
            )
        ]


class VmCount(_Strict):
    min: Annotated[int, Field(ge=1)] = 1
    max: Annotated[int, Field(ge=1, le=4096)] = 1
    start: Annotated[int, Field(ge=1)] = 1

    @model_validator(mode="after")
    def _ordered(self) -> VmCount:
        if not self.min <= self.start <= self.max:
            raise ValueError("need min <= start <= max")
        return self


class Overhead(_Strict):
    """Above ``q_upper`` concurrent requests, each further one multiplies speed by ``factor``."""

    q_upper: Annotated[int, Field(ge=1)]
    factor: Annotated[float, Field(gt=0, le=1)]


class Cluster(_Strict):
    vms: VmCount = VmCount()
    cores: Annotated[int, Field(ge=1)] = 1
    speed: PosFloat = 1.0
    discipline: Literal["ps", "fcfs"] = "ps"
    boot_s: NonNegFloat = 30.0
    pool_limit: Annotated[int, Field(ge=1)] | None = None
    accept_queue: Annotated[int, Field(ge=0)] | None = None
    overhead: Overhead | None = None
    price_per_vm_hour: NonNegFloat = 1.0


DispatchName = Literal["round_robin", "weighted_round_robin", "least_connections", "lru", "random"]


class Dispatch(_Strict):
    policy: DispatchName = "least_connections"
    per: Literal["page", "request"] = "page"
    weights: Annotated[list[PosFloat], Field(min_length=1)] = [1.0]


class _Policy(_Strict):
    monitor_s: PosFloat = 0.1
    step_s: PosFloat = 60.0


class NoPolicy(_Policy):
    policy: Literal["none"] = "none"


class ThresholdPolicy(_Policy):
    policy: Literal["threshold"]
    lower: Fraction = 0.4
    upper: Fraction = 0.8
    time_steps: Annotated[int, Field(ge=1)] = 4
    cooldown_s: NonNegFloat = 40.0
    step_size: Annotated[int, Field(ge=1)] | Literal["band_middle"] = 1


class TargetTrackingPolicy(_Policy):
    policy: Literal["target_tracking"]
    step_s: PosFloat = 15.0
    target: Annotated[float, Field(gt=0, le=1)] = 0.6
    tolerance: Fraction = 0.1
    stabilization_s: NonNegFloat = 300.0


class StepPolicy(_Policy):
    policy: Literal["step"]
    bands: list[tuple[Fraction, Fraction, int]] = [(0.0, 0.3, -1), (0.8, 0.9, 1), (0.9, 1.0, 3)]
    time_steps: Annotated[int, Field(ge=1)] = 1
    cooldown_s: NonNegFloat = 60.0


class ScheduledPolicy(_Policy):
    policy: Literal["scheduled"]
    schedule: Annotated[list[tuple[NonNegFloat, Annotated[int, Field(ge=1)]]], Field(min_length=1)]


class PredictivePolicy(ThresholdPolicy):
    policy: Literal["predictive"]  # type: ignore[assignment]
    season_s: PosFloat = 86400.0
    horizon_s: PosFloat = 3600.0
    target_utilization: Annotated[float, Field(gt=0, le=1)] = 0.6


class LatencySloPolicy(_Policy):
    policy: Literal["latency_slo"]
    percentile: Annotated[float, Field(gt=0, lt=100)] = 95.0
    threshold_s: PosFloat | None = None
    window_s: PosFloat = 60.0
    scale_in_below: Fraction = 0.5
    lower: Fraction = 0.4
    cooldown_s: NonNegFloat = 60.0
    step_size: Annotated[int, Field(ge=1)] = 1


Autoscaling = Annotated[
    NoPolicy
    | ThresholdPolicy
    | TargetTrackingPolicy
    | StepPolicy
    | ScheduledPolicy
    | PredictivePolicy
    | LatencySloPolicy,
    Field(discriminator="policy"),
]


class Sla(_Strict):
    percentile: Annotated[float, Field(gt=0, lt=100)] = 95.0
    threshold_s: PosFloat
    window_s: PosFloat = 60.0


class Scenario(_Strict):
    name: str = "scenario"
    duration_s: PosFloat
    seed: Annotated[int, Field(ge=0)] = 0
    workload: Workload
    cluster: Cluster = Cluster()
    dispatch: Dispatch = Dispatch()
    autoscaling: Autoscaling = NoPolicy()
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

    @model_validator(mode="after")
    def _slo_threshold(self) -> Scenario:
        a = self.autoscaling
        if isinstance(a, LatencySloPolicy) and a.threshold_s is None and self.sla is None:
            raise ValueError("autoscaling.threshold_s: latency_slo needs it or an sla section")
        return self


class ScenarioError(ValueError):
    """A scenario failed validation; the message names the field path."""


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
