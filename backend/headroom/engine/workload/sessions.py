"""Sessions and pages (docs/methods/workload.md, "Sessions and pages"), with polars window
operations.

Rows are ordered by client, user agent, arrival (then input order). A *session* is a run
of one client's (address + user agent) requests with gaps under ``session_gap_s``.
A *page* starts at each base request: HTML (a ``.html``-like path or a directory ``/``)
or dynamic, with status 2xx/3xx. Every other request joins a page:

1. with a Referer: the page of the session's latest earlier request whose URL (path and
   query) is the Referer's path and query (an as-of join by session and URL), so an
   image referred by a stylesheet joins the stylesheet's page;
2. without a Referer: a static request within ``object_window_s`` of the session's
   previous request joins that request's page;
3. otherwise it is an *orphan*: it starts a page without a base (``has_base`` false),
   which the immediately following orphans with the same Referer join (objects of a
   page whose base is not in the log).

So pages partition the requests of each session. Per page: embedded objects (requests
minus the base), bytes, gaps between its successive requests, and the load time seen at
the server (last completion - base arrival) when every request has a latency. Per
session: pages and think times (next page's first arrival - the previous page's last
completion, or last arrival without latencies; overlapping pages give none).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .classify import default_request_rules, extension, per_distinct, ruleset_expr

HTML_EXTENSIONS = (".html", ".htm", ".xhtml", ".shtml")
# what a page takes of its first request: only these are gathered
FIRST_ROW_COLUMNS = (
    "page_id",
    "session_id",
    "client",
    "cls_user",
    "ts",
    "path",
    "query",
    "page_role",
)


@dataclass(frozen=True)
class SessionSettings:
    session_gap_s: float = 1800.0
    object_window_s: float = 5.0


def annotate(
    table: pl.DataFrame | pl.LazyFrame, settings: SessionSettings | None = None
) -> pl.DataFrame:
    """The table in session order with ``session_id``, ``page_id`` (0-based) and
    ``page_role`` (``base``, ``referer``, ``window``, ``orphan``, ``orphan_cont``)."""
    s = settings or SessionSettings()
    # one chunk a column: the gather into session order is about 10x slower across the
    # chunks of a streaming collect or of a Parquet file's row groups
    df = _ordered(table.lazy().collect().rechunk())
    df = df.with_columns(_session_flags(s)).with_columns(
        (pl.col("_new_session").cum_sum() - 1).cast(pl.Int64).alias("session_id")
    )
    df = df.with_columns(_page_inputs(df))
    df = df.with_columns(_referer_matches(df))
    df = df.with_columns(_roles(s)).with_columns(_parent())
    first = pl.Series("_first", _roots(df["_parent"].to_numpy()))
    page_id = (first.rank("dense") - 1).cast(pl.Int64).alias("page_id")
    return df.with_columns(page_id).drop(pl.selectors.starts_with("_"))


def _ordered(df: pl.DataFrame) -> pl.DataFrame:
    """Rows by client, user agent, arrival and input order. The sort runs on one integer
    key (the rank of each client and user agent pair in string order, nulls last), so
    only one copy of the string columns is ever made: the reordered table."""
    client, _ = _string_rank(df["client"])
    agent, n_agents = _string_rank(df["user_agent"])
    keys = pl.DataFrame({"_pair": client * n_agents + agent, "ts": df["ts"]}).with_row_index("_r")
    # stable sorts, the last key first: (pair, arrival, input order) without the cost
    # of a sort on several columns
    by_arrival = keys.sort("ts", nulls_last=True, maintain_order=True)
    order = by_arrival.sort("_pair", maintain_order=True)["_r"]
    return _with_request_class(df).select(pl.all().gather(order)).with_row_index("_i")


def _with_request_class(df: pl.DataFrame) -> pl.DataFrame:
    """Requests without a class get the default request rules' (only those lack one)."""
    if df["cls_request"].null_count() == 0:
        return df
    cls = pl.coalesce(pl.col("cls_request"), ruleset_expr(default_request_rules(), set()))
    return df.with_columns(cls.alias("cls_request"))


def _string_rank(column: pl.Series) -> tuple[np.ndarray, int]:
    """Each value's rank among the column's distinct values in string order (nulls
    last: the largest rank), and the number of ranks. The strings are sorted once per
    distinct value: each row is looked up by its categorical code."""
    codes = column.cast(pl.Categorical(pl.Categories.random()))
    distinct = codes.unique().drop_nulls()
    distinct_codes = distinct.to_physical().to_numpy()
    size = int(distinct_codes.max()) + 2 if len(distinct) else 1
    rank = np.full(size, len(distinct), dtype=np.int64)
    in_order = distinct_codes[distinct.cast(pl.String).arg_sort().to_numpy()]
    rank[in_order] = np.arange(len(distinct))
    row_codes = codes.to_physical().fill_null(size - 1).to_numpy()
    return rank[row_codes], len(distinct) + 1


def _same_client() -> pl.Expr:
    client, ua = pl.col("client"), pl.col("user_agent")
    return client.eq_missing(client.shift(1)) & ua.eq_missing(ua.shift(1))


