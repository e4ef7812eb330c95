"""Characterization in bounded memory, as a map over partitions of the clients and a reduce
(docs/methods/workload.md, "Bounded memory").

1. :func:`plan`: the table's metadata and cheap aggregates: the number of requests and
   of partitions for the memory budget (:func:`partition_rows`), the fields recorded and
   the grid of the counts by time (first and last timestamps, classes).
2. :func:`spill`: one streaming pass over the table (or over one of its
   :func:`spill_shares`, contiguous ranges of rows) that writes each partition's requests
   (those whose ``hash(client) mod parts`` is the partition's) to a Parquet file of its
   own, in the table's order, and counts the slices it reads (:class:`ScanCounter`: the
   counts by time of time_counts.py and the requests per path); :func:`scan_from` makes
   the :class:`Scan` of every share's counts (the coverage from the distinct timestamps,
   the requests per minute and user class, which minutes are quiet, for the service
   time, the counts by time and request class, which the reduce reads as they are, the
   top paths). With a single partition, nothing is spilled and :func:`scan` counts the
   table in one pass. :func:`map_spilled` reads one partition's file, or its files from
   every share in share order (never the whole table again), annotates its requests and
   reduces them to a partial (partial.py).
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

import math
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded, fields_recorded

from .arrivals import arrival_series, arrival_stats
from .buckets import MIN_BUCKET_ROWS
from .characterization import (
    Characterization,
    _unclassified,
    load_time_s_mean,
    model_from_grid,
    profile_step_for,
)
from .classify import Rules
from .coverage import Coverage, coverage, supported_every_s
from .display import LATENCY_BUCKETS_S, MAX_POINTS, TOP_PATHS
from .fitting import MAX_FIT_N, FitReport, fit_sample, not_fitted
from .partial import PartContext, Partial, map_part, merge_stored
from .reduce_display import display_from
from .sessions import SessionSettings
from .sketch import merge_histograms, percentiles
from .time_counts import (
    BATCH_ROWS,
    Grid,
    TimeCounter,
    grid_from_json,
    grid_to_json,
    merge_by_time,
    time_grid,
)

PARTITION_SEED = 0x5CA1E
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
MAP_BYTES_PER_ROW = 1400
MAP_BUDGET_SHARE = 0.35
# rows read at a time by the spill (its peak stays below a map's)
SPILL_BATCH_ROWS = 200_000
# slices a spill task reads (its share of the table; the workers spill shares side by side)
SPILL_SHARE_BATCHES = 5
PART_COLUMN = "__partition"
# the spilled partitions and their partials are read once, on this machine: a fast codec
TEMPORARY_COMPRESSION: Final = "lz4"
# the frames of a share's partial of the scan (ScanCounter.partial)
SCAN_PARTIAL = ("per_second", "per_minute", "latency", "timestamps", "paths")


@dataclass(frozen=True)
class Scan:
    cover: Coverage | None
    held: FieldsRecorded
    requests: int
    parts: int
    context: PartContext
    # time_counts.py's frames (the maps and spills go without them)
    counts: dict[str, pl.DataFrame] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What the scan knows before reading the requests themselves: the fields recorded,
    the requests (their number and the partitions they make) and the grid of their
    counts by time."""

    held: FieldsRecorded
    requests: int
    parts: int
    grid: Grid
    classify: bool
    latency_every_s: int
    sample_size: int = MAX_FIT_N
    rules: Rules | None = None
    settings: SessionSettings | None = None


def plan(
    table: pl.LazyFrame,
    rules: Rules | None = None,
    settings: SessionSettings | None = None,
    memory_budget_mb: int | None = None,
    sample_size: int = MAX_FIT_N,
) -> Plan:
    """The table's plan: the requests (their number from the metadata, or a count of the
    filtered rows) and the partitions they make for the memory budget, the fields
    recorded, the grid of the counts by time (each a read of a few columns)."""
    classify = _unclassified(table, rules)
    held = fields_recorded(table)
    latency_every_s = _latency_every_s(held.span_s)
    requests = int(table.select(pl.len()).collect().item())
    rows = partition_rows(memory_budget_mb)
    parts = 1 if rows is None else max(math.ceil(requests / rows), 1)
    grid = time_grid(table, rules, classify, latency_every_s)
    return Plan(
        held, requests, parts, grid, classify, latency_every_s, sample_size, rules, settings
    )


class ScanCounter:
    """A share of the scan's counts, batch by batch: by time (time_counts.py) and by
    path; the shares' partials make the Scan (:func:`scan_from`)."""

    def __init__(self, planned: Plan, names: list[str]) -> None:
        self.time = TimeCounter(planned.grid, planned.rules, planned.classify, names)
        self.columns = sorted({*self.time.columns, "path"})
        self.paths = pl.DataFrame(schema={"path": pl.String, "n": pl.Int64})

    def add(self, batch: pl.DataFrame) -> None:
        """A batch of requests (with at least ``columns``)."""
        self.time.add(batch)
        counted = batch["path"].value_counts(name="n").cast({"n": pl.Int64})
        paths = pl.concat([self.paths, counted])
        self.paths = paths.group_by("path").agg(pl.col("n").sum())

    def partial(self) -> dict[str, pl.DataFrame]:
        return self.time.partial() | {"paths": self.paths.sort("path")}  # the same file again


