"""The counts of requests by time, made once over the whole table (docs/methods/
workload.md, "Bounded memory"): by each spill of a share of it, the shares' counts then
added up, or by one pass; they need no sessions, so no partition's map makes them and the
reduce merges no copies of them.

- ``requests_1s``: ``ts`` (truncated to the second), ``cls_request``, ``n``;
- ``lat_time``: the latency histogram (sketch.py) per time bucket ``t`` of
  ``latency_every_s`` and request class;
- the requests per minute and user class (``minute``, ``cls_user``, ``n``: which minutes
  are quiet, for the service time) and the distinct timestamps (the coverage).

The first two are the frames the merge of every partition's counts would give (the same
rows, in the same key order), so the characterization document is the same byte for
byte.

All come from batches of requests (only the columns the counts and the rules read),
each batch classified once (the rules run once per distinct path where they allow,
classify.apply_rules), and are counted by integer keys on the whole table's grid, never
strings: a class is its code (its rank among the sorted class names), a time its second
(minute, latency bucket) since the log's first one, both packed into one integer. The
requests per second (minute) and class are added into a dense array (seconds x classes)
when it is small (DENSE_CELLS), otherwise, as the latency histogram, counted by key, the
batches' keys merged as they accumulate: memory follows the frames' rows, never the
requests. A share's counts by key and distinct timestamps add up with the other shares'
exactly (:func:`merge_by_time`). Timestamps are UTC (every parser's), so a
bucket of ``every_s`` seconds is the epoch time's floor, as ``dt.truncate`` gives."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import polars as pl

from .classify import Rules, apply_rules, class_codes, default_rules, ruleset_expr
from .coverage import distinct_sorted
from .sketch import ZERO_BUCKET, bucket_index

TIME_COUNTS = ("requests_1s", "lat_time")
BATCH_ROWS = 125_000
# the dense requests per second (minute) and class, at most (8 bytes a cell)
DENSE_CELLS = 1 << 23
# keys (or timestamps) of the batches held before they are merged, beyond the merged rows
MERGE_ROWS = 1_000_000
# every finite positive value's latency bucket lies within +-2^16 (sketch.py); slot 0
# is the zero bucket
IDX_OFFSET = 1 << 16
IDX_SLOTS = 1 << 17
UNITS_PER_S = {"ns": 1_000_000_000, "us": 1_000_000, "ms": 1_000}
MINUTE_S = 60


@dataclass(frozen=True)
class Grid:
    """The integer keys' layout: ``seconds`` (``minutes``) from the first second (minute;
    the slot ``seconds``, ``minutes``, holds requests without a timestamp), ``buckets``
    latency buckets of ``step`` timestamp units from the first one (the slot
    ``buckets``: without a timestamp), and the request and user classes' names in code
    order (None: an unclassified request)."""

    dtype: pl.Datetime
    first_s: int
    seconds: int
    first_m: int
    minutes: int
    step: int
    first_t: int
    buckets: int
    names: list[str | None]
    user_names: list[str | None]

    @property
    def per_second(self) -> int:
        return UNITS_PER_S[self.dtype.time_unit or "us"]


@dataclass(frozen=True)
class ByTime:
    """The pass's results: TIME_COUNTS' frames, the requests per minute and user class,
    and the distinct timestamps (epoch ns, sorted)."""

    counts: dict[str, pl.DataFrame]
    per_minute: pl.DataFrame
    timestamps: np.ndarray


def count_by_time(
    table: pl.LazyFrame, rules: Rules | None, classify: bool, latency_every_s: int
) -> ByTime:
    """The counts of the table (classified by ``rules`` if ``classify``)."""
    grid = time_grid(table, rules, classify, latency_every_s)
    counter = TimeCounter(grid, rules, classify, table.collect_schema().names())
    for batch in table.select(counter.columns).collect_batches(chunk_size=BATCH_ROWS):
        counter.add(batch)
    return merge_by_time([counter.partial()], grid)


def time_grid(
    table: pl.LazyFrame, rules: Rules | None, classify: bool, latency_every_s: int
) -> Grid:
    """The table's grid: its first and last timestamps and its classes' names."""
    return _grid(table, *_class_names(table, rules, classify), latency_every_s)


class TimeCounter:
    """A share of the table's counts on the table's grid, batch by batch: with
    ``classify``, only the columns the rules read are read (``columns``), and each batch
    is classified as a frame. Shares' partials merge by :func:`merge_by_time`."""

    def __init__(self, grid: Grid, rules: Rules | None, classify: bool, names: list[str]) -> None:
        self.grid, self.rules, self.classify = grid, rules, classify
        self.columns = _read_columns(names, rules, classify)
        self.per_second = _PerKey((grid.seconds + 1) * len(grid.names))
        self.per_minute = _PerKey((grid.minutes + 1) * len(grid.user_names))
        self.latency = _Counts(with_max=True)
        self.timestamps = _Distinct()

    def add(self, batch: pl.DataFrame) -> None:
        """A batch of requests (with at least ``columns``)."""
        read = batch.select(self.columns)
        keys = _keys(apply_rules(read, self.rules) if self.classify else read, self.grid)
        self.per_second.add(keys["second"].to_numpy())
        self.per_minute.add(keys["minute"].to_numpy())
        timed = keys.drop_nulls("bucket")
        self.latency.add(timed["bucket"].to_numpy(), maxima=timed["latency_s"].to_numpy())
        self.timestamps.add(keys["ns"].drop_nulls().to_numpy())

    def partial(self) -> dict[str, pl.DataFrame]:
        """The counts by packed key (``key``, ``n``; ``max`` of the latencies) and the
        distinct timestamps (``ns``)."""
        ns = pl.Series("ns", self.timestamps.merged(), dtype=pl.Int64)
        return {
            "per_second": self.per_second.counts(),
            "per_minute": self.per_minute.counts(),
            "latency": self.latency.merged(),
            "timestamps": ns.to_frame(),
        }


