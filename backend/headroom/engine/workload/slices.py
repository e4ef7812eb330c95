"""A slice of the request table: the requests of a time window, a path prefix and a status
class, and a page of them for a drill-down.

Every read is a lazy scan with the slice's predicate pushed into the Parquet reader (row
groups whose statistics exclude the window are skipped) and, for a page, a limit: the
table is never held in memory whole."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from .coverage import Coverage

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

    def __post_init__(self) -> None:
        if self.start_ms is not None and self.end_ms is not None and self.end_ms <= self.start_ms:
            raise ValueError("the end of the range must come after its start")
        if self.status_class is not None and self.status_class not in STATUS_CLASSES:
            raise ValueError(f"status class must be one of {', '.join(STATUS_CLASSES)}")

    @property
    def whole(self) -> bool:
        """No bound and no filter: the whole table."""
        return all(
            v is None for v in (self.start_ms, self.end_ms, self.path_prefix, self.status_class)
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
        return pl.all_horizontal(terms)

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


def sliced(requests: pl.LazyFrame, where: RequestSlice) -> pl.LazyFrame:
    return requests if where.whole else requests.filter(where.predicate())


def request_page(
    requests: pl.LazyFrame, where: RequestSlice, after: int, limit: int
) -> RequestPage:
    """One page of the slice: the scan stops once ``limit + 1`` rows matched."""
    if limit < 1 or after < 0:
        raise ValueError("limit must be >= 1 and the page token >= 0")
    columns = [c for c in PAGE_COLUMNS if c in requests.collect_schema()]
    numbered = requests.select(columns).with_row_index(ROW)
    rows = (
        numbered.filter(pl.col(ROW) >= after)
        .filter(where.predicate())
        .head(limit + 1)
        .collect(engine="streaming")
    )
    total = int(
        sliced(requests.select(columns), where).select(pl.len()).collect(engine="streaming").item()
    )
    more = rows.height > limit
    next_row = int(rows[ROW][limit]) if more else None
    return RequestPage(rows.head(limit), next_row, total)