def scan_share(table: pl.LazyFrame, planned: Plan) -> dict[str, pl.DataFrame]:
    """The scan's partial of the whole table, in one streaming pass."""
    counter = ScanCounter(planned, table.collect_schema().names())
    for batch in table.select(counter.columns).collect_batches(chunk_size=BATCH_ROWS):
        counter.add(batch)
    return counter.partial()


def scan_from(planned: Plan, partials: list[dict[str, pl.DataFrame]]) -> Scan:
    """The Scan of the table from every share's partial: the coverage from the distinct
    timestamps, the top paths, which minutes are quiet, the counts by time."""
    by_time = merge_by_time(partials, planned.grid)
    cover = coverage(by_time.timestamps) if by_time.timestamps.size else None
    context = PartContext(
        latency_every_s=planned.latency_every_s,
        top_paths=_top_paths(pl.concat([p["paths"] for p in partials])),
        quiet=_quiet(by_time.per_minute),
        sample_size=planned.sample_size,
        rules=planned.rules,
        classify=planned.classify,
        settings=planned.settings,
    )
    return Scan(cover, planned.held, planned.requests, planned.parts, context, by_time.counts)


def scan(
    table: pl.LazyFrame,
    rules: Rules | None = None,
    settings: SessionSettings | None = None,
    memory_budget_mb: int | None = None,
    sample_size: int = MAX_FIT_N,
) -> Scan:
    """The plan and the scan of the whole table, in this process."""
    planned = plan(table, rules, settings, memory_budget_mb, sample_size)
    return scan_from(planned, [scan_share(table, planned)])


