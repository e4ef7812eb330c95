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
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


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
    """One request class: its own arrivals (or a ``share`` of the workload's), pages and
    service demands; ``kind`` and ``user`` place it in sla.md's classes (static/dynamic x
    top/normal), which the admission policies act on."""

    name: Annotated[str, Field(min_length=1)]
    arrivals: Arrivals | None = None
    share: Annotated[float, Field(gt=0, le=1)] | None = None
    page: Page | None = None
    service_s: DistSpec
    kind: Literal["static", "dynamic"] = "dynamic"
    user: Literal["top", "normal"] = "normal"


class Workload(_Strict):
    """One class written inline (arrivals, page, service_s), or several under ``classes``:
    each with its own ``arrivals``, or all with a ``share`` of the workload's ``arrivals``
    (each arrival's class drawn independently with these probabilities)."""

    arrivals: Arrivals | None = None
    page: Page | None = None
    service_s: DistSpec | None = None
    classes: Annotated[list[WorkloadClass], Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Workload:
        if self.classes is None:
            if self.arrivals is None or self.service_s is None:
                raise ValueError("arrivals and service_s are required (or give classes)")
            return self
        if self.page is not None or self.service_s is not None:
            raise ValueError("with classes, give page and service_s per class")
        if len({c.name for c in self.classes}) != len(self.classes):
            raise ValueError("class names must be unique")
        _check_shares(self.arrivals, self.classes)
        return self

    @property
    def shared_arrivals(self) -> bool:
        """Whether the classes split the workload's arrivals by ``share``."""
        return self.classes is not None and self.arrivals is not None

    def class_list(self) -> list[WorkloadClass]:
        """The classes, each with its own arrivals (a share's arrivals are the workload's
        thinned by the share: independent Poisson processes of rate share x rate)."""
        if self.classes is not None:
            if self.arrivals is None:
                return self.classes
            return [_with_share(c, self.arrivals) for c in self.classes]
        assert self.arrivals is not None and self.service_s is not None
        return [
            WorkloadClass(
                name="default", arrivals=self.arrivals, page=self.page, service_s=self.service_s
            )
        ]


def _with_share(c: WorkloadClass, arrivals: Arrivals) -> WorkloadClass:
    share = c.share or 1.0
    if arrivals.rate_per_s is not None:
        scaled = arrivals.model_copy(update={"rate_per_s": arrivals.rate_per_s * share})
    else:
        assert arrivals.profile is not None
        steps = [(t, rate * share) for t, rate in arrivals.profile]
        scaled = arrivals.model_copy(update={"profile": steps})
    return c.model_copy(update={"arrivals": scaled, "share": None})


def _check_shares(arrivals: Arrivals | None, classes: list[WorkloadClass]) -> None:
    if arrivals is None:
        if any(c.arrivals is None or c.share is not None for c in classes):
            raise ValueError("every class needs arrivals (or give workload arrivals and shares)")
        return
    if any(c.arrivals is not None or c.share is None for c in classes):
        raise ValueError("with workload arrivals, every class needs a share and no arrivals")
    if arrivals.times_s is not None or arrivals.dataset is not None:
        raise ValueError("class shares split a rate_per_s or profile, not recorded times")
    total = sum(c.share or 0.0 for c in classes)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"class shares must add up to 1 (they add up to {total:g})")


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