def _session_flags(s: SessionSettings) -> list[pl.Expr]:
    dt = pl.col("ts").diff().dt.total_nanoseconds() / 1e9
    same = _same_client().fill_null(False)
    return [
        dt.alias("_dt_s"),
        (~same | (dt >= s.session_gap_s).fill_null(True)).alias("_new_session"),
    ]


def request_url(path: str = "path", query: str = "query") -> pl.Expr:
    q = pl.col(query).fill_null("")
    return pl.when(q == "").then(pl.col(path)).otherwise(pl.col(path) + "?" + q)


def referer_url() -> pl.Expr:
    """The Referer's path and query (scheme, host and fragment dropped); null if absent."""
    ref = pl.col("referer").replace("-", None)
    path = ref.str.replace(r"^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*", "").str.replace(r"#.*$", "")
    return pl.when(path == "").then(pl.lit("/")).otherwise(path)


def is_html() -> pl.Expr:
    return extension().is_in(HTML_EXTENSIONS) | pl.col("path").str.ends_with("/")


def is_base_request(html: pl.Expr) -> pl.Expr:
    """HTML (``html``, see :func:`is_html`) or dynamic, with status 2xx/3xx."""
    ok = pl.col("status").is_between(200, 399)
    return ((pl.col("cls_request") == "dynamic") | html).fill_null(False) & ok.fill_null(False)


def _page_inputs(df: pl.DataFrame) -> list[pl.Expr]:
    html = per_distinct(df, "path", is_html())
    return [
        request_url().alias("_url"),
        pl.lit(per_distinct(df, "referer", referer_url())).alias("_ref"),
        is_base_request(pl.lit(html)).alias("_base"),
    ]


def _referer_matches(df: pl.DataFrame) -> pl.Series:
    """``_match``: the latest earlier request of the session whose URL is the Referer."""
    targets = df.select(
        "session_id", pl.col("_url").alias("_ref"), "_i", pl.col("_i").alias("_match")
    )
    probes = df.filter(~pl.col("_base") & pl.col("_ref").is_not_null())
    found = probes.select("session_id", "_ref", "_i").join_asof(
        targets,
        on="_i",
        by=["session_id", "_ref"],
        allow_exact_matches=False,
        check_sortedness=False,  # both are sorted by _i, the session order
    )
    match = pl.Series("_match", dtype=pl.UInt32).extend_constant(None, df.height)
    return match.scatter(found["_i"], found["_match"]) if found.height else match


def _roles(s: SessionSettings) -> pl.Expr:
    prev_same = ~pl.col("_new_session")
    window = (
        pl.col("_ref").is_null()
        & (pl.col("cls_request") == "static")
        & prev_same
        & (pl.col("_dt_s") <= s.object_window_s)
    )
    orphan = ~pl.col("_base") & pl.col("_match").is_null() & ~window
    cont = (
        orphan
        & orphan.shift(1).fill_null(False)
        & prev_same
        & pl.col("_ref").is_not_null()
        & (pl.col("_ref") == pl.col("_ref").shift(1)).fill_null(False)
    )
    return (
        pl.when(pl.col("_base"))
        .then(pl.lit("base"))
        .when(pl.col("_match").is_not_null())
        .then(pl.lit("referer"))
        .when(window)
        .then(pl.lit("window"))
        .when(cont)
        .then(pl.lit("orphan_cont"))
        .otherwise(pl.lit("orphan"))
        .alias("page_role")
    )


def _parent() -> pl.Expr:
    """The row each row hangs from: itself for page starts, the Referer's row, or the
    previous row (window and continuation rows; never across sessions)."""
    role = pl.col("page_role")
    return (
        pl.when(role.is_in(["base", "orphan"]))
        .then(pl.col("_i"))
        .when(role == "referer")
        .then(pl.col("_match"))
        .otherwise(pl.col("_i") - 1)
        .alias("_parent")
    )


def _roots(parent: np.ndarray) -> np.ndarray:
    """Follow parents to the page's first row by pointer jumping (log of the depth)."""
    root = parent.astype(np.int64)
    while True:
        nxt = root[root]
        if np.array_equal(nxt, root):
            return root
        root = nxt


def end_ts() -> pl.Expr:
    """Completion time when the latency is known, else arrival."""
    done = pl.col("ts") + pl.duration(microseconds=(pl.col("latency_s") * 1e6).round(0))
    return pl.coalesce(done, pl.col("ts"))


def _same_as_previous(column: str) -> pl.Expr:
    return (pl.col(column) == pl.col(column).shift(1)).fill_null(False)


