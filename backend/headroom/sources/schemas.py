from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl

from headroom.jobs.schemas import JobOut

Auth = Literal["none", "bearer", "basic"]


class PrometheusSourceIn(BaseModel):
    """A Prometheus server and what to read from it. ``secret``: the bearer token or the
    basic-auth password; stored encrypted and never returned."""

    model_config = ConfigDict(extra="forbid")

    workspace_id: int | None = None
    name: str = Field(min_length=1, max_length=255)
    base_url: HttpUrl
    auth: Auth = "none"
    username: str | None = Field(default=None, max_length=255)
    secret: str | None = Field(default=None, max_length=4096)
    requests_selector: str = Field(min_length=1, max_length=4000)
    latency_selector: str | None = Field(default=None, max_length=4000)
    class_label: str | None = Field(default=None, max_length=255)
    error_label: str | None = Field(default="code", max_length=255)
    error_pattern: str = Field(default="5..", max_length=255)
    step_s: float = Field(default=60.0, ge=1, le=86400)
    window_s: float = Field(default=7 * 86400.0, ge=60, le=400 * 86400)
    refresh: bool = True


class PrometheusSourceUpdate(BaseModel):
    """Fields to change; ``secret`` left out keeps the stored one (null clears it)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=255)
    base_url: HttpUrl | None = None
    auth: Auth | None = None
    username: str | None = Field(default=None, max_length=255)
    secret: str | None = Field(default=None, max_length=4096)
    requests_selector: str | None = Field(default=None, min_length=1, max_length=4000)
    latency_selector: str | None = Field(default=None, max_length=4000)
    class_label: str | None = Field(default=None, max_length=255)
    error_label: str | None = Field(default=None, max_length=255)
    error_pattern: str | None = Field(default=None, max_length=255)
    step_s: float | None = Field(default=None, ge=1, le=86400)
    window_s: float | None = Field(default=None, ge=60, le=400 * 86400)
    refresh: bool | None = None


class PrometheusSourceOut(BaseModel):
    id: int
    workspace_id: int
    name: str
    base_url: str
    auth: Auth
    username: str | None
    has_secret: bool
    requests_selector: str
    latency_selector: str | None
    class_label: str | None
    error_label: str | None
    error_pattern: str
    step_s: float
    window_s: float
    refresh: bool
    dataset_id: int | None
    job: JobOut | None
    last_refresh_at: datetime | None
    last_error: str | None
    last_summary: Mapping[str, object] | None  # documents.RangeSummaryJson
    created_at: datetime


class ImportRange(BaseModel):
    """A one-off range to import (both or neither; default: the rolling window ending now)."""

    model_config = ConfigDict(extra="forbid")

    start: datetime | None = None
    end: datetime | None = None


class ConnectionTestOut(BaseModel):
    ok: bool
    version: str | None = None
    series: int | None = None  # request-counter series the selector matches now
    reason: str | None = None  # why the source is not usable


BUCKET_NOTE = "percentiles are interpolated within histogram buckets"


class LatencyIntervalOut(BaseModel):
    """One step interval of the ``all`` class: its percentiles (null: no observations) and
    the bounds of the histogram bucket its p95 is interpolated in."""

    t: datetime = Field(description="The interval's start")
    p50_s: float | None
    p95_s: float | None
    p99_s: float | None
    p95_bucket_low_s: float | None = Field(description="The p95 bucket's lower bound")
    p95_bucket_high_s: float | None = Field(
        description="The p95 bucket's upper bound (null: the +Inf bucket, or no observations)"
    )


class PrometheusLatencyOut(BaseModel):
    """The latency percentiles of a dataset a Prometheus source keeps, per interval, with
    the histogram's bucket bounds: every percentile lies between two of them."""

    dataset_id: int
    step_s: float
    bucket_bounds_s: list[float] = Field(
        description="The histogram's finite bucket bounds (ascending; +Inf omitted)"
    )
    note: str = Field(default=BUCKET_NOTE, description="How to read the percentiles")
    intervals: list[LatencyIntervalOut]


NOT_RECORDED = {
    "bytes": "a request counter and a latency histogram record no response sizes",
    "clients": "the series record no clients or sessions",
    "latency_max_s": "a histogram keeps no maximum, only the bucket each latency fell in",
    "status_mix": "the requests are split into errors and the rest only (the error label)",
}


class TrafficPointOut(BaseModel):
    """One chart point: ``interval_s`` seconds from ``t`` (null: not observed)."""

    t: datetime
    rate_per_s: float | None
    error_share: float | None = Field(description="errors / requests (null: no requests)")


class ClassTrafficOut(BaseModel):
    """A class's figures over the range (``all`` for every request); null: not recorded."""

    name: str
    intervals: int = Field(description="Step intervals observed in the range")
    gap_intervals: int = Field(description="Step intervals no sample covers")
    requests: float
    errors: float | None = Field(description="null: the source has no error label")
    error_share: float | None = Field(description="null: no error label, or no requests")
    rate_per_s_mean: float | None = Field(description="requests over the observed seconds")
    rate_per_s_peak: float | None = Field(description="the busiest step interval's rate")
    latency_p50_s: float | None = Field(description="null: no histogram observations")
    latency_p95_s: float | None
    latency_p99_s: float | None
    p95_bucket_low_s: float | None = Field(description="The p95 bucket's lower bound")
    p95_bucket_high_s: float | None = Field(description="null: the +Inf bucket, or none")
    points: list[TrafficPointOut]


class PrometheusTrafficOut(BaseModel):
    """A Prometheus dataset's traffic over a range, read from its interval table: the
    intervals starting in ``[from, to)``, per class, ``all`` first."""

    dataset_id: int
    step_s: float = Field(description="The source's step: one interval")
    interval_s: float = Field(description="Seconds per chart point (a multiple of step_s)")
    start: datetime | None = Field(description="The first interval's start (null: none)")
    end: datetime | None = Field(description="The last interval's end")
    span_s: float = Field(description="From start to end")
    bucket_bounds_s: list[float] = Field(
        description="The histogram's finite bucket bounds (ascending; +Inf omitted)"
    )
    note: str = Field(default=BUCKET_NOTE, description="How to read the percentiles")
    not_recorded: dict[str, str] = Field(description="Figures a histogram cannot give, and why")
    classes: list[ClassTrafficOut]


class SlaTargetOut(BaseModel):
    percentile: float
    threshold_s: float
    source: Literal["capacity_analysis", "alert_rule"] = Field(
        description="the newest capacity analysis' SLA, else the tightest p95 alert rule"
    )


class BreachOut(BaseModel):
    """A refresh whose new intervals' latency percentile exceeded the SLA target."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    dataset_id: int
    source_id: int | None
    range_start: datetime
    range_end: datetime
    percentile: float
    observed_s: float
    threshold_s: float
    target_from: Literal["capacity_analysis", "alert_rule"]
    intervals: int
    requests: float
    detected_at: datetime


class BreachList(BaseModel):
    """The source's dataset's breaches, latest first, and the SLA target refreshes are
    checked against now (null: none, so refreshes record no breach)."""

    target: SlaTargetOut | None
    items: list[BreachOut]
