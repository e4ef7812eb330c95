from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from headroom.auth.schemas import UserRef
from headroom.datasets.models import DatasetStatus
from headroom.engine.workload.summary import TrafficSummary
from headroom.jobs.schemas import JobOut


class ParseOptionsOut(BaseModel):
    """How the upload asked to be parsed: `format` a known name (null: detected),
    `log_format` an Apache LogFormat or nginx log_format string, `zip_members` which
    members of a zip archive are read."""

    format: str | None = None
    log_format: str | None = None
    zip_members: Literal["first", "all"] = "first"


class DatasetOut(BaseModel):
    id: int
    workspace_id: int
    name: str
    size_bytes: int
    sha256: str
    format: str | None
    status: DatasetStatus
    created_at: datetime
    uploaded_by: UserRef | None
    job: JobOut | None
    format_confidence: float | None = None
    notes: list[str] = Field(
        default_factory=list,
        description="What the parser noted: the detection's evidence, time conventions "
        "(e.g. nginx logs completion times: arrival = completion - duration)",
    )
    parse_options: ParseOptionsOut = Field(default_factory=ParseOptionsOut)
    request_count: int | None = Field(
        default=None, description="Requests parsed; null: not ingested yet"
    )
    first_request_at: datetime | None = Field(
        default=None, description="The first request's time; null: not ingested or no requests"
    )
    last_request_at: datetime | None = None
    span_s: float | None = Field(
        default=None, description="From the first request to the last; null: not ingested"
    )
    has_latency: bool | None = Field(
        default=None, description="Whether the log records response times; null: not ingested"
    )
    synthetic: bool = Field(default=False, description="Generated data, not a real server's log")
    source: "DatasetSourceOut | None" = Field(
        default=None, description="The data source that keeps this dataset (null: an upload)"
    )


class DatasetSourceOut(BaseModel):
    """Where a dataset kept by a source comes from and when it was last refreshed: a
    Prometheus source's import, or the receiver appending OTLP traces or a log stream."""

    kind: str = Field(description="prometheus, otlp (trace exports) or stream (a log shipper)")
    source_id: int | None = Field(
        default=None, description="The Prometheus source (null for otlp and stream)"
    )
    live: bool = Field(
        description="Kept up to date: refreshed by the schedule, or appended to by a receiver "
        "(false: its Prometheus source was deleted)"
    )
    refreshed_at: datetime | None = Field(
        default=None,
        description="The last refresh (prometheus) or the last data received (otlp, stream); "
        "null: none yet",
    )


class DatasetSort(StrEnum):
    newest = "newest"
    oldest = "oldest"
    name = "name"
    requests = "requests"
    span = "span"
    size = "size"


class DatasetUpdate(BaseModel):
    name: str = Field(min_length=1, max_length=255, description="The dataset's new name")

    @field_validator("name")
    @classmethod
    def _visible(cls, name: str) -> str:
        if not name.strip():
            raise ValueError("a name needs a visible character")
        return name.strip()


class DatasetPage(BaseModel):
    items: list[DatasetOut]
    total: int


class Reject(BaseModel):
    line_number: int
    reason: str
    text: str


class TrafficSummaryOut(TrafficSummary):
    """The dataset's traffic summary (engine.workload.summary) with its upload's parse
    figures."""

    dataset_id: int
    format: str
    format_confidence: float
    rejected_count: int = Field(description="Lines that should hold a request but failed to parse")
    skipped_count: int = Field(
        default=0,
        description="Lines that are the format's structure, not requests: blank lines, W3C "
        "directives (#Fields, #Software...), a CSV/TSV header, a JSON log's own messages",
    )
    rejects: list[Reject]
    notes: list[str]


class ArrivalWindowOut(BaseModel):
    """Requests per bucket of ``every_s`` seconds; ``t_ms`` the buckets' starts (epoch ms,
    UTC); ``rate_per_s`` each bucket's count over the seconds of it the log (and the
    window) covers; ``buckets`` in the window before downsampling to at most max_points."""

    dataset_id: int
    every_s: int
    t_ms: list[int]
    count: list[int]
    rate_per_s: list[float]
    buckets: int
    downsampled: bool


class LatencySeriesOut(BaseModel):
    """A slice's latency percentiles per bucket of ``every_s`` seconds: ``t_ms`` the
    buckets' starts (epoch ms, UTC; buckets without a timed request left out), ``count``
    their timed requests, the percentiles within 1 % of the exact (linear) ones, ``max_s``
    exact."""

    dataset_id: int
    every_s: int
    t_ms: list[int]
    count: list[int]
    p50_s: list[float]
    p90_s: list[float]
    p95_s: list[float]
    p99_s: list[float]
    max_s: list[float]


class RequestRow(BaseModel):
    """One request of the table; ``row`` its place in the table (the log's order)."""

    row: int
    ts: datetime | None
    method: str | None = None
    path: str | None = None
    query: str | None = None
    status: int | None = None
    latency_s: float | None = None
    bytes: int | None = None
    client: str | None = None


class RequestPageOut(BaseModel):
    """A page of the requests in a slice (time range, path prefix, status class), in the
    log's order; ``next_page_token`` asks for the next page (null: this is the last)."""

    dataset_id: int
    items: list[RequestRow]
    total: int = Field(description="Requests in the slice")
    next_page_token: str | None