def partition_rows(memory_budget_mb: int | None) -> int | None:
    """Requests per partition for a memory budget (None: the whole table at once): a
    partition's map holds about MAP_BYTES_PER_ROW a request at its peak (measured on
    Combined logs), and may use MAP_BUDGET_SHARE of the budget (the rest: the process
    itself and the merged partial)."""
    if memory_budget_mb is None:
        return None
    budget_bytes = memory_budget_mb * (1 << 20) * MAP_BUDGET_SHARE
    return max(int(budget_bytes // MAP_BYTES_PER_ROW), MIN_BUCKET_ROWS)


def _latency_every_s(span_s: float) -> int:
    fits = (b for b in LATENCY_BUCKETS_S if span_s / b < MAX_POINTS)
    return next(fits, LATENCY_BUCKETS_S[-1])


def _top_paths(paths: pl.DataFrame) -> tuple[str, ...]:
    """The most requested paths, of the shares' requests per path."""
    counts = paths.group_by("path").agg(pl.col("n").sum())
    ranked = counts.sort(["n", "path"], descending=[True, False]).head(TOP_PATHS)
    return tuple(ranked["path"].drop_nulls().to_list())


def _quiet(per_minute: pl.DataFrame) -> pl.DataFrame:
    """Per (minute, user class): whether the minute is among the quietest quarter of the
    busy minutes, of all requests (``quiet_all``) and of the class's (``quiet_class``)."""
    overall = per_minute.group_by("minute").agg(pl.col("n").sum())
    low = overall.filter(pl.col("n") <= pl.col("n").quantile(0.25, "lower"))
    per_class = per_minute.filter(
        pl.col("n") <= pl.col("n").quantile(0.25, "lower").over("cls_user")
    )
    return per_minute.select(
        "minute",
        "cls_user",
        pl.col("minute").is_in(low["minute"].implode()).alias("quiet_all"),
        pl.struct("minute", "cls_user")
        .is_in(per_class.select(pl.struct("minute", "cls_user"))["minute"].implode())
        .alias("quiet_class"),
    )


def partition(table: pl.LazyFrame, index: int, parts: int) -> pl.LazyFrame:
    """The requests of partition ``index`` of ``parts``: all of the clients hashed there."""
    if parts == 1:
        return table
    return table.filter(_bucket(parts) == index)


def _bucket(parts: int) -> pl.Expr:
    return pl.col("client").hash(PARTITION_SEED) % parts


def spill_shares(rows: int) -> list[range]:
    """The table's rows cut into contiguous shares of about SPILL_SHARE_BATCHES slices of
    SPILL_BATCH_ROWS each, as even as whole slices allow; each share can be spilled by a
    task of its own, and a partition's pieces in share order are its serial spill."""
    batches = max(math.ceil(rows / SPILL_BATCH_ROWS), 1)
    shares = math.ceil(batches / SPILL_SHARE_BATCHES)
    starts = [min(i * batches // shares * SPILL_BATCH_ROWS, rows) for i in range(shares + 1)]
    return [range(start, stop) for start, stop in pairwise(starts)]


def spill(
    table: pl.LazyFrame,
    parts: int,
    folder: Path,
    rows: range | None = None,
    name: str = "",
    keep: Callable[[pl.LazyFrame], pl.LazyFrame] | None = None,
    counter: ScanCounter | None = None,
) -> list[Path]:
    """Every partition's requests among the table's ``rows`` (all of them by default) in a
    Parquet file of its own under ``folder`` (``partition-<index><name>.parquet``, one per
    partition, empty ones included), in the table's order: one pass over consecutive
    slices of SPILL_BATCH_ROWS rows (a slice of a Parquet scan reads only its row groups;
    a streaming collect of the whole table would read ahead over several files), each
    slice's rows appended to their partition's file as a row group. With ``keep`` (a
    row-wise filter, such as a slice's), ``rows`` count the unfiltered table and each
    slice keeps its filtered rows: one pass over the table, where slices of the filtered
    table would each evaluate the filter from the table's start again. With ``counter``,
    each slice's kept rows are counted for the scan as well."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = [folder / f"partition-{index:05d}{name}.parquet" for index in range(parts)]
    schema = table.collect_schema()
    # strings repeat (clients, paths, agents); timestamps and numbers rarely do
    dictionary = [column for column, dtype in schema.items() if dtype == pl.String]
    writers: dict[int, pq.ParquetWriter] = {}
    arrow_schema: pa.Schema | None = None
    if rows is None:
        rows = range(table.select(pl.len()).collect().item())
    try:
        for start in range(rows.start, rows.stop, SPILL_BATCH_ROWS):
            read = table.slice(start, min(SPILL_BATCH_ROWS, rows.stop - start))
            kept = read if keep is None else keep(read)
            batch = kept.with_columns(_bucket(parts).alias(PART_COLUMN)).collect()
            if counter is not None:
                counter.add(batch)
            split = batch.partition_by(PART_COLUMN, as_dict=True, include_key=False)
            del batch
            for key, requests in split.items():
                index = int(key[0])
                arrow = requests.to_arrow(compat_level=pl.CompatLevel.newest())  # no copy
                if arrow_schema is None:
                    arrow_schema = arrow.schema
                if index not in writers:
                    writers[index] = pq.ParquetWriter(
                        paths[index],
                        arrow_schema,
                        compression=TEMPORARY_COMPRESSION,
                        use_dictionary=dictionary,
                        write_statistics=False,  # each file is read whole: nothing to skip
                    )
                if not arrow.schema.equals(arrow_schema):  # a cast imports pyarrow.compute
                    arrow = arrow.cast(arrow_schema)
                writers[index].write_table(arrow)
            del split
    finally:
        for writer in writers.values():
            writer.close()
    for index, path in enumerate(paths):
        if index not in writers:
            pl.DataFrame(schema=schema).write_parquet(path)
    return paths


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


def scan_to_json(found: Scan) -> dict[str, Any]:
    """The scan without its frames (``quiet`` and ``counts``, stored apart) and rules,
    as JSON."""
    cover = found.cover
    context = found.context
    return {
        "cover": None if cover is None else [cover.start_ns, cover.end_ns, cover.granularity_s],
        "held": asdict(found.held),
        "requests": found.requests,
        "parts": found.parts,
        "latency_every_s": context.latency_every_s,
        "top_paths": list(context.top_paths),
        "sample_size": context.sample_size,
        "classify": context.classify,
    }


def plan_to_json(planned: Plan) -> dict[str, Any]:
    """The plan without its rules and session settings, as JSON."""
    return {
        "held": asdict(planned.held),
        "requests": planned.requests,
        "parts": planned.parts,
        "grid": grid_to_json(planned.grid),
        "classify": planned.classify,
        "latency_every_s": planned.latency_every_s,
        "sample_size": planned.sample_size,
    }


def plan_from_json(data: dict[str, Any], rules: Rules | None) -> Plan:
    return Plan(
        held=FieldsRecorded(**data["held"]),
        requests=int(data["requests"]),
        parts=int(data["parts"]),
        grid=grid_from_json(data["grid"]),
        classify=bool(data["classify"]),
        latency_every_s=int(data["latency_every_s"]),
        sample_size=int(data["sample_size"]),
        rules=rules,
    )


def scan_from_json(
    data: dict[str, Any],
    quiet: pl.DataFrame,
    rules: Rules | None,
    counts: dict[str, pl.DataFrame] | None = None,
) -> Scan:
    cover = data["cover"]
    context = PartContext(
        latency_every_s=int(data["latency_every_s"]),
        top_paths=tuple(data["top_paths"]),
        quiet=quiet,
        sample_size=int(data["sample_size"]),
        rules=rules,
        classify=bool(data["classify"]),
    )
    return Scan(
        cover=None if cover is None else Coverage(int(cover[0]), int(cover[1]), float(cover[2])),
        held=FieldsRecorded(**data["held"]),
        requests=int(data["requests"]),
        parts=int(data["parts"]),
        context=context,
        counts=counts or {},
    )
