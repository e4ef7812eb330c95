from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from headroom.datasets.schemas import DatasetOut
from headroom.simulations.scenario_json import ScenarioJson


class StreamIn(BaseModel):
    """A live dataset that log shippers post lines to, parsed like an upload."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    workspace_id: int | None = Field(None, description="needed when you are in several")
    format: str | None = Field(
        None,
        description="a known format name (GET /datasets/formats); null or `auto`: "
        "detected from the first lines received",
    )
    log_format: str | None = Field(
        None, description="an Apache LogFormat or nginx log_format string (instead of format)"
    )


class StreamOut(BaseModel):
    dataset: DatasetOut
    lines_url: str = Field(description="where shippers post lines (this server's path)")


class LinesAccepted(BaseModel):
    """What one post of lines added to the stream's dataset."""

    dataset_id: int
    lines: int = Field(description="log lines in the post (after taking message/log fields)")
    accepted: int = Field(description="lines parsed into requests")
    rejected: int
    skipped: int = Field(description="structure lines: blank, directives, headers")
    format: str
    request_count: int = Field(description="the dataset's requests now (after retention)")
    updated_at: datetime


class ServiceStatsOut(BaseModel):
    """One service's requests (server spans and root spans) in a trace dataset."""

    service: str
    request_count: int
    error_rate: float | None = Field(description="5xx share; null: no status codes")
    mean_rate_per_s: float
    latency_mean_s: float
    latency_p50_s: float
    latency_p95_s: float
    latency_p99_s: float
    latency_max_s: float
    concurrency_mean: float = Field(
        description="requests in flight, time average (Little's law: sum of response times "
        "over the span the service's requests cover)"
    )
    concurrency_peak: int = Field(description="the most requests in flight at one instant")
    span_s: float


class ServiceStatsList(BaseModel):
    dataset_id: int
    items: list[ServiceStatsOut]


class TierOut(BaseModel):
    """One service of the call graph as a tier."""

    service: str
    depth: int = Field(description="hops below the root requests (the first time it is seen)")
    instances: int = Field(description="distinct servers (service instances) seen")
    requests: int
    self_time_mean_s: float = Field(
        description="mean of its requests' self times: duration less the child requests' intervals"
    )
    demand_mean_s: float = Field(description="mean self time per root request")


class CallGraphScenarioOut(BaseModel):
    """A multi-tier scenario (the simulator's document) built from a trace's call graph."""

    dataset_id: int
    roots: int = Field(description="root requests: the workload's arrivals")
    span_s: float
    tiers: list[TierOut]
    scenario: ScenarioJson
