from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.analyses.documents import CapacityReportDoc, SctReportDoc
from headroom.auth.schemas import UserRef
from headroom.datasets.slices_params import SliceIn
from headroom.engine.capacity import CapacityParams, SctParams
from headroom.jobs.schemas import JobOut
from headroom.simulations.scenario_json import ScenarioJson


class CapacityParamsIn(BaseModel):
    """Parameters of a capacity analysis (knee curves, SLA targets, power ratio)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["capacity"] = "capacity"
    percentile: float = Field(95.0, ge=50.0, le=99.9, description="latency percentile per window")
    stance: Literal["strict", "balanced", "loose"] = "balanced"
    threshold_s: float | None = Field(
        None, gt=0.0, le=3600.0, description="SLA threshold; overrides the stance when given"
    )
    window_s: float = Field(10.0, ge=1.0, le=3600.0, description="length of a load window")
    bins: int = Field(20, ge=2, le=200, description="load bins of the knee curve")
    model_servers: int | None = Field(
        None, ge=1, le=10_000, description="c of the M/M/c model; null: host count or fitted"
    )
    per_server: bool = Field(True, description="per-server figures when the log names servers")
    slice: SliceIn | None = Field(
        None, description="analyse only these requests (a range and filters); null: all"
    )

    def to_engine(self) -> CapacityParams:
        return CapacityParams(
            window_s=self.window_s,
            percentile=self.percentile,
            bins=self.bins,
            stance=self.stance,
            threshold_s=self.threshold_s,
            model_servers=self.model_servers,
            per_server=self.per_server,
        )


class SctParamsIn(BaseModel):
    """Parameters of an SCT analysis of a latency trace (best pool size per server)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["sct"] = "sct"
    interval_ms: float = Field(50.0, ge=1.0, le=10_000.0, description="length of an interval")
    window_s: float | None = Field(
        None,
        gt=0.0,
        le=86_400.0,
        description="analyse only the most recent window (live use); null: the whole trace",
    )
    service: str | None = Field(
        None,
        max_length=200,
        description="only this service's requests (a trace with a service column, e.g. "
        "OpenTelemetry); null: all",
    )
    slice: SliceIn | None = Field(
        None,
        description="analyse only these requests (a range and filters; the range is the "
        "analysed window when window_s is null); null: all",
    )

    def to_engine(self) -> SctParams:
        return SctParams(interval_ms=self.interval_ms, window_s=self.window_s)


AnalysisParamsIn = Annotated[CapacityParamsIn | SctParamsIn, Field(discriminator="kind")]


class AnalysisOut(BaseModel):
    id: int
    workspace_id: int
    dataset_id: int
    kind: Literal["capacity", "sct"]
    params: AnalysisParamsIn
    created_at: datetime
    created_by: UserRef | None
    job: JobOut | None
    result: CapacityReportDoc | SctReportDoc | None = Field(
        None,
        description="the report once the job has succeeded (a capacity report for kind "
        "capacity, an SCT report for kind sct)",
    )


class AnalysisPage(BaseModel):
    items: list[AnalysisOut]
    total: int


ThresholdS = Annotated[float, Field(gt=0.0, le=3600.0)]


class RecommendationsIn(BaseModel):
    """The SLA thresholds to read a capacity analysis' recommendations at (the knee chart's
    handle); ignored for SCT analyses."""

    model_config = ConfigDict(extra="forbid")

    thresholds_s: dict[str, ThresholdS] = Field(
        default_factory=dict,
        description="SLA threshold per request class; a class left out keeps the analysis' "
        "own (its SLA, else its knee's latency)",
    )


class RecommendationLink(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    to: str = Field(..., description="the page to act on the recommendation")
    label: str
    # a scenario document: the simulations domain's, passed through to its editor
    scenario: ScenarioJson | None = Field(
        None, description="a scenario document to open the simulation editor with"
    )


class Recommendation(BaseModel):
    """One sentence with its number, the chart that shows the evidence, how far to trust it
    and where to act on it (engine.recommend)."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    class_name: str = Field(
        ...,
        description="the request class (capacity) or server (SCT) whose chart holds the "
        "evidence; empty for none",
    )
    text: str
    confidence: Literal["measured", "model", "lower bound", "weak fit"]
    chart: Literal["knee-chart", "throughput-chart", "power"]
    link: RecommendationLink | None = None


class RecommendationList(BaseModel):
    analysis_id: int
    thresholds_s: dict[str, float] = Field(
        ..., description="the threshold each class was read at (empty for SCT analyses)"
    )
    items: list[Recommendation]
