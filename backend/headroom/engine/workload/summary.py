"""The traffic summary of a request table, as a document (pydantic only, so the API reads
and serves it without loading polars): computed by ``traffic.summarize``, stored by the
ingest job, served as the dataset's summary. Its fields are declared here only."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class FieldsRecordedDoc(_Frozen):
    """Which fields the log records (a value on at least one request). A figure built on
    a field it does not record is null in the summary, never 0 (engine.logs.recorded)."""

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


class LatencyStats(_Frozen):
    count: int
    mean_s: float
    p50_s: float
    p90_s: float | None = Field(default=None, description="null: summarised before this")
    p95_s: float
    p99_s: float
    max_s: float


class SeriesPoint(_Frozen):
    t: datetime
    requests: int
    rate_per_min: float
    s1xx: int
    s2xx: int
    s3xx: int
    s4xx: int
    s5xx: int


class TrafficSummary(_Frozen):
    request_count: int
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
    fields_recorded: FieldsRecordedDoc | None = Field(
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
