"""A source's dataset's traffic read back from its interval table: the Overview's figures
and the Traffic tab's rates over a range (engine/prometheus/traffic.py)."""

import math
from datetime import UTC, datetime

from headroom.core.storage import ObjectStore
from headroom.engine.prometheus.traffic import ClassTraffic, range_traffic
from headroom.jobs.models import Result
from headroom.sources.imports import read_intervals
from headroom.sources.schemas import (
    NOT_RECORDED,
    ClassTrafficOut,
    PrometheusTrafficOut,
    TrafficPointOut,
)


def traffic_of(
    store: ObjectStore,
    result: Result,
    dataset_id: int,
    from_ms: int | None,
    to_ms: int | None,
    errors_recorded: bool,
) -> PrometheusTrafficOut:
    """The intervals starting in ``[from_ms, to_ms)``; without an error label the errors
    are not recorded (null, not zero)."""
    series = read_intervals(store, result)
    found = range_traffic(
        series,
        None if from_ms is None else from_ms / 1000.0,
        None if to_ms is None else to_ms / 1000.0,
    )
    start, end = found.start_s, found.end_s
    return PrometheusTrafficOut(
        dataset_id=dataset_id,
        step_s=found.step_s,
        interval_s=found.point_s,
        start=_moment(start),
        end=_moment(end),
        span_s=0.0 if start is None or end is None else end - start,
        bucket_bounds_s=[float(b) for b in series.bucket_bounds_s if math.isfinite(b)],
        not_recorded=dict(NOT_RECORDED),
        classes=[_class_out(c, errors_recorded) for c in found.classes],
    )


def _class_out(found: ClassTraffic, errors_recorded: bool) -> ClassTrafficOut:
    errors = found.errors if errors_recorded else None
    share = errors / found.requests if errors is not None and found.requests > 0 else None
    points = [
        TrafficPointOut(
            t=datetime.fromtimestamp(float(t), UTC),
            rate_per_s=_finite(rate),
            error_share=_finite(failed) if errors_recorded else None,
        )
        for t, rate, failed in zip(
            found.point_start_s, found.point_rate_per_s, found.point_error_share, strict=True
        )
    ]
    return ClassTrafficOut(
        name=found.name,
        intervals=found.intervals,
        gap_intervals=found.gap_intervals,
        requests=found.requests,
        errors=errors,
        error_share=share,
        rate_per_s_mean=found.rate_per_s_mean,
        rate_per_s_peak=found.rate_per_s_peak,
        latency_p50_s=found.latency_s[0.5],
        latency_p95_s=found.latency_s[0.95],
        latency_p99_s=found.latency_s[0.99],
        p95_bucket_low_s=found.p95_bucket_s[0],
        p95_bucket_high_s=found.p95_bucket_s[1],
        points=points,
    )


def _moment(epoch_s: float | None) -> datetime | None:
    return None if epoch_s is None else datetime.fromtimestamp(epoch_s, UTC)


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None
