"""A slice of the request table: the requests of a time window, a path prefix or pattern, a
status class, a request class, a host and a client, and a page of them for a drill-down.

A path pattern is a glob (``*`` within a segment, ``**`` across segments, ``?`` one
character), or a regular expression after a ``~`` (as nginx writes one:
``~^/api/v[12]/``); either is checked when the slice is made.

Every read is a lazy scan with the slice's predicate pushed into the Parquet reader (row
groups whose statistics exclude the window are skipped) and, for a page, a limit: the
table is never held in memory whole."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

import polars as pl

from .coverage import Coverage
from .sketch import bucket_index, percentiles

NS_PER_MS = 1_000_000
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")
PAGE_COLUMNS = ("ts", "method", "path", "query", "status", "latency_s", "bytes", "client")
ROW = "row"


@dataclass(frozen=True)
class RequestSlice:
    """Requests with ``start_ms <= ts < end_ms`` (epoch ms; None: unbounded), whose path
    starts with ``path_prefix`` and whose status is in ``status_class`` ("4xx")."""

    start_ms: int | None = None
    end_ms: int | None = None
    path_prefix: str | None = None
    status_class: str | None = None
    path_pattern: str | None = None
    request_class: str | None = None
    host: str | None = None
    client: str | None = None

    def __post_init__(self) -> None:
        if self.start_ms is not None and self.end_ms is not None and self.end_ms <= self.start_ms:
            raise ValueError("the end of the range must come after its start")
        if self.status_class is not None and self.status_class not in STATUS_CLASSES:
            raise ValueError(f"status class must be one of {', '.join(STATUS_CLASSES)}")
        if self.path_pattern is not None:
            path_regex(self.path_pattern)  # raises PatternError naming the fault

    @property
    def whole(self) -> bool:
        """No bound and no filter: the whole table."""
        return all(getattr(self, f.name) is None for f in fields(self))

    @property
    def filtered(self) -> bool:
        """A filter besides the time window."""
        return any(
            getattr(self, f.name) is not None
            for f in fields(self)
            if f.name not in ("start_ms", "end_ms")
        )

    def predicate(self) -> pl.Expr:
        terms = [pl.lit(True)]
        ts = pl.col("ts").dt.epoch("ns")
        if self.start_ms is not None:
            terms.append(ts >= self.start_ms * NS_PER_MS)
        if self.end_ms is not None:
            terms.append(ts < self.end_ms * NS_PER_MS)
        if self.path_prefix:
            terms.append(pl.col("path").str.starts_with(self.path_prefix))
        if self.status_class is not None:
            hundreds = int(self.status_class[0])
            terms.append(pl.col("status").cast(pl.Int32) // 100 == hundreds)
        if self.path_pattern is not None:
            terms.append(pl.col("path").str.contains(path_regex(self.path_pattern)))
        for value, column in (
            (self.request_class, "cls_request"),
            (self.host, "server"),
            (self.client, "client"),
        ):
            if value is not None:
                terms.append(pl.col(column) == value)
        return pl.all_horizontal(terms)

    def columns(self) -> set[str]:
        """The table columns the filters read (a filter on a column the table lacks
        matches nothing: the log does not record it)."""
        named = {
            "cls_request": self.request_class,
            "server": self.host,
            "client": self.client,
        }
        return {column for column, value in named.items() if value is not None}

    def clip(self, whole: Coverage) -> Coverage:
        """The log's coverage within the slice's time window (the filters keep the window:
        a rare path's rate is over the window, not over its own first to last request)."""
        lo = (
            whole.start_ns
            if self.start_ms is None
            else max(whole.start_ns, self.start_ms * NS_PER_MS)
        )
        hi = whole.end_ns if self.end_ms is None else min(whole.end_ns, self.end_ms * NS_PER_MS)
        return Coverage(lo, max(lo, hi), whole.granularity_s)


@dataclass(frozen=True)
class RequestPage:
    """Up to ``limit`` requests of the slice in table order (the log's order), from row
    ``after``; ``next_row`` the row to ask from for the next page (None: the last page);
    ``total`` the slice's requests."""

    rows: pl.DataFrame
    next_row: int | None
    total: int


class PatternError(ValueError):
    """A path pattern that is neither a usable glob nor a valid regular expression."""


def path_regex(pattern: str) -> str:
    """The regular expression (Rust regex syntax, as polars reads it) a path pattern means:
    ``~<regex>`` as written, else the glob anchored at both ends."""
    if pattern.startswith("~"):
        regex = pattern[1:]
        if regex == "":
            raise PatternError("the path pattern's regular expression after ~ is empty")
    else:
        if pattern == "":
            raise PatternError("the path pattern is empty")
        regex = "^" + _glob_body(pattern) + "$"
    try:
        pl.select(pl.lit("/").str.contains(regex)).item()
    except pl.exceptions.ComputeError as error:
        lines = [line.strip() for line in str(error).splitlines()]
        reason = next((line[6:].strip() for line in lines if line.startswith("error:")), "invalid")
        raise PatternError(
            f"the path pattern is not a valid regular expression: {reason}"
        ) from None
    return regex


def _glob_body(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def sliced(requests: pl.LazyFrame, where: RequestSlice) -> pl.LazyFrame:
    """The slice's requests; a filter on a column the table does not hold keeps none."""
    if where.whole:
        return requests
    if not where.columns() <= set(requests.collect_schema().names()):
        return requests.filter(pl.lit(False))
    return requests.filter(where.predicate())


def request_page(
    requests: pl.LazyFrame, where: RequestSlice, after: int, limit: int
) -> RequestPage:
    """One page of the slice: the scan stops once ``limit + 1`` rows matched."""
    if limit < 1 or after < 0:
        raise ValueError("limit must be >= 1 and the page token >= 0")
    columns = [c for c in PAGE_COLUMNS if c in requests.collect_schema()]
    names = set(requests.collect_schema().names())
    keep = where.predicate() if where.columns() <= names else pl.lit(False)
    extra = sorted(where.columns() - set(columns))
    numbered = requests.select([*columns, *extra]).with_row_index(ROW)
    rows = (
        numbered.filter(pl.col(ROW) >= after)
        .filter(keep)
        .select([ROW, *columns])
        .head(limit + 1)
        .collect(engine="streaming")
    )
    total = int(sliced(requests, where).select(pl.len()).collect(engine="streaming").item())
    more = rows.height > limit
    next_row = int(rows[ROW][limit]) if more else None
    return RequestPage(rows.head(limit), next_row, total)


def latency_series(requests: pl.LazyFrame, every_s: int) -> pl.DataFrame:
    """Latency percentiles per ``every_s`` bucket (``t``, its start) of the requests given
    (a slice's): ``count``, ``p50_s`` .. ``p99_s`` (within the sketch's relative error of
    the linear percentiles) and the exact ``max_s``; buckets without a latency left out.

    One streaming pass that keeps a log-bucket histogram per time bucket (sketch.py), never
    the latencies themselves: memory grows with the buckets, not with the requests."""
    if every_s < 1:
        raise ValueError("every_s must be >= 1")
    if "latency_s" not in requests.collect_schema().names():
        return percentiles(_no_latency(), ["t"])
    latency = pl.col("latency_s")
    hist = (
        requests.select("ts", "latency_s")
        .filter(latency.is_not_null() & (latency >= 0) & pl.col("ts").is_not_null())
        .group_by(
            pl.col("ts").dt.truncate(f"{every_s}s").alias("t"), bucket_index(latency).alias("idx")
        )
        .agg(pl.len().cast(pl.Int64).alias("n"), latency.max().alias("max"))
        .collect(engine="streaming")
    )
    return percentiles(hist, ["t"])


def _no_latency() -> pl.DataFrame:
    schema: dict[str, pl.DataType] = {
        "t": pl.Datetime("us"),
        "idx": pl.Int32(),
        "n": pl.Int64(),
        "max": pl.Float64(),
    }
    return pl.DataFrame(schema=schema)