def merge_by_time(partials: list[dict[str, pl.DataFrame]], grid: Grid) -> ByTime:
    """The counts of every share's partial (:meth:`TimeCounter.partial`), as one pass
    over the whole table gives them."""
    per_second, per_minute = _Counts(with_max=False), _Counts(with_max=False)
    latency, timestamps = _Counts(with_max=True), _Distinct()
    for partial in partials:
        for counts, name in ((per_second, "per_second"), (per_minute, "per_minute")):
            counts.add(partial[name]["key"].to_numpy(), partial[name]["n"].to_numpy())
        lat = partial["latency"]
        latency.add(lat["key"].to_numpy(), lat["n"].to_numpy(), lat["max"].to_numpy())
        timestamps.add(partial["timestamps"]["ns"].to_numpy())
    return ByTime(
        counts={
            "requests_1s": _requests_1s(per_second.merged(), grid),
            "lat_time": _lat_time(latency.merged(), grid),
        },
        per_minute=_per_minute(per_minute.merged(), grid),
        timestamps=timestamps.merged(),
    )


def grid_to_json(grid: Grid) -> dict[str, Any]:
    data = asdict(grid)
    dtype = data.pop("dtype")
    return data | {"time_unit": dtype.time_unit, "time_zone": dtype.time_zone}


def grid_from_json(data: dict[str, Any]) -> Grid:
    fields = {k: v for k, v in data.items() if k not in ("time_unit", "time_zone")}
    return Grid(dtype=pl.Datetime(data["time_unit"], data["time_zone"]), **fields)


def _class_names(
    table: pl.LazyFrame, rules: Rules | None, classify: bool
) -> tuple[list[str | None], list[str | None]]:
    """The request and user classes' names in code order: the rules' classes, or the
    table's own (read by a streaming query; unclassified requests last)."""
    if classify:
        rules = rules or default_rules()
        columns = set(table.collect_schema())
        request, user = (
            class_codes(ruleset, columns)[1] for ruleset in (rules.request, rules.user)
        )
        return list(request), list(user)
    classes = pl.col("cls_request", "cls_user").cast(pl.String).unique().implode()
    seen = table.select(classes).collect(engine="streaming")
    return _seen_names(seen["cls_request"][0]), _seen_names(seen["cls_user"][0])


