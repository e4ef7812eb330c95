"""Traffic summary of a request table: volume, span, status mix, latency percentiles and
per-bucket series of requests and status classes (at most `max_points` buckets).

A figure of a field the log does not record (``fields_recorded``) is None, never 0: the
status mix and error rates without status codes, the data volume without bytes.

Rates are counts over the seconds the log covers (coverage.py): ``span_s`` is the covered
span (last timestamp plus the timestamps' granularity), ``mean_rate_per_s`` the count
over it, and each bucket's ``rate_per_min`` its count over the seconds of it the log
covers, so the first and last, partial buckets are neither dips nor spikes. Buckets and
the peak are never finer than the timestamps' granularity (``timestamp_granularity_s``;
``timestamp_notice`` says so in words when they are coarser than a second)."""

import math
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import fields_recorded

from .arrivals import arrival_series
from .coverage import (
    Coverage,
    frame_coverage,
    granularity_notice,
    peak_and_trough,
    supported_every_s,
)
from .summary import FieldsRecordedDoc, LatencyStats, SeriesPoint, TrafficSummary

BUCKET_CHOICES_S = (60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400)
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")


def bucket_width_s(span_s: float, max_points: int, finest_s: float = 0.0) -> int:
    """The smallest standard bucket, no finer than ``finest_s``, that keeps the series
    under max_points points."""
    for width in BUCKET_CHOICES_S:
        if width >= finest_s and span_s / width < max_points:
            return width
    return max(int(span_s // max_points) + 1, math.ceil(finest_s))


def summarize(
    requests: pl.LazyFrame, max_points: int = 2000, cover: Coverage | None = None
) -> TrafficSummary:
    """``cover``: the time the requests cover (a slice's window within the log's coverage,
    slices.py); None: found from their timestamps."""
    totals = _totals(requests)
    count = int(totals["count"])
    if count == 0:
        return _empty()
    cover = cover if cover is not None else frame_coverage(requests)
    if cover is None:
        raise ValueError("the requests hold no timestamps")
    span_s = cover.span_s
    bucket_s = bucket_width_s(span_s, max_points, cover.granularity_s)
    peak_bucket_s = supported_every_s(cover.granularity_s, BUCKET_CHOICES_S)
    held = fields_recorded(requests)
    status_counts = {c: int(totals[f"s{c}"]) for c in STATUS_CLASSES} if held.status else None
    return TrafficSummary(
        request_count=count,
        first_ts=totals["first_ts"],
        last_ts=totals["last_ts"],
        span_s=span_s,
        mean_rate_per_s=count / span_s,
        peak_rate_per_min=peak_per_minute(requests, cover, peak_bucket_s),
        error_rate=status_counts["5xx"] / count if status_counts else None,
        client_error_rate=status_counts["4xx"] / count if status_counts else None,
        status_counts=status_counts,
        bytes_total=int(totals["bytes_total"]) if held.bytes else None,
        latency=_latency(requests),
        bucket_s=bucket_s,
        series=_series(requests, bucket_s, cover),
        fields_recorded=FieldsRecordedDoc.model_validate(held.to_dict()),
        timestamp_granularity_s=cover.granularity_s,
        timestamp_notice=granularity_notice(cover.granularity_s, peak_bucket_s),
        peak_bucket_s=peak_bucket_s,
    )


def _status_flags() -> list[pl.Expr]:
    hundreds = pl.col("status").cast(pl.Int32) // 100
    return [(hundreds == i + 1).sum().alias(f"s{c}") for i, c in enumerate(STATUS_CLASSES)]


def _totals(requests: pl.LazyFrame) -> dict[str, Any]:
    row = requests.select(
        pl.len().alias("count"),
        pl.col("ts").min().alias("first_ts"),
        pl.col("ts").max().alias("last_ts"),
        pl.col("bytes").sum().alias("bytes_total"),
        *_status_flags(),
    ).collect()
    return row.row(0, named=True)


def _series(requests: pl.LazyFrame, bucket_s: int, cover: Coverage) -> list[SeriesPoint]:
    grid = arrival_series(requests.select("ts"), bucket_s, cover=cover).select("t")
    flags = (
        requests.select("ts", "status")
        .group_by(pl.col("ts").dt.truncate(f"{bucket_s}s").alias("t"))
        .agg(pl.len().alias("requests"), *_status_flags())
        .collect()
    )
    frame = grid.join(flags, on="t", how="left").fill_null(0).sort("t")
    covered = cover.covered_s(frame["t"].dt.epoch("ns").to_numpy(), bucket_s)
    per_min = frame["requests"].to_numpy() * 60.0 / np.maximum(covered, 1e-9)
    frame = frame.with_columns(pl.Series("rate_per_min", per_min))
    return [SeriesPoint(**row) for row in frame.iter_rows(named=True)]


def peak_per_minute(
    requests: pl.LazyFrame, cover: Coverage, every_s: int, weight: str | None = None
) -> float:
    """The busiest bucket's rate in requests per minute: per calendar minute, or per the
    finest bucket the timestamps support when they are coarser (see peak_and_trough).
    ``weight``: the column of requests each row stands for (counts per minute)."""
    columns = ["ts"] if weight is None else ["ts", weight]
    series = arrival_series(requests.select(columns), every_s, cover=cover, weight=weight)
    covered = cover.covered_s(series["t"].dt.epoch("ns").to_numpy(), every_s)
    rates = series["count"].to_numpy() / np.maximum(covered, 1e-9)
    mean = float(series["count"].sum()) / float(covered.sum())
    hi, _ = peak_and_trough(rates, covered, every_s, mean)
    return float(rates[hi] * 60.0)


def _latency(requests: pl.LazyFrame) -> LatencyStats | None:
    latency = pl.col("latency_s").drop_nulls()
    row = (
        requests.select(
            latency.len().alias("count"),
            latency.mean().alias("mean_s"),
            latency.quantile(0.5, "linear").alias("p50_s"),
            latency.quantile(0.9, "linear").alias("p90_s"),
            latency.quantile(0.95, "linear").alias("p95_s"),
            latency.quantile(0.99, "linear").alias("p99_s"),
            latency.max().alias("max_s"),
        )
        .collect()
        .row(0, named=True)
    )
    if not row["count"]:
        return None
    return LatencyStats(
        count=int(row["count"]),
        mean_s=float(row["mean_s"]),
        p50_s=float(row["p50_s"]),
        p90_s=float(row["p90_s"]),
        p95_s=float(row["p95_s"]),
        p99_s=float(row["p99_s"]),
        max_s=float(row["max_s"]),
    )


def _empty() -> TrafficSummary:
    return TrafficSummary(
        request_count=0,
        first_ts=None,
        last_ts=None,
        span_s=0.0,
        mean_rate_per_s=0.0,
        peak_rate_per_min=0.0,
        error_rate=None,
        client_error_rate=None,
        status_counts=None,
        bytes_total=None,
        latency=None,
        bucket_s=BUCKET_CHOICES_S[0],
        series=[],
    )
