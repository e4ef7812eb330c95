"""A Prometheus range's summary as JSON (the CLI's output and a source's last import)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

import numpy as np

from headroom.engine.prometheus import RangeSummary
from headroom.engine.prometheus.series import ClassSummary

if TYPE_CHECKING:
    from headroom.datasets.meta import SourceMetaJson
    from headroom.sources.models import PrometheusSource

RESULT_KIND = "prometheus_intervals"  # the import's stored interval table
FORMAT = "prometheus"  # the format of a dataset a source keeps
QUANTILES = {"p50_s": 0.5, "p95_s": 0.95, "p99_s": 0.99}


class RateJson(TypedDict):
    mean: float
    peak: float


class ClassJson(TypedDict):  # a ClassSummary
    requests_total: float
    rate_per_s: RateJson
    errors_total: float
    latency_p95_s: float | None
    latency_p99_s: float | None


class RefreshedJson(TypedDict):
    """The range a refresh added (all of it on the first import): its figures over the
    intervals starting in it (null: not recorded)."""

    start: str
    end: str
    intervals: int
    requests: float
    latency_p95_s: float | None
    error_rate: float | None


class RangeSummaryJson(ClassJson):  # a RangeSummary: its overall figures, then per class
    classes: dict[str, ClassJson]
    step_s: float
    intervals: int
    gap_intervals: int
    bucket_bounds_s: list[float | str]  # the +Inf bound written "+Inf"
    start: NotRequired[str]  # a source's import adds its range (ISO 8601)
    end: NotRequired[str]
    classes_order: NotRequired[list[str]]
    dataset_id: NotRequired[int]  # the CLI adds the server's dataset
    refreshed: NotRequired[RefreshedJson]  # a source's import adds what it added


def _seconds(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def class_document(summary: ClassSummary) -> ClassJson:
    return {
        "requests_total": summary.requests_total,
        "rate_per_s": {"mean": summary.rate_per_s_mean, "peak": summary.rate_per_s_peak},
        "errors_total": summary.errors_total,
        "latency_p95_s": _seconds(summary.latency_p95_s),
        "latency_p99_s": _seconds(summary.latency_p99_s),
    }


def summary_document(summary: RangeSummary) -> RangeSummaryJson:
    """JSON-safe: the +Inf bucket bound is written "+Inf" (JSON has no infinity)."""
    return {
        **class_document(summary.overall),
        "classes": {name: class_document(c) for name, c in summary.classes.items()},
        "step_s": summary.step_s,
        "intervals": summary.intervals,
        "gap_intervals": summary.gap_intervals,
        "bucket_bounds_s": [b if math.isfinite(b) else "+Inf" for b in summary.bucket_bounds_s],
    }


def bucket_bounds(document: dict[str, Any] | None) -> np.ndarray:
    """The histogram's bucket bounds as the import's document stored them ("+Inf" for the
    last), back as seconds."""
    raw = (document or {}).get("bucket_bounds_s") or []
    return np.array([math.inf if b == "+Inf" else float(b) for b in raw], np.float64)


def source_meta(source: PrometheusSource, live: bool) -> SourceMetaJson:
    """The ``source`` entry of a source's dataset's meta."""
    refreshed = source.last_refresh_at.isoformat() if source.last_refresh_at else None
    return {
        "kind": FORMAT,
        "source_id": source.id,
        "live": live,
        "refreshed_at": refreshed,
        "base_url": source.base_url,
    }
