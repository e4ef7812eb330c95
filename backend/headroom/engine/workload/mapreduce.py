"""Characterization in bounded memory, as a map over partitions of the clients and a reduce
(docs/methods/workload.md, "Bounded memory").

1. The plan and the scan (scan.py): the table's metadata, then its counts by time and by
   path, counted by the spill.
2. The spill (spill.py), then :func:`map_spilled`: one partition's requests annotated and
   reduced to a partial (partial.py).
3. :func:`partial.merge` of the partials, in any order and grouping, then
   :func:`finish`: the same :class:`Characterization` document as the one-pass
   :func:`characterize` (exact counts, means and arrival statistics; percentiles within
   the sketch's relative error; fits on a uniform sample of at most ``MAX_FIT_N`` values,
   as the one-pass fits are) and the dataset page's chart data.

The CLI spills (and scans) in one pass and runs the map in its own process, one partition
after another, each partial stored in a temporary folder, then merges the stored
partials; the worker runs one spill task per share, makes the scan in the spill chord's
callback, then runs one map task per partition, and reduces in a chord.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded

from .arrivals import arrival_series, arrival_stats
from .characterization import (
    Characterization,
    load_time_s_mean,
    model_from_grid,
    profile_step_for,
)
from .classify import Rules
from .coverage import supported_every_s
from .fitting import MAX_FIT_N, FitReport, fit_sample, not_fitted
from .partial import Partial, map_part, merge_stored
from .reduce_display import display_from
from .scan import Scan, ScanCounter, plan, scan_from, scan_share
from .sessions import SessionSettings
from .sketch import merge_histograms, percentiles
from .spill import TEMPORARY_COMPRESSION, partition, spill

SIZE_FITS = ("html_bytes", "object_bytes")
FITTED = (
    "requests_per_session",
    "think_time_s",
    "objects_per_page",
    "html_bytes",
    "object_bytes",
    "object_gap_s",
    "service_time_s",
)
MIN_LOW_LOAD = 50


def map_partition(table: pl.LazyFrame, index: int, found: Scan) -> Partial:
    """Partition ``index``'s partial, filtered from the whole table (see :func:`spill`
    for reading each partition once)."""
    part = partition(table, index, found.parts).collect(engine="streaming")
    return map_part(part, found.context, found.parts)


def map_spilled(path: Path | pl.LazyFrame, found: Scan) -> Partial:
    """The partial of one partition's spilled requests (a path, or the lazy scan of it)."""
    lazy = path if isinstance(path, pl.LazyFrame) else pl.scan_parquet(path)
    return map_part(lazy.collect(), found.context, found.parts)


def characterize_parts(
    table: pl.DataFrame | pl.LazyFrame,
    rules: Rules | None = None,
    settings: SessionSettings | None = None,
    memory_budget_mb: int | None = None,
    name: str = "workload",
) -> Characterization:
    """The characterization of ``table``, one partition of clients at a time (as many as
    the memory budget asks, spilled to temporary files by one pass over the table), the
    partials stored beside them and merged at the end."""
    lazy = table.lazy()
    del table
    planned = plan(lazy, rules, settings, memory_budget_mb)
    if planned.requests == 0:
        raise ValueError("the request table is empty")
    if planned.parts == 1:
        found = scan_from(planned, [scan_share(lazy, planned)])
        merged = map_partition(lazy, 0, found)
    else:
        with tempfile.TemporaryDirectory(prefix="headroom-partitions-") as folder:
            counter = ScanCounter(planned, lazy.collect_schema().names())
            paths = spill(lazy, planned.parts, Path(folder), counter=counter)
            found = scan_from(planned, [counter.partial()])
            merged = _map_and_merge(paths, found)
    return finish(merged, found, name)


def _map_and_merge(paths: list[Path], found: Scan) -> Partial:
    """Each partition mapped in turn, its partial written beside its requests (which are
    then removed), and the stored partials merged frame by frame."""
    stored = []
    for path in paths:
        partial = map_spilled(path, found)
        path.unlink()
        frames = {}
        for name, frame in partial.frames.items():
            frame_path = path.with_name(f"{path.stem}-{name}.parquet")
            # read whole by the merge: no statistics to skip row groups by
            frame.write_parquet(frame_path, compression=TEMPORARY_COMPRESSION, statistics=False)
            frames[name] = pl.scan_parquet(frame_path)
        stored.append(frames)
        del partial
    return merge_stored(stored, MAX_FIT_N)


