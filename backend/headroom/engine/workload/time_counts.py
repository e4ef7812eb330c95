"""The counts of requests by time and request class, made once by the plan's streaming
scan of the whole table (docs/methods/workload.md, "Bounded memory"): they need no
sessions, so no partition's map makes them and the reduce merges no copies of them.

- ``requests_1s``: ``ts`` (truncated to the second), ``cls_request``, ``n``;
- ``lat_time``: the latency histogram (sketch.py) per time bucket ``t`` of
  ``latency_every_s`` and request class.

Both are the frames the merge of every partition's counts would give (the same rows, in
the same key order), so the characterization document is the same byte for byte.

Both come from one pass over the table, a batch of BATCH_ROWS requests at a time, each
request classified once, and are counted by integer keys, never strings: a request
class is its code (its rank among the sorted class names), a time its second (or
latency bucket) since the log's first one, both packed into one integer. The requests
per second and class are added into a dense array (seconds x classes) when it is small
(DENSE_CELLS), otherwise, as the latency histogram, counted by key per batch and the
batches' counts merged as they accumulate: memory follows the frames' rows, never the
requests. Timestamps are UTC (every parser's), so a bucket of ``every_s`` seconds is
the epoch time's floor, as ``dt.truncate`` gives."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .classify import Rules, class_codes, default_rules, with_extension
from .sketch import ZERO_BUCKET, bucket_index

TIME_COUNTS = ("requests_1s", "lat_time")
BATCH_ROWS = 250_000
# the dense requests per second and class, at most (8 bytes a cell)
DENSE_CELLS = 1 << 23
# counts by key of the batches held before they are merged, beyond the merged rows
MERGE_ROWS = 1_000_000
# every finite positive value's latency bucket lies within +-2^16 (sketch.py); slot 0
# is the zero bucket
IDX_OFFSET = 1 << 16
IDX_SLOTS = 1 << 17
UNITS_PER_S = {"ns": 1_000_000_000, "us": 1_000_000, "ms": 1_000}


@dataclass(frozen=True)
class Grid:
    """The integer keys' layout: ``seconds`` from the first second (the slot ``seconds``
    holds requests without a timestamp), ``buckets`` latency buckets of ``step``
    timestamp units from the first one (the slot ``buckets``: without a timestamp), and
    the request classes' names in code order (None: an unclassified request)."""

    dtype: pl.Datetime
    first_s: int
    seconds: int
    step: int
    first_t: int
    buckets: int
    names: list[str | None]

    @property
    def per_second(self) -> int:
        return UNITS_PER_S[self.dtype.time_unit or "us"]


def time_counts(
    table: pl.LazyFrame, rules: Rules | None, classify: bool, latency_every_s: int
) -> dict[str, pl.DataFrame]:
    """Both frames of the table (classified by ``rules`` if ``classify``)."""
    if classify:
        table = with_extension(table, (rules or default_rules()).request)
    code, names = _request_codes(table, rules, classify)
    grid = _grid(table, names, latency_every_s)
    per_second = _PerSecond(grid)
    latency = _Counts(with_max=True)
    for batch in _keys(table, code, grid).collect_batches(chunk_size=BATCH_ROWS):
        per_second.add(batch["second"].to_numpy())
        latency.add(batch.drop_nulls("bucket").select(pl.col("bucket").alias("key"), "latency_s"))
    return {
        "requests_1s": _requests_1s(per_second.counts(), grid),
        "lat_time": _lat_time(latency.merged(), grid),
    }


def _request_codes(
    table: pl.LazyFrame, rules: Rules | None, classify: bool
) -> tuple[pl.Expr, list[str | None]]:
    """Each request's class code, and the names in code order: the rules' classes, or
    the table's own (read by a streaming query; unclassified requests last)."""
    if classify:
        code, names = class_codes((rules or default_rules()).request, set(table.collect_schema()))
        return code, list(names)
    column = pl.col("cls_request").cast(pl.String)
    seen = table.select(column.unique()).collect(engine="streaming")["cls_request"]
    named = sorted(seen.drop_nulls().to_list())
    code = column.replace_strict(
        named, range(len(named)), default=len(named), return_dtype=pl.Int64
    )
    return code, [*named, None] if seen.null_count() else named


def _grid(table: pl.LazyFrame, names: list[str | None], latency_every_s: int) -> Grid:
    dtype = table.collect_schema()["ts"]
    if not isinstance(dtype, pl.Datetime):
        raise TypeError(f"ts is {dtype}, not a datetime")
    ts = pl.col("ts").to_physical()
    span = table.select(ts.min().alias("first"), ts.max().alias("last")).collect()
    first, last = span.row(0)
    first, last = (0, 0) if first is None else (first, last)
    per_second = UNITS_PER_S[dtype.time_unit or "us"]
    step = latency_every_s * per_second
    return Grid(
        dtype=dtype,
        first_s=first // per_second,
        seconds=last // per_second - first // per_second + 1,
        step=step,
        first_t=first // step,
        buckets=last // step - first // step + 1,
        names=names,
    )


