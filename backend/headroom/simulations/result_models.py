"""The simulation result documents as typed contracts: a run, a sweep and their parts.

Defined once here, published in OpenAPI (the TypeScript client is generated from them) and
used to read the documents stored in a job's Result. Documents stored by earlier versions
still validate: a field added since then is optional, and when absent it stays absent in
the API's JSON (the routes dump with ``exclude_unset``). Non-finite figures are stored as
null, so a series that may hold NaN is typed ``float | None``.

``RESULT_VERSION`` numbers the shape below; it rises when a field is renamed or removed
(adding an optional field keeps it), and is published in each model's JSON Schema.
"""

import json
from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter

RESULT_VERSION = 1

# A value a sweep sets at a dotted scenario path: a number, a string, or a whole block.
SweepValue = JsonValue


class ResultModel(BaseModel):
    """A part of a stored result document: unknown keys are refused (no silent loss)."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"x-result-version": RESULT_VERSION}
    )
    version: ClassVar[int] = RESULT_VERSION


class LatencySummary(ResultModel):
    mean: float | None
    median: float | None
    p95: float | None
    p99: float | None


class VmSummary(ResultModel):
    mean_allocated: float
    mean_active: float
    max_allocated: int
    vm_hours: float
    scaling_actions: int
    cost: float | None = None


class ClassSummary(ResultModel):
    latency_s: LatencySummary
    plt_s: LatencySummary | None
    rejected_fraction: float | None = Field(None, description="null: not recorded (older runs)")


class PartitionFigures(ResultModel):
    """StaticPart / DynamicPart: the High Set's size K, time-weighted mean and range."""

    k_mean: float
    k_min: int
    k_max: int


class WaitSummary(ResultModel):
    mean: float | None
    p95: float | None
    max: float | None


class QueueFigures(ResultModel):
    """A virtual queue: its capacity estimate, when it converged, served and dropped."""

    capacity_estimate_per_s: float | None
    converged_at_s: float | None
    served: int
    dropped: int
    wait_s: WaitSummary


AdmissionFigures = PartitionFigures | QueueFigures


class TierVms(ResultModel):
    mean_allocated: float
    mean_active: float
    max_allocated: int
    vm_hours: float
    cost: float


class TierPool(ResultModel):
    initial: int | None = Field(..., description="pool per VM at the start; null: unbounded")
    final: list[int | None] = Field(..., description="per VM at the end; null: unbounded")


class TierFigures(ResultModel):
    """One tier of a multi-tier run's summary."""

    vms: TierVms
    utilization_mean: float
    concurrency_mean: float
    concurrency_peak: int
    residence_s: float
    own_s: float
    latency_share: float | None
    pool: TierPool
    pool_changes: int


class RunSummary(ResultModel):
    """The CLI's summary plus the run's cost (``vms.cost``)."""

    requests: int
    pages: int
    plt_s: LatencySummary | None
    latency_s: LatencySummary
    vms: VmSummary
    classes: dict[str, ClassSummary] = Field(default_factory=dict)
    admission: AdmissionFigures | None = None
    tiers: dict[str, TierFigures] | None = None
    rejected_fraction: float
    sla_violation_fraction: float | None
    events: int
    wall_s: float
    seed: int | None
    engine_version: str | None = None


class WindowSeries(ResultModel):
    """Every tick series by LTTB (each with its own ``*_t_s``) and the SLA windows."""

    monitor_s: float
    allocated_vms_t_s: list[float]
    allocated_vms: list[float]
    active_vms_t_s: list[float]
    active_vms: list[float]
    arrivals_per_s_t_s: list[float]
    arrivals_per_s: list[float]
    completions_per_s_t_s: list[float]
    completions_per_s: list[float]
    rejected_per_s_t_s: list[float]
    rejected_per_s: list[float]
    utilization_t_s: list[float]
    utilization: list[float | None]
    waiting_t_s: list[float]
    waiting: list[float]
    in_system_t_s: list[float]
    in_system: list[float]
    window_s: float
    window_percentile: float | None = Field(
        None, description="the SLA's percentile (95 without an SLA): window_p95_latency_s"
    )
    window_t_s: list[float]
    window_p50_latency_s: list[float | None] | None = None
    window_p95_latency_s: list[float | None]
    window_p99_latency_s: list[float | None] | None = None
    window_violated: list[bool]


class Rates(ResultModel):
    """Per-tick series as bucket means ending at ``t_s`` (utilisation also the maxima)."""

    monitor_s: float
    bucket_s: float
    t_s: list[float]
    arrivals_per_s: list[float]
    completions_per_s: list[float]
    rejected_per_s: list[float]
    waiting: list[float]
    in_system: list[float]
    utilization: list[float]
    utilization_max: list[float]


class VmSteps(ResultModel):
    """Allocated and active VMs as a step function (a point where either changes)."""

    t_s: list[float]
    allocated_vms: list[float]
    active_vms: list[float]


class ScalingActionOut(ResultModel):
    t_s: float
    from_vms: int
    to_vms: int


class UtilizationBoxOut(ResultModel):
    allocated_vms: int
    samples: int
    min: float
    q1: float
    median: float
    q3: float
    max: float


