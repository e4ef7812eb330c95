"""Sessions and pages of a log larger than memory, one range of clients at a time
(docs/methods/workload.md, "Bounded memory").

Sessions never cross a (client, user agent) pair and pages never cross a session, so the
annotation of a range of clients needs only that range's rows. The distinct clients, in
the order :func:`sessions.annotate` sorts them (nulls last), are cut into ranges of about
``bucket_rows`` requests; each range is read on its own (a filter on ``client``, pushed
down to the Parquet scan), classified, annotated, reduced to its pages and sessions, and
its ids are offset by the earlier ranges' counts. Concatenated in range order, the result
is row for row the one-pass annotation of the whole table: the same order (client, user
agent, arrival, input order), the same ids.

What is kept of each range's requests is what the later figures read, and every string
(of requests, pages and sessions) as a categorical of the call's own categories (freed
with the result): a few tens of bytes per request instead of every column.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl

from .classify import Rules, apply_rules, distinct_slots
from .sessions import SessionSettings, annotate, pages, sessions

# the annotation of a range holds about this many bytes per request at its peak
ANNOTATE_BYTES_PER_ROW = 1200
# the share of the memory budget one range's annotation may use
BUCKET_BUDGET_SHARE = 0.4
MIN_BUCKET_ROWS = 1000
KEPT = (
    "ts",
    "session_id",
    "page_id",
    "page_role",
    "client",
    "user_agent",
    "path",
    "cls_request",
    "cls_user",
    "bytes",
    "latency_s",
)
# the columns of a request the annotation adds
ANNOTATION_OUTPUTS = ("session_id", "page_id", "page_role")
# what the annotation reads of a request (the kept columns and the page inputs)
ANNOTATION_INPUTS = (
    "ts",
    "client",
    "user_agent",
    "path",
    "query",
    "referer",
    "status",
    "cls_request",
    "cls_user",
    "bytes",
    "latency_s",
)


@dataclass(frozen=True)
class Annotated:
    """The annotated requests (the kept columns), their pages and their sessions."""

    requests: pl.DataFrame
    pages: pl.DataFrame
    sessions: pl.DataFrame


@dataclass(frozen=True)
class ClientRange:
    """Clients from ``first`` to ``last`` (string order), and null clients if ``nulls``."""

    first: str | None
    last: str | None
    nulls: bool

    def condition(self) -> pl.Expr:
        client = pl.col("client")
        inside = pl.lit(False)
        if self.first is not None and self.last is not None:
            inside = client.is_between(pl.lit(self.first), pl.lit(self.last))
        return inside | client.is_null() if self.nulls else inside


def bucket_rows(memory_budget_mb: int | None) -> int | None:
    """Requests per range for a memory budget (None: the whole table at once)."""
    if memory_budget_mb is None:
        return None
    budget_bytes = memory_budget_mb * (1 << 20) * BUCKET_BUDGET_SHARE
    return max(int(budget_bytes // ANNOTATE_BYTES_PER_ROW), MIN_BUCKET_ROWS)


def client_ranges(table: pl.LazyFrame, rows: int) -> list[ClientRange]:
    """Consecutive ranges of the sorted distinct clients, each of about ``rows``
    requests (a client with more is a range of its own)."""
    counts = (
        table.group_by("client")
        .agg(pl.len().alias("n"))
        .collect(engine="streaming")  # the client column is never whole in memory
        .sort("client", nulls_last=True)
        .with_columns(((pl.col("n").cum_sum() - pl.col("n")) // rows).alias("bucket"))
    )
    ranges = counts.group_by("bucket", maintain_order=True).agg(
        pl.col("client").drop_nulls().first().alias("first"),
        pl.col("client").drop_nulls().last().alias("last"),
        pl.col("client").null_count().alias("nulls"),
    )
    return [ClientRange(f, la, n > 0) for _, f, la, n in ranges.iter_rows()]


def annotated(
    table: pl.DataFrame | pl.LazyFrame,
    rules: Rules | None,
    classify: bool,
    settings: SessionSettings | None = None,
    rows: int | None = None,
) -> Annotated:
    """The annotation of the whole table, range by range of at most about ``rows``
    requests (None: in one piece); ``classify``: apply ``rules`` first."""
    strings = pl.Categorical(pl.Categories.random())
    requests, page_table, session_table = [], [], []
    for part in _parts(table.lazy(), rules, classify, settings, rows, strings):
        requests.append(part.requests)
        page_table.append(part.pages)
        session_table.append(part.sessions)
    return Annotated(_contiguous(requests), _contiguous(page_table), _contiguous(session_table))


def _contiguous(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """The frames one after the other, each column in one piece (sums and means then
    add in the one-pass order), made a column at a time: never two copies of all."""
    out = pl.concat(frames, rechunk=False)
    frames.clear()
    columns = [out.drop_in_place(name).rechunk() for name in out.columns]
    return pl.DataFrame(columns)


def _parts(
    table: pl.LazyFrame,
    rules: Rules | None,
    classify: bool,
    settings: SessionSettings | None,
    rows: int | None,
    strings: pl.Categorical,
) -> Iterator[Annotated]:
    total = table.select(pl.len()).collect(engine="streaming").item()
    ranges = client_ranges(table, rows) if rows is not None and total > rows else [None]
    session_offset = page_offset = 0
    for client_range in ranges:
        chunk = table if client_range is None else table.filter(client_range.condition())
        part = annotated_part(chunk.collect(engine="streaming"), rules, classify, settings, strings)
        yield _offset(part, session_offset, page_offset)
        session_offset += part.sessions.height
        page_offset += part.pages.height


def annotated_part(
    df: pl.DataFrame,
    rules: Rules | None,
    classify: bool,
    settings: SessionSettings | None,
    strings: pl.DataType,
) -> Annotated:
    path_slots = distinct_slots(df["path"])  # read by both the rules and the annotation
    if classify:
        df = apply_rules(df, rules, path_slots)
    carried = [name for name in KEPT if name not in ANNOTATION_OUTPUTS]
    ann = annotate(df.select(ANNOTATION_INPUTS), settings, carried, path_slots)
    del df
    page_table = pages(ann)
    session_table = sessions(ann, page_table)
    compact = pl.col(pl.String).cast(strings)
    kept = ann.select(KEPT).with_columns(compact)
    return Annotated(kept, page_table.with_columns(compact), session_table.with_columns(compact))


def _offset(part: Annotated, sessions_before: int, pages_before: int) -> Annotated:
    if sessions_before == 0 and pages_before == 0:
        return part
    ids = [
        pl.col("session_id") + sessions_before,
        pl.col("page_id") + pages_before,
    ]
    return Annotated(
        requests=part.requests.with_columns(ids),
        pages=part.pages.with_columns(ids),
        sessions=part.sessions.with_columns(ids[0]),
    )