def _keys(table: pl.LazyFrame, code: pl.Expr, grid: Grid) -> pl.LazyFrame:
    """Per request: ``second`` (second and class, packed) and, with a latency,
    ``bucket`` (latency bucket, class and histogram bucket, packed), and the latency."""
    ts = pl.col("ts").to_physical()
    classes = len(grid.names)
    second = (ts // grid.per_second - grid.first_s).fill_null(grid.seconds) * classes + code
    t = (ts // grid.step - grid.first_t).fill_null(grid.buckets) * classes + code
    idx = bucket_index(pl.col("latency_s"))
    slot = pl.when(idx == ZERO_BUCKET).then(0).otherwise(idx.cast(pl.Int64) + IDX_OFFSET)
    latency = pl.col("latency_s")
    has_latency = latency.is_not_null() & (latency >= 0)
    return table.select(
        second.alias("second"),
        pl.when(has_latency).then(t * IDX_SLOTS + slot).alias("bucket"),
        latency,
    )


class _PerSecond:
    """Requests per packed (second, class) key: a dense array when the grid is small,
    otherwise counts by key."""

    def __init__(self, grid: Grid) -> None:
        cells = (grid.seconds + 1) * len(grid.names)
        self.dense = np.zeros(cells, np.int64) if cells <= DENSE_CELLS else None
        self.sparse = _Counts(with_max=False)

    def add(self, keys: np.ndarray) -> None:
        if self.dense is None:
            self.sparse.add(pl.DataFrame({"key": keys}))
            return
        if len(keys) == 0:
            return
        low = int(keys.min())
        counted = np.bincount(keys - low)
        self.dense[low : low + len(counted)] += counted

    def counts(self) -> pl.DataFrame:
        """``key``, ``n`` of every key seen, in key order."""
        if self.dense is None:
            return self.sparse.merged()
        keys = np.flatnonzero(self.dense)
        return pl.DataFrame({"key": keys.astype(np.int64), "n": self.dense[keys]})


class _Counts:
    """Rows by integer ``key`` (and their largest ``latency_s``), counted a batch at a
    time; the batches' counts are merged once they hold MERGE_ROWS more rows than twice
    the last merge's, so they never hold many more than the distinct keys."""

    def __init__(self, with_max: bool) -> None:
        self.with_max = with_max
        self.parts: list[pl.DataFrame] = []
        self.held = self.merged_rows = 0

    def add(self, batch: pl.DataFrame) -> None:
        aggs = [pl.len().cast(pl.Int64).alias("n")]
        if self.with_max:
            aggs.append(pl.col("latency_s").max().alias("max"))
        self.parts.append(batch.group_by("key").agg(aggs))
        self.held += self.parts[-1].height
        if self.held > 2 * self.merged_rows + MERGE_ROWS:
            self.parts = [self._merge()]
            self.held = self.merged_rows = self.parts[0].height

    def _merge(self) -> pl.DataFrame:
        aggs = [pl.col("n").sum()] + ([pl.col("max").max()] if self.with_max else [])
        both = pl.concat(self.parts)
        self.parts = []
        return both.group_by("key").agg(aggs)

    def merged(self) -> pl.DataFrame:
        """``key``, ``n`` (and ``max``) in key order."""
        if not self.parts:
            schema = {"key": pl.Int64, "n": pl.Int64} | (
                {"max": pl.Float64} if self.with_max else {}
            )
            return pl.DataFrame(schema=schema)
        return self._merge().sort("key")


def _class_names(grid: Grid, codes: pl.Expr) -> pl.Expr:
    names = pl.Series(grid.names, dtype=pl.String)
    return codes.replace_strict(range(len(grid.names)), names, return_dtype=pl.String)


def _requests_1s(counts: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    classes = len(grid.names)
    second = pl.col("key") // classes
    ts = pl.when(second < grid.seconds).then((second + grid.first_s) * grid.per_second)
    return counts.select(
        ts.cast(grid.dtype).alias("ts"),
        _class_names(grid, pl.col("key") % classes).alias("cls_request"),
        "n",
    )


def _lat_time(counts: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    classes = len(grid.names)
    packed = pl.col("key") // IDX_SLOTS
    bucket = packed // classes
    slot = pl.col("key") % IDX_SLOTS
    t = pl.when(bucket < grid.buckets).then((bucket + grid.first_t) * grid.step)
    idx = pl.when(slot == 0).then(ZERO_BUCKET).otherwise(slot - IDX_OFFSET)
    return counts.select(
        t.cast(grid.dtype).alias("t"),
        _class_names(grid, packed % classes).alias("cls_request"),
        idx.cast(pl.Int32).alias("idx"),
        "n",
        "max",
    )
