"""The dataset page's chart data (display.py's document) from merged partial results
(partial.py) instead of the request table: arrivals from the counts per second and
request class, latency percentiles over time and per path from log-bucket histograms
(sketch.py: within its relative error; counts and maxima exact), pages per session from
its exact counts."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded

from .arrivals import RESOLUTIONS_S
from .coverage import Coverage, granularity_notice, supported_every_s
from .display import (
    CLASS_COLUMN,
    MAX_POINTS,
    _percentile_columns,
    arrival_view,
    daily_profile_view,
)
from .partial import OTHER_PATHS
from .sketch import merge_histograms, percentiles


def display_from(
    frames: dict[str, pl.DataFrame],
    cover: Coverage | None,
    held: FieldsRecorded,
    latency_every_s: int,
    max_points: int = MAX_POINTS,
) -> dict[str, Any]:
    granularity_s = cover.granularity_s if cover else 0.0
    default_every_s = supported_every_s(max(granularity_s, 60.0), RESOLUTIONS_S)
    counts = frames["requests_1s"]
    return {
        "arrivals": {
            str(s): arrival_view(counts, s, max_points, cover, "n") for s in RESOLUTIONS_S
        },
        "timestamp_granularity_s": granularity_s,
        "default_every_s": default_every_s,
        "timestamp_notice": granularity_notice(granularity_s, default_every_s),
        "daily_profile": daily_profile_view(counts, default_every_s, cover, "n")
        if held.daily_profile
        else None,
        "latency": _latency_view(frames["lat_time"], latency_every_s),
        "paths": _paths(frames) if held.path else [],
        "pages_per_session": _count_histogram(frames["pages_per_session"])
        if held.sessions and held.path
        else None,
    }


def _latency_view(hist: pl.DataFrame, every_s: int) -> dict[str, Any] | None:
    if hist.height == 0:
        return None
    overall = percentiles(merge_histograms([hist], ["t"]), ["t"])
    per_class = percentiles(hist, [CLASS_COLUMN, "t"])
    return {
        "every_s": every_s,
        "overall": _percentile_columns(overall),
        "by_class": {
            str(name): _percentile_columns(part.drop(CLASS_COLUMN))
            for (name,), part in sorted(per_class.partition_by(CLASS_COLUMN, as_dict=True).items())
        },
    }


def _paths(frames: dict[str, pl.DataFrame]) -> list[dict[str, Any]]:
    requests = frames["path_requests"].rename({"n": "requests"})
    hist = frames["lat_path"]
    lat = percentiles(hist, ["path_group"]) if hist.height else None
    out = requests if lat is None else requests.join(lat, on="path_group", how="left")
    for column in ("count", "p50_s", "p90_s", "p95_s", "p99_s", "max_s"):
        if column not in out.columns:
            out = out.with_columns(pl.lit(None, pl.Float64).alias(column))
    out = out.select("path_group", "requests", "count", "p50_s", "p90_s", "p95_s", "p99_s", "max_s")
    out = out.sort(
        [pl.col("path_group") == OTHER_PATHS, "requests", "path_group"],
        descending=[False, True, False],
    )
    rows = out.rename({"path_group": "path"}).with_columns(
        pl.col("count").fill_null(0).cast(pl.Int64)
    )
    return rows.to_dicts()


def _count_histogram(counts: pl.DataFrame, max_bins: int = 40) -> dict[str, list[int]]:
    """display.count_histogram of the values ``pages`` each seen ``n`` times."""
    if counts.height == 0:
        return {"edges": [], "counts": []}
    values = counts["pages"].to_numpy()
    lo, hi = int(values.min()), int(values.max())
    width = -(-(hi - lo + 1) // max_bins)
    edges = np.arange(lo, hi + width + 1, width)
    binned, _ = np.histogram(values, bins=edges, weights=counts["n"].to_numpy())
    return {"edges": edges.tolist(), "counts": binned.astype(np.int64).tolist()}
