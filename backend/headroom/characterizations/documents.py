"""The result of a characterization (`headroom characterize --json` plus `histograms` and
`display`), as stored by the `workload.characterize` job and served in
`CharacterizationOut.result`. The engine's characterization becomes this model in one
place (:func:`characterization_document`).

Version 1; fields marked "older results" are absent from results made before they were
added and default to null there."""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, WithJsonSchema

from headroom.core.documents import Document, Real, VersionedDocument
from headroom.engine.workload.model import WorkloadModel
from headroom.engine.workload.summary import FieldsRecordedDoc

if TYPE_CHECKING:  # polars and scipy: the API process reads documents only
    from headroom.engine.workload import Characterization

Series = list[Real | None]
# validated as the workload model; published as its own versioned schema, which recursive
# distributions (mixtures of tuples) would make unreadable inline
MODEL_SCHEMA = WithJsonSchema(
    {
        "type": "object",
        "description": "a workload model (GET /api/v1/characterizations/model/schema)",
    }
)


class ArrivalStats(Document):
    every_s: int
    buckets: int
    total: int
    peak: int
    trough: int
    mean: Real
    peak_to_mean: Real
    covered_s: Real | None = None  # older results
    peak_per_s: Real | None = None
    trough_per_s: Real | None = None
    mean_per_s: Real | None = None


class ArrivalSummary(Document):
    """Requests per minute; the extra keys are `<unit>_hourly` stats (pages, sessions)."""

    peak_per_min: Real
    trough_per_min: Real
    mean_per_min: Real
    peak_to_mean: Real
    every_s: int | None = None  # older results
    span_s: Real | None = None
    timestamp_granularity_s: Real | None = None
    timestamp_notice: str | None = None
    hourly: ArrivalStats | None = None


class ClassShares(Document):
    request: dict[str, Real]
    user: dict[str, Real]


class PageSummary(Document):
    """Every figure null when the log records no paths."""

    count: int | None
    with_base: int | None
    objects_per_page_mean: Real | None
    bytes_per_page_mean: Real | None
    load_time_s_mean: Real | None


class SessionSummary(Document):
    """Every figure null when the log records no clients."""

    count: int | None
    pages_per_session_mean: Real | None
    requests_per_session_mean: Real | None


class LatencyPercentiles(Document):
    count: int
    p50_s: Real | None
    p90_s: Real | None
    p95_s: Real | None
    p99_s: Real | None
    max_s: Real | None


class Candidate(Document):
    dist: str
    params: dict[str, Real]
    se: dict[str, Real | None] | None = None
    ci95: dict[str, list[Real | None]] | None = None
    aic: Real
    ks: Real
    loglik: Real | None = None
    n: int


class BodyTail(Document):
    mu: Real
    sigma: Real
    alpha: Real
    split: Real
    tail_fraction: Real
    loglik: Real | None = None
    aic: Real | None
    ks: Real | None
    n: int | None = None
    # the simulator's declarative distribution (engine.sim.scenario.DistSpec's JSON)
    sim: dict[str, Any] | None = None


class FitReport(Document):
    dist: str | None
    params: dict[str, Real]
    aic: Real | None
    ks: Real | None
    n: int
    zero_fraction: Real
    ci95: dict[str, list[Real | None]]
    candidates: list[Candidate] | None = None  # older results
    body_tail: BodyTail | None = None
    # the simulator's declarative distribution (engine.sim.scenario.DistSpec's JSON)
    sim: dict[str, Any] | None = None
    reason: str | None = Field(None, description="why no family was fitted, in words")
    not_fitted: dict[str, str] | None = None


class FittedHistogram(Document):
    """Binned values of one fitted quantity with the chosen fit's pdf at the bin centres."""

    edges: list[Real]
    counts: list[int]
    density: list[Real]
    fitted_pdf: Series | None
    fitted_dist: str | None
    log_x: bool
    zeros: int


class ArrivalView(Document):
    """Requests per bucket of `every_s`, total and per request class (LTTB when downsampled)."""

    every_s: int
    stats: ArrivalStats
    downsampled: bool
    t_ms: list[int]
    count: list[int]
    rate_per_s: Series | None = None  # older results
    by_class: dict[str, list[int]]


class PercentileColumns(Document):
    t_ms: list[int]
    count: list[int]
    p50_s: Series
    p90_s: Series
    p95_s: Series
    p99_s: Series
    max_s: Series


class LatencyView(Document):
    every_s: int
    overall: PercentileColumns
    by_class: dict[str, PercentileColumns]


class PathRow(Document):
    path: str
    requests: int
    count: int = Field(description="requests with a latency")
    p50_s: Real | None
    p90_s: Real | None
    p95_s: Real | None
    p99_s: Real | None
    max_s: Real | None


class CountHistogram(Document):
    edges: list[Real]
    counts: list[int]


class DailyProfile(Document):
    mean_per_min: Series
    days: int


class Display(Document):
    """The dataset page's chart data (series capped in points)."""

    arrivals: dict[str, ArrivalView]
    timestamp_granularity_s: Real | None = None  # older results
    default_every_s: int | None = None
    timestamp_notice: str | None = None
    daily_profile: DailyProfile | None = Field(description="null: less than a day")
    latency: LatencyView | None
    paths: list[PathRow] = Field(description="empty when the log records no paths")
    pages_per_session: CountHistogram | None = Field(
        description="null: the log records no clients (or paths) to tell sessions apart"
    )


class CharacterizationCore(VersionedDocument):
    """`headroom characterize --json`: the engine's characterization."""

    requests: int
    arrivals: ArrivalSummary
    classes: ClassShares
    pages: PageSummary
    sessions: SessionSummary
    latency: LatencyPercentiles | None
    latency_by_class: dict[str, LatencyPercentiles]
    fits: dict[str, FitReport]
    model: Annotated[WorkloadModel, MODEL_SCHEMA]
    fields_recorded: FieldsRecordedDoc | None = None  # older results


class CharacterizationDoc(CharacterizationCore):
    """The stored and served result: the characterization, the fitted quantities'
    histograms and the dataset page's chart data."""

    histograms: dict[str, FittedHistogram]
    display: Display | None = None  # older results


def characterization_core(result: "Characterization") -> CharacterizationCore:
    from headroom.analyses.tables import jsonable  # polars: loaded by the jobs only

    return CharacterizationCore.model_validate(jsonable(result.to_dict()))


def characterization_document(
    result: "Characterization", histograms: Mapping[str, object], display: Mapping[str, object]
) -> CharacterizationDoc:
    from headroom.analyses.tables import jsonable  # polars: loaded by the jobs only

    document = {**result.to_dict(), "histograms": histograms, "display": display}
    return CharacterizationDoc.model_validate(jsonable(document))