class Tier(_Strict):
    """One tier of a multi-tier cluster (web -> app -> db): a pool of identical VMs.

    ``service_s`` is the demand a request puts on this tier (one core, speed 1); when
    omitted, the request's class ``service_s`` is used. ``pool_limit`` caps the requests
    a VM holds at once (threads or connections), including those waiting downstream."""

    name: Annotated[str, Field(min_length=1)]
    vms: VmCount = VmCount()
    cores: Annotated[int, Field(ge=1)] = 1
    speed: PosFloat = 1.0
    discipline: Literal["ps", "fcfs"] = "ps"
    boot_s: NonNegFloat = 30.0
    pool_limit: Annotated[int, Field(ge=1)] | None = None
    accept_queue: Annotated[int, Field(ge=0)] | None = None
    overhead: Overhead | None = None
    price_per_vm_hour: NonNegFloat = 1.0
    service_s: DistSpec | None = None


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
    # Multi-tier clusters (issue 7): a request visits every tier in order, holding a pool
    # slot upstream while it is served downstream (tiers.py). With tiers, every VM
    # setting is given per tier and the top-level fields above must stay unset.
    tiers: Annotated[list[Tier], Field(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _tiers_alone(self) -> Cluster:
        if self.tiers is None:
            return self
        clash = sorted(self.model_fields_set - {"tiers"})
        if clash:
            raise ValueError(
                f"with tiers, set {clash[0]} per tier (cluster.tiers[*].{clash[0]}), "
                "not at the top level"
            )
        names = [t.name for t in self.tiers]
        if len(set(names)) != len(names):
            raise ValueError("tier names must be unique (cluster.tiers[*].name)")
        return self


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
    tier: str | None = None  # multi-tier clusters: the tier scaled (default: first scalable)


class ConcurrencyAwarePolicy(ThresholdPolicy):
    """concurrency.md: threshold scaling of ``tier``; after every scale-out or scale-in,
    SCT over the last ``sct_window_s`` of each downstream VM (intervals of
    ``sct_interval_s``) and its pool limit set to Q_lower (tiered clusters only)."""

    policy: Literal["concurrency_aware"]  # type: ignore[assignment]
    sct_interval_s: Annotated[float, Field(gt=0, le=10)] = 0.05
    sct_window_s: Annotated[float, Field(gt=0, le=3600)] = 180.0
    sct_min_intervals: Annotated[int, Field(ge=1)] = 10


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
    | LatencySloPolicy
    | ConcurrencyAwarePolicy,
    Field(discriminator="policy"),
]


class NoAdmission(_Strict):
    """Every request is admitted (and queues without bound unless the pool says otherwise)."""

    policy: Literal["none"] = "none"


class PartitionAdmission(_Strict):
    """sla.md: SwitchAdm, StaticPart, DynamicPart. Per server: ``maxconn_sla`` =
    MaxConn_D(T_D), ``maxconn`` = MaxConn_D; ``maxconn_static_sla`` = MaxConn_S(T_S) (the
    static-connection threshold of SwitchAdm; none = static requests are not limited)."""

    policy: Literal["switch_adm", "static_part", "dynamic_part"]
    maxconn_sla: Annotated[int, Field(ge=1)]
    maxconn: Annotated[int, Field(ge=1)]
    maxconn_static_sla: Annotated[int, Field(ge=1)] | None = None
    period_s: PosFloat = 10.0

    @model_validator(mode="after")
    def _ordered(self) -> PartitionAdmission:
        if self.maxconn_sla > self.maxconn:
            raise ValueError("maxconn_sla must be <= maxconn (MaxConn_D(T_D) <= MaxConn_D)")
        return self


class VirtualQueueAdmission(_Strict):
    """capacity-queue.md: the wait-time scheduler at a fixed capacity (req/s) or with
    online capacity discovery (``discover``; epochs of ``epoch_s``). ``hardness`` gives
    the units of capacity a request of a class consumes (default 1)."""

    policy: Literal["virtual_queue"]
    capacity: Literal["discover"] | PosFloat = "discover"
    max_wait_s: Annotated[int, Field(ge=1, le=86400)] = 3600
    epoch_s: PosFloat = 8.0
    c0: PosFloat = 15.0
    alpha: Annotated[float, Field(gt=1)] = 1.15
    beta: Annotated[float, Field(gt=0, lt=1)] = 0.8
    delta: Annotated[float, Field(gt=0, lt=1)] = 0.02
    n_f: Annotated[int, Field(ge=1)] = 7
    n_s: Annotated[int, Field(ge=1)] = 2
    epsilon: Annotated[float, Field(gt=0, lt=1)] = 0.1
    hardness: dict[str, PosFloat] = {}


Admission = Annotated[
    NoAdmission | PartitionAdmission | VirtualQueueAdmission,
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
