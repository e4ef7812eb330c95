"""The traffic summary of a request table kept in parts (a live dataset's appends): each
part reduced once to a :class:`SummaryPartial` whose merge is exact, and the summary of
the union of parts made from their merge, so adding a part costs that part's size and
dropping one (retention) drops its contribution.

A partial holds counts, first and last timestamps, status-class and byte totals, which
fields hold a value, per-minute counts per status class (the series and the peak: every
bucket they use is a whole number of minutes), the latencies' count, sum and maximum, a
log-bucket histogram of them (sketch.py) and the timestamps' phase counts per candidate
granularity (coverage.py). Every figure of :func:`summary_of` equals
``traffic.summarize`` of the union, but the latency percentiles, which are the sketch's
(within a relative 1% of the exact linear-interpolation percentile), and the mean
latency, a sum over the parts (the same up to floating-point rounding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import COLUMNS, FieldsRecorded

from .arrivals import arrival_series
from .coverage import (
    MIN_DISTINCT,
    Coverage,
    coverage,
    granularity_notice,
    granularity_of_phases,
    phase_counts,
    supported_every_s,
    timestamp_granularity_ns,
)
from .sketch import histogram_of, merge_histograms, percentiles
from .summary import FieldsRecordedDoc, LatencyStats, SeriesPoint, TrafficSummary
from .traffic import (
    BUCKET_CHOICES_S,
    STATUS_CLASSES,
    bucket_width_s,
    peak_per_minute,
    summarize,
)

MINUTE_S = 60
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_CLASSES = [f"s{c}" for c in STATUS_CLASSES]
_HISTOGRAM = {"idx": pl.Int32, "n": pl.Int64, "max": pl.Float64}
_MINUTES = {"t": pl.Int64, "requests": pl.Int64} | dict.fromkeys(_CLASSES, pl.Int64)


@dataclass(frozen=True)
class SummaryPartial:
    """The mergeable summary of one part (or of several, merged)."""

    count: int
    first_ns: int
    last_ns: int
    recorded: dict[str, bool]  # engine.logs.recorded field -> a value on some request
    status_counts: dict[str, int]  # status class -> responses
    bytes_total: int
    latency_count: int
    latency_sum_s: float
    latency_max_s: float | None
    latency: pl.DataFrame  # sketch histogram: idx, n, max
    minutes: pl.DataFrame  # t (epoch ns of the minute), requests, s1xx..s5xx
    phases: np.ndarray  # coverage.phase_counts
    few_ts_ns: tuple[int, ...] | None  # the distinct timestamps, when fewer than MIN_DISTINCT

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "first_ns": self.first_ns,
            "last_ns": self.last_ns,
            "recorded": self.recorded,
            "status_counts": self.status_counts,
            "bytes_total": self.bytes_total,
            "latency_count": self.latency_count,
            "latency_sum_s": self.latency_sum_s,
            "latency_max_s": self.latency_max_s,
            "latency": self.latency.to_dict(as_series=False),
            "minutes": self.minutes.to_dict(as_series=False),
            "phases": self.phases.tolist(),
            "few_ts_ns": None if self.few_ts_ns is None else list(self.few_ts_ns),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SummaryPartial:
        few = doc["few_ts_ns"]
        return cls(
            count=int(doc["count"]),
            first_ns=int(doc["first_ns"]),
            last_ns=int(doc["last_ns"]),
            recorded={k: bool(v) for k, v in doc["recorded"].items()},
            status_counts={k: int(v) for k, v in doc["status_counts"].items()},
            bytes_total=int(doc["bytes_total"]),
            latency_count=int(doc["latency_count"]),
            latency_sum_s=float(doc["latency_sum_s"]),
            latency_max_s=doc["latency_max_s"],
            latency=pl.DataFrame(doc["latency"], schema=_HISTOGRAM),
            minutes=pl.DataFrame(doc["minutes"], schema=_MINUTES),
            phases=np.asarray(doc["phases"], dtype=np.int64),
            few_ts_ns=None if few is None else tuple(int(t) for t in few),
        )


def partial_of(table: pl.DataFrame) -> SummaryPartial:
    """The partial of a non-empty request table (engine.logs.records.REQUEST_SCHEMA's
    columns; ``ts`` never null)."""
    ts = table["ts"].dt.epoch("ns").to_numpy().astype(np.int64)
    distinct = np.unique(ts)
    hundreds = pl.col("status").cast(pl.Int32) // 100
    classes = [(hundreds == i + 1).sum().cast(pl.Int64).alias(c) for i, c in enumerate(_CLASSES)]
    minute_ns = MINUTE_S * 10**9
    minutes = (
        table.lazy()
        .group_by((pl.col("ts").dt.epoch("ns") // minute_ns * minute_ns).alias("t"))
        .agg(pl.len().cast(pl.Int64).alias("requests"), *classes)
        .sort("t")
        .collect()
    )
    totals = minutes.select(pl.col(_CLASSES).sum()).row(0, named=True)
    latency = table["latency_s"].drop_nulls()
    return SummaryPartial(
        count=table.height,
        first_ns=int(ts.min()),
        last_ns=int(ts.max()),
        recorded={
            name: column in table.columns and table[column].null_count() < table.height
            for name, column in COLUMNS.items()
        },
        status_counts={c: int(totals[f"s{c}"]) for c in STATUS_CLASSES},
        bytes_total=int(table["bytes"].sum() or 0),
        latency_count=latency.len(),
        latency_sum_s=float(latency.sum() or 0.0),
        latency_max_s=float(latency.max()) if latency.len() else None,  # type: ignore[arg-type]
        latency=histogram_of(table, [], "latency_s").cast(_HISTOGRAM),  # type: ignore[arg-type]
        minutes=minutes.cast(_MINUTES),  # type: ignore[arg-type]
        phases=phase_counts(distinct),
        few_ts_ns=tuple(int(t) for t in distinct) if distinct.size < MIN_DISTINCT else None,
    )


def merge(partials: Sequence[SummaryPartial]) -> SummaryPartial:
    """One partial of several: counts added, extremes kept, histograms merged."""
    first = partials[0]
    if len(partials) == 1:
        return first
    maxima = [p.latency_max_s for p in partials if p.latency_max_s is not None]
    few: set[int] | None = set()
    for p in partials:
        if few is None or p.few_ts_ns is None:
            few = None
        else:
            few |= set(p.few_ts_ns)
    minutes = pl.concat([p.minutes for p in partials]).group_by("t").agg(pl.all().sum()).sort("t")
    return SummaryPartial(
        count=sum(p.count for p in partials),
        first_ns=min(p.first_ns for p in partials),
        last_ns=max(p.last_ns for p in partials),
        recorded={k: any(p.recorded[k] for p in partials) for k in first.recorded},
        status_counts={c: sum(p.status_counts[c] for p in partials) for c in STATUS_CLASSES},
        bytes_total=sum(p.bytes_total for p in partials),
        latency_count=sum(p.latency_count for p in partials),
        latency_sum_s=sum(p.latency_sum_s for p in partials),
        latency_max_s=max(maxima) if maxima else None,
        latency=merge_histograms([p.latency for p in partials], []).cast(_HISTOGRAM),  # type: ignore[arg-type]
        minutes=minutes.cast(_MINUTES),  # type: ignore[arg-type]
        phases=np.sum([p.phases for p in partials], axis=0),
        few_ts_ns=None if few is None or len(few) >= MIN_DISTINCT else tuple(sorted(few)),
    )


def summary_of(partial: SummaryPartial, max_points: int = 2000) -> TrafficSummary | None:
    """The traffic summary of the requests of ``partial``; None when a figure needs more
    than its minutes (a series of buckets that are not whole minutes: a span of years)."""
    cover = _coverage(partial)
    bucket_s = bucket_width_s(cover.span_s, max_points, cover.granularity_s)
    peak_bucket_s = supported_every_s(cover.granularity_s, BUCKET_CHOICES_S)
    if bucket_s % MINUTE_S or peak_bucket_s % MINUTE_S:
        return None
    held = FieldsRecorded(**partial.recorded, span_s=_seconds(partial.last_ns - partial.first_ns))
    count = partial.count
    status = partial.status_counts if held.status else None
    return TrafficSummary(
        request_count=count,
        first_ts=_utc(partial.first_ns),
        last_ts=_utc(partial.last_ns),
        span_s=cover.span_s,
        mean_rate_per_s=count / cover.span_s,
        peak_rate_per_min=_peak_per_minute(partial.minutes, cover, peak_bucket_s),
        error_rate=status["5xx"] / count if status else None,
        client_error_rate=status["4xx"] / count if status else None,
        status_counts=status,
        bytes_total=partial.bytes_total if held.bytes else None,
        latency=_latency(partial),
        bucket_s=bucket_s,
        series=_series(partial.minutes, bucket_s, cover),
        fields_recorded=FieldsRecordedDoc.model_validate(held.to_dict()),
        timestamp_granularity_s=cover.granularity_s,
        timestamp_notice=granularity_notice(cover.granularity_s, peak_bucket_s),
        peak_bucket_s=peak_bucket_s,
    )


def summary_of_parts(
    partials: Sequence[SummaryPartial],
    whole: Callable[[], pl.LazyFrame],
    max_points: int = 2000,
) -> TrafficSummary:
    """The summary of the parts from their merged partial, or of ``whole()`` (the parts'
    table, read whole) when the partial cannot give it."""
    merged = summary_of(merge(partials), max_points)
    return merged if merged is not None else summarize(whole(), max_points)


def _coverage(partial: SummaryPartial) -> Coverage:
    if partial.few_ts_ns is not None:
        g = timestamp_granularity_ns(np.asarray(partial.few_ts_ns, dtype=np.int64))
    else:
        g = granularity_of_phases(partial.phases, partial.last_ns - partial.first_ns)
    return coverage(np.asarray([partial.first_ns, partial.last_ns], dtype=np.int64), g)


def _frame(minutes: pl.DataFrame) -> pl.DataFrame:
    """The minutes with ``t`` a UTC datetime named ``ts`` (what arrival_series reads)."""
    return minutes.with_columns(
        pl.from_epoch(pl.col("t"), "ns").dt.replace_time_zone("UTC").alias("ts")
    ).drop("t")


def _series(minutes: pl.DataFrame, bucket_s: int, cover: Coverage) -> list[SeriesPoint]:
    frame = _frame(minutes)
    grid = arrival_series(frame.select("ts"), bucket_s, cover=cover).select("t")
    sums = frame.group_by(pl.col("ts").dt.truncate(f"{bucket_s}s").alias("t")).agg(
        pl.col("requests", *_CLASSES).sum()
    )
    table = grid.join(sums, on="t", how="left").fill_null(0).sort("t")
    covered = cover.covered_s(table["t"].dt.epoch("ns").to_numpy(), bucket_s)
    per_min = table["requests"].to_numpy() * 60.0 / np.maximum(covered, 1e-9)
    table = table.with_columns(pl.Series("rate_per_min", per_min))
    return [SeriesPoint(**row) for row in table.iter_rows(named=True)]


def _peak_per_minute(minutes: pl.DataFrame, cover: Coverage, every_s: int) -> float:
    return peak_per_minute(_frame(minutes).lazy(), cover, every_s, weight="requests")


def _latency(partial: SummaryPartial) -> LatencyStats | None:
    if not partial.latency_count or partial.latency_max_s is None:
        return None
    row = percentiles(partial.latency, []).row(0, named=True) if partial.latency.height else {}
    return LatencyStats(
        count=partial.latency_count,
        mean_s=partial.latency_sum_s / partial.latency_count,
        p50_s=float(row.get("p50_s") or 0.0),
        p90_s=float(row.get("p90_s") or 0.0),
        p95_s=float(row.get("p95_s") or 0.0),
        p99_s=float(row.get("p99_s") or 0.0),
        max_s=partial.latency_max_s,
    )


def _seconds(duration_ns: int) -> float:
    """As polars' ``total_seconds(fractional=True)`` (engine.logs.recorded), to the bit."""
    duration = pl.Series([duration_ns], dtype=pl.Int64).cast(pl.Duration("ns"))
    return float(duration.dt.total_seconds(fractional=True)[0])


def _utc(epoch_ns: int) -> datetime:
    return EPOCH + timedelta(microseconds=epoch_ns // 1000)