class Cdf(ResultModel):
    x_s: list[float]
    fraction: list[float]


class ClassCdfs(ResultModel):
    name: str
    latency_cdf: Cdf
    plt_cdf: Cdf | None
    # null: not recorded (runs stored before they were)
    arrived: int | None = None
    rejected: int | None = None
    rejected_fraction: float | None = None


class PartitionSeries(ResultModel):
    """K(t) as a step function: ``k[i]`` from ``t_s[i]`` on."""

    kind: Literal["partition"]
    t_s: list[float]
    k: list[float]


class QueueSeries(ResultModel):
    """A virtual queue's discovery epochs and its per-second series in buckets."""

    kind: Literal["virtual_queue"]
    epoch_t_s: list[float]
    epoch_rate_per_s: list[float | None]
    epoch_goodput_per_s: list[float | None]
    epoch_response_s: list[float | None]
    epoch_power: list[float | None]
    epoch_estimate_per_s: list[float | None]
    epoch_phase: list[str]
    bucket_s: float
    bucket_t_s: list[float]
    second_offered: list[float]
    second_admitted: list[float]
    second_dropped: list[float]
    wait_mean_s: list[float | None]
    wait_max_s: list[float | None]


AdmissionSeries = Annotated[PartitionSeries | QueueSeries, Field(discriminator="kind")]


class Steps(ResultModel):
    """A step function: ``value[i]`` from ``t_s[i]`` on; null = unbounded or no active VM."""

    t_s: list[float]
    value: list[float | None]


class TierSeries(ResultModel):
    name: str
    allocated: Steps
    active: Steps
    pool: Steps = Field(..., description="mean pool limit per active VM")
    utilization: list[float] = Field(..., description="bucket means ending at TiersDocument.t_s")
    concurrency: list[float]
    waiting: list[float]


class PoolChangeOut(ResultModel):
    t_s: float
    tier: str
    vm: int
    from_pool: int | None = Field(..., description="null: unbounded")
    to_pool: int
    rule: str = Field(..., description="q_lower, explore or levels (the policy's rules 1-3)")
    q_lower: int | None = Field(..., description="SCT's estimates (null: not placed)")
    q_upper: int | None


class TiersDocument(ResultModel):
    """A multi-tier run's per-tier series and the pool changes its policy made."""

    scaled: str | None
    bucket_s: float
    t_s: list[float]
    tiers: list[TierSeries]
    pool_changes: list[PoolChangeOut]
    pool_changes_total: int


class RunDocument(ResultModel):
    """What the run page draws, each part a few thousand numbers at most."""

    kind: Literal["run"]
    summary: RunSummary
    series: WindowSeries
    rates: Rates
    vm_steps: VmSteps
    actions: list[ScalingActionOut]
    utilization_boxes: list[UtilizationBoxOut]
    latency_cdf: Cdf | None
    plt_cdf: Cdf | None
    classes: list[ClassCdfs] = Field(default_factory=list)
    admission: AdmissionFigures | None = None
    admission_series: AdmissionSeries | None = None
    tiers: TiersDocument | None = None


class ClassFigures(ResultModel):
    """Per class of a sweep row: p95 latency (PLT with pages), rejected fraction."""

    latency_p95_s: float | None
    plt_p95_s: float | None
    rejected_fraction: float


class SweepRow(ResultModel):
    """One run of a sweep: its values, the frontier's two coordinates, its whole summary."""

    index: int
    values: dict[str, SweepValue]
    cost: float | None
    vm_hours: float
    sla_violation_fraction: float | None
    rejected_fraction: float
    latency_p95_s: float | None
    plt_p95_s: float | None
    classes: dict[str, ClassFigures] = Field(default_factory=dict)
    admission: AdmissionFigures | None = None
    summary: RunSummary


class SweepAxis(ResultModel):
    path: str
    values: list[SweepValue]


class SweepDocument(ResultModel):
    kind: Literal["sweep"]
    axes: list[SweepAxis]
    runs: list[SweepRow]


ResultDocument = Annotated[RunDocument | SweepDocument, Field(discriminator="kind")]


class BestRun(RunSummary):
    """A sweep's best run: its values and its summary."""

    values: dict[str, SweepValue]


class SweepKeyNumbers(ResultModel):
    """A sweep's size and its cheapest run without SLA violations."""

    runs: int
    axes: list[str]
    best: BestRun


RESULT: TypeAdapter[RunDocument | SweepDocument] = TypeAdapter(ResultDocument)


def load_result(document: Mapping[str, JsonValue]) -> RunDocument | SweepDocument:
    """A stored result document (of any version) as its model."""
    return RESULT.validate_python(document)


def stored_json(document: BaseModel) -> str:
    """The document as stored: the fields it was given (an old document's missing ones
    stay missing), non-finite figures as null."""
    return document.model_dump_json(exclude_unset=True)


def stored(document: BaseModel) -> dict[str, JsonValue]:
    """``stored_json`` as a mapping, for a job's Result."""
    out: dict[str, JsonValue] = json.loads(stored_json(document))
    return out
