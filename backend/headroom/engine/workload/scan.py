"""The scan of a characterization in bounded memory (docs/methods/workload.md, "Bounded
memory"): what every map needs of the whole log before the maps run.

1. :func:`plan`: the table's metadata and cheap aggregates: the number of requests and
   of partitions for the memory budget (:func:`partition_rows`), the fields recorded and
   the grid of the counts by time (first and last timestamps, classes).
2. :class:`ScanCounter`: one share of the table's counts, slice by slice (the spill
   counts the slices it reads, spill.py): the counts by time of time_counts.py and the
   requests per path.
3. :func:`scan_from`: the :class:`Scan` of every share's counts: the coverage from the
   distinct timestamps, the requests per minute and user class, which minutes are quiet
   (for the service time), the counts by time and request class (which the reduce reads
   as they are) and the top paths. :func:`scan` does all three over the whole table in
   one pass, for a single partition.

The plan and the scan go between the worker's tasks as JSON (their frames stored apart).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded, fields_recorded

from .buckets import MIN_BUCKET_ROWS
from .characterization import _unclassified
from .classify import Rules
from .coverage import Coverage, coverage
from .display import LATENCY_BUCKETS_S, MAX_POINTS, TOP_PATHS
from .fitting import MAX_FIT_N
from .partial import PartContext
from .sessions import SessionSettings
from .time_counts import (
    BATCH_ROWS,
    Grid,
    TimeCounter,
    grid_from_json,
    grid_to_json,
    merge_by_time,
    time_grid,
)

MAP_BYTES_PER_ROW = 1400
MAP_BUDGET_SHARE = 0.35

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
