"""Traffic summary of a request table: volume, span, status mix, latency percentiles and
per-bucket series of requests and status classes (at most `max_points` buckets).

A figure of a field the log does not record (``fields_recorded``) is None, never 0: the
status mix and error rates without status codes, the data volume without bytes."""

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded, fields_recorded

BUCKET_CHOICES_S = (60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400)
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")


@dataclass(frozen=True)
class LatencyStats:
    count: int
    mean_s: float
    p50_s: float
    p95_s: float
    p99_s: float
    max_s: float


@dataclass(frozen=True)
class SeriesPoint:
    t: datetime
    requests: int
    rate_per_min: float
    s1xx: int
    s2xx: int
    s3xx: int
    s4xx: int
    s5xx: int


@dataclass(frozen=True)
class TrafficSummary:
    request_count: int
    first_ts: datetime | None
    last_ts: datetime | None
    span_s: float
    mean_rate_per_s: float
    peak_rate_per_min: float
    error_rate: float | None
    client_error_rate: float | None
    status_counts: dict[str, int] | None
    bytes_total: int | None
    latency: LatencyStats | None
    bucket_s: int
    series: list[SeriesPoint]
    fields_recorded: FieldsRecorded | None = None

    def to_dict(self) -> dict[str, Any]:
        held = self.fields_recorded
        return asdict(self) | {"fields_recorded": held.to_dict() if held else None}


def bucket_width_s(span_s: float, max_points: int) -> int:
    """The smallest standard bucket that keeps the series under max_points points."""
    for width in BUCKET_CHOICES_S:
        if span_s / width < max_points:
            return width
    return int(span_s // max_points) + 1


def summarize(requests: pl.LazyFrame, max_points: int = 2000) -> TrafficSummary:
    totals = _totals(requests)
    count = int(totals["count"])
    if count == 0:
        return _empty()
    first, last = totals["first_ts"], totals["last_ts"]
    span_s = (last - first).total_seconds()
    bucket_s = bucket_width_s(span_s, max_points)
    series = _series(requests, bucket_s)
    held = fields_recorded(requests)
    status_counts = {c: int(totals[f"s{c}"]) for c in STATUS_CLASSES} if held.status else None
    return TrafficSummary(
        request_count=count,
        first_ts=first,
        last_ts=last,
        span_s=span_s,
        mean_rate_per_s=count / span_s if span_s > 0 else float(count),
        peak_rate_per_min=_peak_per_minute(requests),
        error_rate=status_counts["5xx"] / count if status_counts else None,
        client_error_rate=status_counts["4xx"] / count if status_counts else None,
        status_counts=status_counts,
        bytes_total=int(totals["bytes_total"]) if held.bytes else None,
        latency=_latency(requests),
        bucket_s=bucket_s,
        series=series,
        fields_recorded=held,
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


def _series(requests: pl.LazyFrame, bucket_s: int) -> list[SeriesPoint]:
    frame = (
        requests.select("ts", "status")
        .group_by(pl.col("ts").dt.truncate(f"{bucket_s}s").alias("t"))
        .agg(pl.len().alias("requests"), *_status_flags())
        .sort("t")
        .collect()
        .upsample("t", every=f"{bucket_s}s")
        .fill_null(0)
        .with_columns((pl.col("requests") * 60.0 / bucket_s).alias("rate_per_min"))
    )
    return [SeriesPoint(**row) for row in frame.iter_rows(named=True)]


def _peak_per_minute(requests: pl.LazyFrame) -> float:
    """The busiest calendar minute, whatever the width of the display buckets."""
    per_minute = requests.group_by(pl.col("ts").dt.truncate("1m")).agg(pl.len().alias("n"))
    return float(per_minute.select(pl.col("n").max()).collect().item())


def _latency(requests: pl.LazyFrame) -> LatencyStats | None:
    latency = pl.col("latency_s").drop_nulls()
    row = (
        requests.select(
            latency.len().alias("count"),
            latency.mean().alias("mean_s"),
            latency.quantile(0.5, "linear").alias("p50_s"),
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