def _seen_names(classes: pl.Series) -> list[str | None]:
    """The distinct names, sorted (None last, if some request has no class)."""
    named: list[str | None] = sorted(classes.drop_nulls().to_list())
    return [*named, None] if classes.null_count() else named


def _read_columns(names: list[str], rules: Rules | None, classify: bool) -> list[str]:
    """The columns the counts read: timestamps, latencies, and the classes (with
    ``classify``, the columns the rules read)."""
    read = {"ts", "latency_s"}
    if classify:
        rules = rules or default_rules()
        for ruleset in (rules.request, rules.user):
            read |= set(ruleset_expr(ruleset, set(names)).meta.root_names())
        if "path" in read:
            read.add("query")  # the rules' per distinct path lookup reads both
    else:
        read |= {"cls_request", "cls_user"}
    return [name for name in names if name in read]


def _grid(
    table: pl.LazyFrame,
    names: list[str | None],
    user_names: list[str | None],
    latency_every_s: int,
) -> Grid:
    dtype = table.collect_schema()["ts"]
    if not isinstance(dtype, pl.Datetime):
        raise TypeError(f"ts is {dtype}, not a datetime")
    ts = pl.col("ts").to_physical()
    span = table.select(ts.min().alias("first"), ts.max().alias("last")).collect()
    first, last = span.row(0)
    first, last = (0, 0) if first is None else (first, last)
    per_second = UNITS_PER_S[dtype.time_unit or "us"]
    per_minute = MINUTE_S * per_second
    step = latency_every_s * per_second
    return Grid(
        dtype=dtype,
        first_s=first // per_second,
        seconds=last // per_second - first // per_second + 1,
        first_m=first // per_minute,
        minutes=last // per_minute - first // per_minute + 1,
        step=step,
        first_t=first // step,
        buckets=last // step - first // step + 1,
        names=names,
        user_names=user_names,
    )


def _code(column: str, names: list[str | None]) -> pl.Expr:
    """The class's code: its rank among the names (a null: after them)."""
    named = [name for name in names if name is not None]
    return (
        pl.col(column)
        .cast(pl.String)
        .replace_strict(named, range(len(named)), default=len(named), return_dtype=pl.Int64)
    )


