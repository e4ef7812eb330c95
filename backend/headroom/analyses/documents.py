"""The reports of capacity and SCT analyses (docs/api.md "## Analyses"), as stored by the
`capacity.analyze` job and served in `AnalysisOut.result`. The engine's reports become
these models in one place (:func:`capacity_document`, :func:`sct_document`).

Version 1; fields marked "older reports" are absent from reports made before they were
added and default to null there."""

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from headroom.core.documents import Document, Real, VersionedDocument

if TYPE_CHECKING:  # the engine's reports pull numpy in: the API process reads documents only
    from headroom.engine.capacity import CapacityReport, SctReport


class MeasuredPoint(Document):
    """A load bin of the knee curve: the median over its windows of their percentile (the
    optional figures are absent from the oldest reports)."""

    load_per_s: Real
    latency_s: Real
    latency_low_s: Real | None = Field(None, description="bootstrap 90% interval, low end")
    latency_high_s: Real | None = None
    latency_fit_s: Real | None = Field(None, description="isotonic fit the SLA is read off")
    throughput_per_s: Real | None = None
    concurrency: Real | None = None
    new_clients_per_s: Real | None = None
    windows: int | None = None
    source: Literal["measured"]


class ModelPoint(Document):
    """A point of the fitted M/M/c curve beyond the measured loads."""

    load_per_s: Real
    latency_s: Real
    throughput_per_s: Real | None = None
    concurrency: Real | None = None
    fit_error_rel: Real | None = None
    source: Literal["model"]


CurvePoint = Annotated[MeasuredPoint | ModelPoint, Field(discriminator="source")]


class KneePoint(Document):
    load_per_s: Real
    latency_s: Real
    source: Literal["measured", "model"]


class SlaTarget(Document):
    percentile: Real
    threshold_s: Real
    max_rate_per_s: Real
    max_conn: Real
    stance: str
    source: str
    capped: bool


class UslShape(Document):
    sigma: Real | None
    kappa: Real | None
    n_star: Real | None


class QueueModel(Document):
    """The M/M/c fit (and USL shape) the curve is extended with."""

    servers_c: int
    c_source: str
    service_time_s: Real
    fit_error_rel: Real | None
    usl: UslShape | None


class LatencyTrend(Document):
    direction: Literal["rises", "falls", "flat", "unknown"]
    spearman_rho: Real | None
    p_value: Real | None
    windows: int


class ClassReport(Document):
    knee: KneePoint | None
    breaking_point_per_s: Real | None
    breaking_point_source: str | None = None
    sla: SlaTarget | None
    max_conn: Real | None
    model: QueueModel | None = None
    peak_load_per_s: Real
    servers_needed: int | None
    curve: list[CurvePoint]
    warnings: list[str]
    method: str | None = None  # older reports
    latency_trend: LatencyTrend | None = None  # older reports
    max_throughput_per_s: Real | None = None  # older reports


class CapacityPeak(Document):
    power_peak_load_per_s: Real
    r2: Real


class PowerPoint(Document):
    load_per_s: Real
    power_per_s2: Real


class PowerChart(Document):
    """The power ratio (goodput / mean latency) of the windows and its cubic fit."""

    points: list[PowerPoint]
    coefficients: list[Real] = Field(description="the cubic in load, highest power first")
    load_range_per_s: list[Real] = Field(description="[low, high]")
    peak_load_per_s: Real | None
    r2: Real | None
    source: str | None = None  # older reports


class VirtualQueueAdvice(Document):
    capacity_per_s: Real
    latency_s: Real
    latency_source: Literal["measured", "model", "beyond the curve"]
    percentile: Real
    max_wait_s: Real
    peak_at_s: Real
    refused: int


class HistogramNote(Document):
    """What a report read off a latency histogram (a Prometheus dataset) says about it."""

    bucket_bounds_s: list[Real | Literal["+Inf"]] = Field(
        description="the bucket upper bounds the percentiles were interpolated in"
    )
    intervals: int = Field(description="step intervals in the dataset (per class)")
    windows: int = Field(description="intervals with traffic and latencies: the load windows")
    interpolated: str
    not_recorded: dict[str, str] = Field(description="what a histogram cannot give, by figure")


class CapacityReportDoc(VersionedDocument):
    """A capacity analysis' report: knee curves and SLA targets per request class."""

    classes: dict[str, ClassReport]
    capacity: CapacityPeak | None
    capacity_reason: str | None
    power: PowerChart | None = None  # older reports
    per_server: bool
    servers: list[str]
    warnings: list[str]
    virtual_queue: VirtualQueueAdvice | None = None  # older reports
    histogram: HistogramNote | None = None  # read off a latency histogram


class UslFit(Document):
    sigma: Real | None
    kappa: Real | None
    n_star: Real | None
    lambda_per_s: Real | None = None  # older reports
    rmse_per_s: Real | None = None


class TrendPoint(Document):
    n: Real
    throughput_per_s: Real


class SctLevel(Document):
    n: int
    throughput_per_s: Real
    response_s: Real | None
    intervals: int


class SctServer(Document):
    """One server of a latency trace: the pool sizes between which throughput is best."""

    q_lower: int | None
    q_upper: int | None
    q_max_observed: int | None
    tp_max_per_s: Real | None
    usl: UslFit | None
    trend: list[TrendPoint]
    warnings: list[str]
    levels: list[SctLevel]


class SctReportDoc(VersionedDocument):
    """An SCT analysis' report: per server of the trace."""

    servers: dict[str, SctServer]
    interval_ms: Real
    window_s: Real | None


AnalysisReport = CapacityReportDoc | SctReportDoc


def capacity_document(report: "CapacityReport") -> CapacityReportDoc:
    from headroom.analyses.tables import jsonable  # polars: loaded by the jobs only

    return CapacityReportDoc.model_validate(jsonable(report.to_dict()))


def sct_document(report: "SctReport") -> SctReportDoc:
    from headroom.analyses.tables import jsonable  # polars: loaded by the jobs only

    return SctReportDoc.model_validate(jsonable(report.to_dict()))


def stored_report(kind: str, document: object) -> AnalysisReport:
    """A stored report read back by the analysis' kind."""
    if kind == "sct":
        return SctReportDoc.model_validate(document)
    return CapacityReportDoc.model_validate(document)