def finish(merged: Partial, found: Scan, name: str = "workload") -> Characterization:
    """The characterization document of the merged partial of every partition (and the
    scan's counts by time)."""
    frames, held, cover = merged.frames | found.counts, found.held, found.cover
    granularity_s = cover.granularity_s if cover else 0.0
    fits = {q: _fit(frames, q, None) for q in FITTED}
    pages = frames["pages_60s"].with_columns(pl.col("cls_user").fill_null("normal"))
    step_s = profile_step_for(cover)
    grid = arrival_series(pages, step_s, "cls_user", cover, weight="n")

    def class_fits(cls: str) -> dict[str, FitReport]:
        return {q: _fit(frames, q, cls) for q in FITTED}

    model = model_from_grid(grid, fits, class_fits, step_s, name, cover)
    totals = frames["totals"].row(0, named=True)
    lat = frames["lat_time"]
    units = {
        "pages": (frames["pages_60s"], held.path),
        "sessions": (frames["sessions_60s"], held.sessions),
    }
    classes = frames["classes"]
    return Characterization(
        requests=found.requests,
        arrivals=arrival_stats(
            frames["requests_1s"], supported_every_s(granularity_s, (60, 3600)), cover, "n"
        ),
        arrivals_hourly=arrival_stats(frames["requests_1s"], 3600, cover, "n"),
        classes={"request": _shares(classes, "cls_request"), "user": _shares(classes, "cls_user")},
        pages=_page_summary(totals, held),
        sessions=_session_summary(totals, held),
        latency=_latency(lat),
        latency_by_class=_latency_by_class(lat),
        fits=fits,
        model=model,
        unit_arrivals_hourly={
            k: arrival_stats(t, 3600, cover, "n") for k, (t, ok) in units.items() if ok
        },
        fields_recorded=held,
        timestamp_granularity_s=granularity_s,
        observed={q: _observed(frames, q) for q in FITTED},
        display=display_from(frames, cover, held, found.context.latency_every_s),
    )


def _shares(classes: pl.DataFrame, column: str) -> dict[str, float]:
    counts = classes.group_by(column).agg(pl.col("n").sum()).sort(column)
    total = max(int(classes["n"].sum()), 1)
    return {str(k): n / total for k, n in counts.iter_rows()}


def _mean(total: float, n: int) -> float | None:
    return total / n if n else None


def _page_summary(t: dict[str, Any], held: FieldsRecorded) -> dict[str, float | int | None]:
    if not held.path and t["pages"]:
        return dict.fromkeys(
            (
                "count",
                "with_base",
                "objects_per_page_mean",
                "bytes_per_page_mean",
                "load_time_s_mean",
            )
        )
    return {
        "count": t["pages"],
        "with_base": t["with_base"],
        "objects_per_page_mean": _mean(t["page_objects"], t["pages"]),
        "bytes_per_page_mean": _mean(t["page_bytes"], t["pages"]) if held.bytes else None,
        "load_time_s_mean": load_time_s_mean(int(t["load_time_sum_ns"]), t["load_times"]),
    }


def _session_summary(t: dict[str, Any], held: FieldsRecorded) -> dict[str, float | int | None]:
    if not held.sessions and t["sessions"]:
        return dict.fromkeys(("count", "pages_per_session_mean", "requests_per_session_mean"))
    return {
        "count": t["sessions"],
        "pages_per_session_mean": _mean(t["session_pages"], t["sessions"]) if held.path else None,
        "requests_per_session_mean": _mean(t["session_requests"], t["sessions"]),
    }


def _latency(lat: pl.DataFrame) -> dict[str, float] | None:
    """Over the buckets of every time and class, added first (the same percentiles from
    a few hundred rows instead of the time buckets')."""
    if lat.height == 0:
        return None
    return percentiles(merge_histograms([lat], []), []).row(0, named=True)


def _latency_by_class(lat: pl.DataFrame) -> dict[str, dict[str, float]]:
    if lat.height == 0:
        return {}
    per_class = merge_histograms([lat], ["cls_request"])
    rows = percentiles(per_class, ["cls_request"]).iter_rows(named=True)
    return {str(r.pop("cls_request")): r for r in rows}


def _sample_of(
    frames: dict[str, pl.DataFrame], quantity: str, cls: str | None
) -> tuple[np.ndarray, int, int]:
    """The merged sample of a quantity (of one user class, or of all) with its exact
    count of values and of zeros."""
    mine = pl.col("quantity") == quantity
    if cls is not None:
        mine = mine & (pl.col("cls_user").fill_null("normal") == cls)
    counts = frames["sample_counts"].filter(mine)
    chosen = frames["samples"].filter(mine).sort("key", "value").head(MAX_FIT_N)
    return chosen["value"].to_numpy(), int(counts["n"].sum()), int(counts["zeros"].sum())


def _service_sample(
    frames: dict[str, pl.DataFrame], cls: str | None
) -> tuple[np.ndarray, int, int]:
    """Latencies of the quietest quarter of the busy minutes, or all of them when that
    leaves fewer than MIN_LOW_LOAD (as the one-pass characterization chooses)."""
    quiet = "latency_quiet_all" if cls is None else "latency_quiet_class"
    sample = _sample_of(frames, quiet, cls)
    return sample if sample[1] >= MIN_LOW_LOAD else _sample_of(frames, "latency_any", cls)


def _fit(frames: dict[str, pl.DataFrame], quantity: str, cls: str | None) -> FitReport:
    if quantity == "service_time_s":
        values, n, zeros = _service_sample(frames, cls)
    else:
        values, n, zeros = _sample_of(frames, quantity, cls)
    try:
        return fit_sample(values, n, zeros, body_tail=quantity in SIZE_FITS)
    except (ValueError, ArithmeticError, RuntimeError, np.linalg.LinAlgError) as exc:
        return not_fitted(values, f"the fit failed on these values ({exc})")


def _observed(frames: dict[str, pl.DataFrame], quantity: str) -> np.ndarray:
    """The sample with zeros in the whole quantity's proportion (for the histograms)."""
    if quantity == "service_time_s":
        values, n, zeros = _service_sample(frames, None)
    else:
        values, n, zeros = _sample_of(frames, quantity, None)
    positive = n - zeros
    scaled = round(zeros * len(values) / positive) if positive else zeros
    return np.concatenate([np.zeros(scaled), np.sort(values)])
