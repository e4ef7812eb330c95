from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from headroom.auth.schemas import UserRef
from headroom.datasets.models import DatasetStatus
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


class LatencyStats(BaseModel):
    count: int
    mean_s: float
    p50_s: float
    p95_s: float
    p99_s: float
    max_s: float


class SeriesPoint(BaseModel):
    t: datetime
    requests: int
    rate_per_min: float
    s1xx: int
    s2xx: int
    s3xx: int
    s4xx: int
    s5xx: int


class FieldsRecordedOut(BaseModel):
    """Which fields the log records (a value on at least one request). A figure built on
    a field it does not record is null in the summary, never 0."""

    status: bool
    bytes: bool
    latency: bool
    client: bool
    user_agent: bool
    referrer: bool
    path: bool
    span_s: float = Field(description="Seconds from the first to the last request")
    sessions: bool = Field(description="Sessions can be told apart (the log records clients)")
    daily_profile: bool = Field(description="The log covers at least one day")


class TrafficSummaryOut(BaseModel):
    dataset_id: int
    format: str
    format_confidence: float
    request_count: int
    rejected_count: int = Field(description="Lines that should hold a request but failed to parse")
    skipped_count: int = Field(
        default=0,
        description="Lines that are the format's structure, not requests: blank lines, W3C "
        "directives (#Fields, #Software...), a CSV/TSV header, a JSON log's own messages",
    )
    rejects: list[Reject]
    first_ts: datetime | None
    last_ts: datetime | None
    span_s: float
    mean_rate_per_s: float
    peak_rate_per_min: float
    error_rate: float | None = Field(description="5xx share; null: the log has no status codes")
    client_error_rate: float | None = Field(
        description="4xx share; null: the log has no status codes"
    )
    status_counts: dict[str, int] | None = Field(
        description="Responses per status class; null: the log has no status codes"
    )
    bytes_total: int | None = Field(description="Bytes sent; null: the log has no sizes")
    latency: LatencyStats | None
    bucket_s: int
    series: list[SeriesPoint]
    notes: list[str]
    fields_recorded: FieldsRecordedOut | None = Field(
        default=None, description="Which fields the log records (null: summarised before this)"
    )
    timestamp_granularity_s: float = Field(
        0.0,
        description="what the timestamps resolve (1 s in a common log; 3600 when every "
        "request of an hour is stamped at the same minute); 0: finer than a millisecond",
    )
    timestamp_notice: str | None = Field(
        None, description="in words, when the timestamps are coarser than a second"
    )
    peak_bucket_s: int = Field(
        60, description="the interval of peak_rate_per_min: a minute, or coarser timestamps'"
    )


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