def pages(annotated: pl.DataFrame) -> pl.DataFrame:
    """One row per page: its session, first arrival, requests, objects, bytes, load time.

    ``annotated`` is :func:`annotate`'s output, in session order: within a page, rows
    are in arrival order, so each page's first row is its first request. Pages are
    runs of a stable sort by page id, summed and maximised by numpy's ``reduceat`` (a
    group-by hashes every row: annotate's pages often hold one or two requests).
    """
    page_ids = annotated["page_id"].to_numpy()
    order = np.argsort(page_ids, kind="stable")
    ids = page_ids[order]
    starts = np.flatnonzero(np.diff(ids, prepend=ids[:1] - 1)) if len(ids) else order
    first = annotated.select(FIRST_ROW_COLUMNS)[order[starts]].select(
        pl.col("page_id").set_sorted(),  # a stable sort's runs: ascending
        "session_id",
        "client",
        "cls_user",
        "ts",
        request_url().alias("url"),
        (pl.col("page_role") == "base").alias("has_base"),
    )
    per_row = annotated.select(
        end_ts().alias("end_ts"),
        pl.col("bytes").fill_null(0),
        pl.col("latency_s").is_null().alias("unknown"),
    )
    last_end = _run_max(per_row["end_ts"], order, starts)
    plt_ns = (pl.col("end_ts") - pl.col("ts")).dt.total_nanoseconds()
    all_latency = pl.Series(np.add.reduceat(per_row["unknown"].to_numpy()[order], starts) == 0)
    requests = np.diff(np.append(starts, len(order)))
    return first.with_columns(
        last_end,
        pl.Series("requests", requests, dtype=pl.UInt32),
        pl.Series("bytes", np.add.reduceat(per_row["bytes"].to_numpy()[order], starts)),
    ).select(
        "page_id",
        "session_id",
        "client",
        "cls_user",
        "ts",
        "end_ts",
        "url",
        "requests",
        "has_base",
        "bytes",
        pl.when(pl.lit(all_latency)).then(plt_ns / 1e9).otherwise(None).alias("load_time_s"),
        (pl.col("requests") - pl.col("has_base").cast(pl.Int64)).cast(pl.Int64).alias("objects"),
    )


def _run_max(times: pl.Series, order: np.ndarray, starts: np.ndarray) -> pl.Series:
    """The latest of each run's times (null when all of them are)."""
    missing = np.iinfo(np.int64).min
    physical = times.to_physical().fill_null(missing).to_numpy()[order]
    latest = pl.Series(times.name, np.maximum.reduceat(physical, starts))
    return latest.set(latest == missing, None).cast(times.dtype)


def object_gaps_s(annotated: pl.DataFrame) -> pl.Series:
    """Gaps between successive requests of the same page (seconds, all pages)."""
    ordered = annotated.select("page_id", "ts").sort("page_id", maintain_order=True)
    gap = pl.col("ts").diff().dt.total_nanoseconds() / 1e9
    out = ordered.select(gap.alias("gap_s"), _same_as_previous("page_id").alias("same"))
    return out.filter("same")["gap_s"]


def sessions(annotated: pl.DataFrame, page_table: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per session: client, first arrival, requests, pages, duration (sessions
    are runs of rows in :func:`annotate`'s order)."""
    page_table = pages(annotated) if page_table is None else page_table
    rows = annotated.select("session_id", "client", "user_agent", "ts").with_row_index("_k")
    first = rows.filter(~_same_as_previous("session_id"))
    last = rows.filter(~_same_as_previous("session_id").shift(-1).fill_null(False)).select(
        pl.col("_k").alias("_last_k"), pl.col("ts").alias("_last_ts")
    )
    per_session = pl.concat([first, last], how="horizontal").select(
        "session_id",
        "client",
        "user_agent",
        "ts",
        (pl.col("_last_k") - pl.col("_k") + 1).cast(pl.Int64).alias("requests"),
        ((pl.col("_last_ts") - pl.col("ts")).dt.total_nanoseconds() / 1e9).alias("duration_s"),
    )
    page_sessions = page_table["session_id"]
    if not (page_sessions.is_sorted() and per_session["session_id"].is_sorted()):
        counts = page_table.group_by("session_id").agg(pl.len().alias("pages"))
        return per_session.join(counts, on="session_id", how="left").sort("session_id")
    return per_session.with_columns(_pages_of(per_session["session_id"], page_sessions))


def _pages_of(session_ids: pl.Series, page_sessions: pl.Series) -> pl.Series:
    """The pages of each session (null for none), both columns sorted: the bounds of
    each session's run of pages by binary search."""
    pages = page_sessions.to_numpy()
    ids = session_ids.to_numpy()
    counts = np.searchsorted(pages, ids, "right") - np.searchsorted(pages, ids, "left")
    out = pl.Series("pages", counts, dtype=pl.UInt32)
    return out.set(out == 0, None) if (counts == 0).any() else out


def think_times_s(page_table: pl.DataFrame) -> pl.Series:
    """Next page's first arrival - this page's last completion, within a session; only
    non-negative values (an overlapping page has no think time before it). Pages are
    numbered in session order by first arrival, so page order is the order within a
    session."""
    ordered = page_table.sort("page_id")
    gap = (pl.col("ts") - pl.col("end_ts").shift(1)).dt.total_nanoseconds() / 1e9
    out = ordered.select(gap.alias("think_s"), _same_as_previous("session_id").alias("same"))
    return out.filter(pl.col("same") & (pl.col("think_s") >= 0))["think_s"]