def _keys(batch: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    """Per request: ``second`` (second and request class, packed), ``minute`` (minute
    and user class), with a latency ``bucket`` (latency bucket, request class and
    histogram bucket, packed), the latency and the timestamp in ns."""
    coded = batch.select(
        "ts",
        "latency_s",
        _code("cls_request", grid.names).alias("request"),
        _code("cls_user", grid.user_names).alias("user"),
    )
    ts = pl.col("ts").to_physical()
    classes, request = len(grid.names), pl.col("request")
    second = (ts // grid.per_second - grid.first_s).fill_null(grid.seconds) * classes + request
    minute = (ts // (MINUTE_S * grid.per_second) - grid.first_m).fill_null(grid.minutes)
    t = (ts // grid.step - grid.first_t).fill_null(grid.buckets) * classes + request
    idx = bucket_index(pl.col("latency_s"))
    slot = pl.when(idx == ZERO_BUCKET).then(0).otherwise(idx.cast(pl.Int64) + IDX_OFFSET)
    latency = pl.col("latency_s")
    has_latency = latency.is_not_null() & (latency >= 0)
    return coded.select(
        second.alias("second"),
        (minute * len(grid.user_names) + pl.col("user")).alias("minute"),
        pl.when(has_latency).then(t * IDX_SLOTS + slot).alias("bucket"),
        latency,
        pl.col("ts").dt.epoch("ns").alias("ns"),
    )


class _PerKey:
    """Requests per packed (time, class) key of ``cells`` possible ones: a dense array
    when there are few, otherwise counts by key."""

    def __init__(self, cells: int) -> None:
        self.dense = np.zeros(cells, np.int64) if cells <= DENSE_CELLS else None
        self.sparse = _Counts(with_max=False)

    def add(self, keys: np.ndarray) -> None:
        if self.dense is None:
            self.sparse.add(keys)
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
    """Rows by integer key (and their largest latency): the batches' rows are held as
    they come and counted once they hold MERGE_ROWS more rows than twice the last
    count's, so they never hold many more than the distinct keys (a batch's keys are
    mostly distinct: counting each batch first would count most rows twice). A count
    is a stable sort by key (the keys come in time order: nearly sorted) and sums and
    maxima over each key's run."""

    def __init__(self, with_max: bool) -> None:
        self.with_max = with_max
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.held = self.merged_rows = 0

    def add(
        self, keys: np.ndarray, n: np.ndarray | None = None, maxima: np.ndarray | None = None
    ) -> None:
        """Rows by key (``n`` rows each, one by default; ``maxima``: their largest
        latencies, with ``with_max``)."""
        n = np.ones(len(keys), np.int64) if n is None else n
        self.parts.append((keys, n, np.empty(0) if maxima is None else maxima))
        self.held += len(keys)
        if self.held > 2 * self.merged_rows + MERGE_ROWS:
            self.parts = [self._merge()]
            self.held = self.merged_rows = len(self.parts[0][0])

    def _merge(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        keys, n, maxima = (np.concatenate(column) for column in zip(*self.parts, strict=True))
        self.parts = []
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
        if self.with_max:
            maxima = np.maximum.reduceat(maxima[order], starts)
        return keys[starts], np.add.reduceat(n[order], starts), maxima

    def merged(self) -> pl.DataFrame:
        """``key``, ``n`` (and ``max``) in key order."""
        keys, n, maxima = self._merge() if self.held else (np.empty(0, np.int64),) * 3
        frame = pl.DataFrame({"key": keys, "n": n}, schema={"key": pl.Int64, "n": pl.Int64})
        if self.with_max:
            frame = frame.with_columns(pl.Series("max", maxima, dtype=pl.Float64))
        return frame


class _Distinct:
    """The distinct values of the batches' arrays, merged as they accumulate (as the
    counts by key are)."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []
        self.held = self.merged_rows = 0

    def add(self, values: np.ndarray) -> None:
        self.parts.append(distinct_sorted(values))
        self.held += len(self.parts[-1])
        if self.held > 2 * self.merged_rows + MERGE_ROWS:
            self.parts = [self.merged()]
            self.held = self.merged_rows = len(self.parts[0])

    def merged(self) -> np.ndarray:
        """The distinct values, sorted."""
        return distinct_sorted(np.concatenate([np.empty(0, np.int64), *self.parts]))


def _names_of(names: list[str | None], codes: pl.Expr) -> pl.Expr:
    series = pl.Series(names, dtype=pl.String)
    return codes.replace_strict(range(len(names)), series, return_dtype=pl.String)


def _requests_1s(counts: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    classes = len(grid.names)
    second = pl.col("key") // classes
    ts = pl.when(second < grid.seconds).then((second + grid.first_s) * grid.per_second)
    return counts.select(
        ts.cast(grid.dtype).alias("ts"),
        _names_of(grid.names, pl.col("key") % classes).alias("cls_request"),
        "n",
    )


def _per_minute(counts: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    """``minute``, ``cls_user``, ``n`` (as a group-by's ``pl.len()``)."""
    classes = len(grid.user_names)
    minute = pl.col("key") // classes
    ts = pl.when(minute < grid.minutes).then((minute + grid.first_m) * MINUTE_S * grid.per_second)
    return counts.select(
        ts.cast(grid.dtype).alias("minute"),
        _names_of(grid.user_names, pl.col("key") % classes).alias("cls_user"),
        pl.col("n").cast(pl.get_index_type()),
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
        _names_of(grid.names, packed % classes).alias("cls_request"),
        idx.cast(pl.Int32).alias("idx"),
        "n",
        "max",
    )
