"""The chart data of a characterization (what the dataset page draws), compact: never the
raw rows, every series capped at ``max_points``.

- ``arrivals``: per resolution (1 s, 10 s, 60 s, 1 h) the gap-filled request counts, total
  and per request class, the total's rate per second (each bucket's count over the seconds
  of it the log covers: the partial first and last buckets are not dips), with the
  statistics of the *full* series (peak, trough, mean, peak-to-mean); a series longer
  than ``max_points`` keeps the LTTB points of the total (the class series at the same
  instants) and says so (``downsampled``).
- ``timestamp_granularity_s``, ``default_every_s`` (the finest resolution the timestamps
  support, at least a minute: what the chart opens at) and ``timestamp_notice`` (words,
  null unless the timestamps are coarser than a second).
- ``daily_profile``: mean requests per minute-of-day (1,440 values, null for minutes the
  log never covers) counted in buckets of ``default_every_s`` (``every_s``): an
  hourly-stamped log gives an hourly profile; null when the log covers less than a day.
- ``latency``: p50/p90/p95/p99/max per time bucket, overall and per request class. The
  bucket is the smallest of 1 min, 5 min, 15 min, 1 h, 6 h, 1 day giving at most
  ``max_points`` buckets: percentiles are recomputed per bucket, never thinned.
- ``paths``: the top paths by requests (the rest as ``other``) with their percentiles.
- ``pages_per_session``: a histogram (integer bins, not fitted) of pages per session;
  null when the log records no clients (or no paths) to tell sessions (pages) apart.
Times are epoch milliseconds (UTC).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded, fields_recorded

from .arrivals import RESOLUTIONS_S, arrival_series, bucket_rates, daily_profile, series_stats
from .coverage import Coverage, frame_coverage, granularity_notice, supported_every_s
from .downsample import lttb_indices
from .latency import latency_by_path, latency_over_time

MAX_POINTS = 2000
LATENCY_BUCKETS_S = (60, 300, 900, 3600, 21600, 86400)
TOP_PATHS = 50
CLASS_COLUMN = "cls_request"
MINUTES_PER_DAY = 1440


def display_document(
    requests: pl.DataFrame,
    session_table: pl.DataFrame,
    max_points: int = MAX_POINTS,
    held: FieldsRecorded | None = None,
) -> dict[str, Any]:
    """The chart data of a classified request table and its sessions."""
    held = held or fields_recorded(requests)
    sessions = held.sessions and held.path
    cover = frame_coverage(requests)
    granularity_s = cover.granularity_s if cover else 0.0
    default_every_s = supported_every_s(max(granularity_s, 60.0), RESOLUTIONS_S)
    return {
        "arrivals": {str(s): arrival_view(requests, s, max_points, cover) for s in RESOLUTIONS_S},
        "timestamp_granularity_s": granularity_s,
        "default_every_s": default_every_s,
        "timestamp_notice": granularity_notice(granularity_s, default_every_s),
        "daily_profile": daily_profile_view(requests, default_every_s)
        if held.daily_profile
        else None,
        "latency": latency_view(requests, max_points),
        "paths": paths_view(requests) if held.path else [],
        "pages_per_session": count_histogram(session_table["pages"].to_numpy())
        if sessions
        else None,
    }


def count_histogram(values: np.ndarray, max_bins: int = 40) -> dict[str, list[int]]:
    """Counts of a positive integer quantity in bins ``[edges[i], edges[i + 1])`` of one
    integer width (1 when the values span at most ``max_bins``)."""
    if len(values) == 0:
        return {"edges": [], "counts": []}
    lo, hi = int(values.min()), int(values.max())
    width = -(-(hi - lo + 1) // max_bins)
    edges = np.arange(lo, hi + width + 1, width)
    counts, _ = np.histogram(values, bins=edges)
    return {"edges": edges.tolist(), "counts": counts.tolist()}


def _epoch_ms(frame: pl.DataFrame) -> list[int]:
    return frame["t"].dt.epoch("ms").to_list()


def arrival_view(
    requests: pl.DataFrame,
    every_s: int,
    max_points: int,
    cover: Coverage | None = None,
    weight: str | None = None,
) -> dict[str, Any]:
    total = arrival_series(requests, every_s, cover=cover, weight=weight)
    counts = total["count"].to_numpy()
    rates = bucket_rates(total, every_s, cover) if cover else counts / every_s
    kept = lttb_indices(np.arange(len(counts)), counts, max_points)
    classes = _class_counts_at(requests, every_s, weight, total["t"].gather(kept))
    t_ms = total["t"].dt.epoch("ms").to_numpy()
    return {
        "every_s": every_s,
        "stats": series_stats(total, every_s, cover).to_dict(),
        "downsampled": len(kept) < len(counts),
        "t_ms": t_ms[kept].tolist(),
        "count": counts[kept].tolist(),
        "rate_per_s": rates[kept].tolist(),
        "by_class": dict(sorted(classes.items())),
    }


def _class_counts_at(
    requests: pl.DataFrame, every_s: int, weight: str | None, times: pl.Series
) -> dict[str, list[int]]:
    """Each request class's arrivals in the buckets starting at ``times`` (0 where it has
    none): the gap-filled series per class read only where the chart keeps a point, not
    built whole (a second's buckets over weeks, times every class), and only the rows
    of those buckets counted (every class of the log is listed, with zeros there)."""
    count = pl.len() if weight is None else pl.col(weight).sum()
    cls = pl.col(CLASS_COLUMN).fill_null("(none)")
    lazy = requests.lazy()
    names = lazy.select(cls.unique()).collect()[CLASS_COLUMN].to_list()
    t = pl.col("ts").dt.truncate(f"{every_s}s").alias("t")
    wanted = pl.DataFrame({"t": times.cast(lazy.collect_schema()["ts"])})
    sparse = (
        lazy.select(t, cls, *([] if weight is None else [weight]))
        .filter(pl.col("t").is_in(wanted["t"].implode()))
        .group_by("t", CLASS_COLUMN)
        .agg(count.cast(pl.Int64).alias("count"))
        .collect()
    )
    parts = sparse.partition_by(CLASS_COLUMN, as_dict=True)
    empty = sparse.clear()
    return {
        str(name): wanted.join(
            parts.get((name,), empty), on="t", how="left", maintain_order="left"
        )["count"]
        .fill_null(0)
        .to_list()
        for name in sorted(names)
    }


def daily_profile_view(
    requests: pl.DataFrame,
    every_s: int = 60,
    cover: Coverage | None = None,
    weight: str | None = None,
) -> dict[str, Any]:
    """Mean requests per minute of day over buckets of ``every_s`` (the finest the
    timestamps support): each minute of a bucket holds the bucket's mean per minute, so
    hourly-stamped requests spread over their hour instead of spiking at one minute."""
    profile = daily_profile(requests, every_s=every_s, cover=cover, weight=weight)
    minutes = every_s // 60
    mean: list[float | None] = [None] * MINUTES_PER_DAY
    for minute, value in zip(profile["minute_of_day"], profile["mean_count"], strict=True):
        start = int(minute)
        mean[start : start + minutes] = [float(value) / minutes] * minutes
    days = int(profile["days"].max()) if profile.height else 0  # type: ignore[arg-type]
    return {"mean_per_min": mean, "days": days, "every_s": every_s}


def latency_bucket_s(requests: pl.DataFrame, max_points: int) -> int:
    span = requests.select((pl.col("ts").max() - pl.col("ts").min()).dt.total_seconds())
    span_s = float(span.item() or 0.0)
    return next((b for b in LATENCY_BUCKETS_S if span_s / b < max_points), LATENCY_BUCKETS_S[-1])


def _percentile_columns(frame: pl.DataFrame) -> dict[str, Any]:
    names = [c for c in frame.columns if c.endswith("_s")]
    return {"t_ms": _epoch_ms(frame), "count": frame["count"].to_list()} | {
        c: frame[c].to_list() for c in names
    }


def latency_view(requests: pl.DataFrame, max_points: int) -> dict[str, Any] | None:
    """Null when the log has no latencies."""
    if requests["latency_s"].null_count() == requests.height:
        return None
    every_s = latency_bucket_s(requests, max_points)
    overall = latency_over_time(requests, every_s)
    per_class = latency_over_time(requests, every_s, CLASS_COLUMN)
    return {
        "every_s": every_s,
        "overall": _percentile_columns(overall),
        "by_class": {
            str(name): _percentile_columns(part.drop(CLASS_COLUMN))
            for (name,), part in sorted(per_class.partition_by(CLASS_COLUMN, as_dict=True).items())
        },
    }


def paths_view(requests: pl.DataFrame, top: int = TOP_PATHS) -> list[dict[str, Any]]:
    """Busiest first, ``other`` last; ``count`` is the requests with a latency."""
    rows = latency_by_path(requests, top).rename({"path_group": "path"})
    return rows.with_columns(pl.col("count").fill_null(0)).to_dicts()
