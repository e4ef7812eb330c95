"""Sessions and pages (docs/methods/workload.md, "Sessions and pages"): the requests put
in session order, then one compiled pass over integer codes of them.

Rows are ordered by client, user agent, arrival (then input order). A *session* is a run
of one client's (address + user agent) requests with gaps under ``session_gap_s``.
A *page* starts at each base request: HTML (a ``.html``-like path or a directory ``/``)
or dynamic, with status 2xx/3xx. Every other request joins a page:

1. with a Referer: the page of the session's latest earlier request whose URL (path and
   query) is the Referer's path and query, so an image referred by a stylesheet joins
   the stylesheet's page;
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

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from numba import njit

from .classify import (
    Slots,
    default_request_rules,
    distinct_slots,
    extension,
    has_query,
    ruleset_expr,
)

HTML_EXTENSIONS = (".html", ".htm", ".xhtml", ".shtml")
# what a page takes of its first request: only these are gathered
FIRST_ROW_COLUMNS = (
    "page_id",
    "session_id",
    "client",
    "cls_user",
    "ts",
    "page_role",
)


PAGE_ROLES = ("base", "referer", "window", "orphan", "orphan_cont")
BASE, REFERER, WINDOW, ORPHAN, ORPHAN_CONT = range(len(PAGE_ROLES))


@dataclass(frozen=True)
class SessionSettings:
    session_gap_s: float = 1800.0
    object_window_s: float = 5.0


def annotate(
    table: pl.DataFrame | pl.LazyFrame,
    settings: SessionSettings | None = None,
    columns: Sequence[str] | None = None,
    path_slots: Slots | None = None,
) -> pl.DataFrame:
    """The table in session order with ``session_id``, ``page_role`` (``base``,
    ``referer``, ``window``, ``orphan``, ``orphan_cont``) and ``page_id`` (0-based);
    of the table's columns, only ``columns`` (all by default); ``path_slots``: the
    table's :func:`distinct_slots` of ``path``, if already made. What the pass reads of
    a request is found in the input order and gathered as integers, so a column nobody
    reads later (a Referer, a query) is never copied into session order."""
    s = settings or SessionSettings()
    # one chunk a column: the gather into session order is about 10x slower across the
    # chunks of a streaming collect or of a Parquet file's row groups
    df = _with_request_class(table.lazy().collect().rechunk())
    order, pair = _session_order(df)
    paths, row_paths = path_slots or distinct_slots(df["path"])
    referer, url, codes = _link_codes(df, paths, row_paths)
    base = _base_requests(df, paths, row_paths)
    static = (df["cls_request"] == "static").fill_null(False).to_numpy()
    gap = pl.col("ts").gather(order).diff().dt.total_nanoseconds() / 1e9
    dt_s = df.select(gap).to_series()
    session_id, role, page_id = _sessions_and_pages(
        pair,
        dt_s.to_numpy(),
        base[order],
        static[order],
        referer[order],
        url[order],
        codes,
        s.session_gap_s,
        s.object_window_s,
    )
    ordered = df.select(pl.col(columns or df.columns).gather(order))
    return ordered.with_columns(
        pl.Series("session_id", session_id),
        pl.Series("page_role", PAGE_ROLES).gather(role),
        pl.Series("page_id", page_id),
    )


def _session_order(df: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the rows by client, user agent, arrival and input order, and
    each of them's (client, user agent) pair as an integer. The sort runs on one
    integer key (the rank of each client and user agent pair in string order, nulls
    last)."""
    client, _ = _string_rank(df["client"])
    agent, n_agents = _string_rank(df["user_agent"])
    pair = client * n_agents + agent
    # stable sorts, the last key first: (pair, arrival, input order) without the cost
    # of a sort on several columns
    arrivals = df.select("ts").with_row_index("_r")
    by_arrival = arrivals.sort("ts", nulls_last=True, maintain_order=True)["_r"].to_numpy()
    order = by_arrival[_stable_order(pair[by_arrival])]
    return order, pair[order]


def _stable_order(keys: np.ndarray) -> np.ndarray:
    """The positions of non-negative integer keys in a stable sort: a radix sort, one
    stable sort a 16-bit digit from the lowest (numpy sorts 16-bit integers by
    counting, several times faster than a comparison sort of 64-bit ones)."""
    order = np.arange(len(keys))
    for shift in range(0, 64, 16):
        if shift and not (keys >> shift).any():
            break
        digit = ((keys[order] >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


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


def _base_requests(df: pl.DataFrame, paths: pl.Series, path_slots: np.ndarray) -> np.ndarray:
    """:func:`is_base_request` of each row, the HTML test once per distinct path."""
    html = pl.DataFrame({"path": paths}).select(is_html().fill_null(False)).to_series()
    return df.select(is_base_request(pl.lit(html.gather(path_slots)))).to_series().to_numpy()


def _link_codes(
    df: pl.DataFrame, paths: pl.Series, path_slots: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int]:
    """Each request's Referer (its path and query, :func:`referer_url`) and its own URL
    (:func:`request_url`) as codes of one dictionary, the distinct Referer URLs: equal
    codes, equal strings; -1 for no Referer, or a URL that no Referer names. A URL
    without a query is its path, looked up once per distinct path; one with a query is
    made only when some Referer has one."""
    referers, slots = distinct_slots(df["referer"])
    referer_urls = pl.DataFrame({"referer": referers}).select(referer_url()).to_series()
    named = pl.Enum(referer_urls.drop_nulls().unique())
    referer_codes = _codes(referer_urls.cast(named))[slots]
    url_codes = _codes(paths.cast(named, strict=False))[path_slots]
    with_query = df.select(has_query()).to_series().to_numpy()
    url_codes[with_query] = -1
    # a URL with a query holds a "?": only a Referer with one can name it
    if with_query.any() and named.categories.str.contains("?", literal=True).any():
        urls = df.filter(pl.lit(with_query)).select(request_url())
        url_codes[with_query] = _codes(urls.to_series().cast(named, strict=False))
    return referer_codes, url_codes, len(named.categories)


def _codes(column: pl.Series) -> np.ndarray:
    return column.to_physical().cast(pl.Int64).fill_null(-1).to_numpy()


@njit(cache=True)
def _sessions_and_pages(
    pair: np.ndarray,
    dt_s: np.ndarray,
    base: np.ndarray,
    static: np.ndarray,
    referer: np.ndarray,
    url: np.ndarray,
    codes: int,
    session_gap_s: float,
    object_window_s: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Session ids, page roles (indices into PAGE_ROLES) and page ids of requests in
    session order, in one pass (the rules of the module's docstring): ``dt_s`` is the
    gap to the previous row (NaN for none), ``referer`` and ``url`` are codes of one
    dictionary of ``codes`` values (-1: none). ``latest[code]`` is the last row seen
    with the URL ``code``: a Referer names it when it is in the row's session."""
    n = len(pair)
    session_id = np.empty(n, dtype=np.int64)
    role = np.empty(n, dtype=np.int64)
    page_id = np.empty(n, dtype=np.int64)
    latest = np.full(codes, -1, dtype=np.int64)
    session, session_start, pages = -1, 0, 0
    orphan_before = False
    for i in range(n):
        gap = dt_s[i]
        new = i == 0 or pair[i] != pair[i - 1] or np.isnan(gap) or gap >= session_gap_s
        if new:
            session += 1
            session_start = i
        session_id[i] = session
        match = -1
        if not base[i] and referer[i] >= 0 and latest[referer[i]] >= session_start:
            match = latest[referer[i]]
        if url[i] >= 0:
            latest[url[i]] = i
        window = referer[i] < 0 and static[i] and not new and gap <= object_window_s
        orphan = False
        if base[i]:
            role[i], page_id[i] = BASE, pages
            pages += 1
        elif match >= 0:
            role[i], page_id[i] = REFERER, page_id[match]
        elif window:
            role[i], page_id[i] = WINDOW, page_id[i - 1]
        else:
            orphan = True
            same_referer = referer[i] >= 0 and referer[i] == referer[i - 1]
            if orphan_before and not new and same_referer:
                role[i], page_id[i] = ORPHAN_CONT, page_id[i - 1]
            else:
                role[i], page_id[i] = ORPHAN, pages
                pages += 1
        orphan_before = orphan
    return session_id, role, page_id


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
    first, last = run_bounds(annotated["session_id"].to_numpy())
    last_ts = annotated["ts"].gather(last)
    per_session = annotated.select("session_id", "client", "user_agent", "ts")[first].select(
        "session_id",
        "client",
        "user_agent",
        "ts",
        pl.Series("requests", last - first + 1, dtype=pl.Int64),
        ((last_ts - pl.col("ts")).dt.total_nanoseconds() / 1e9).alias("duration_s"),
    )
    page_sessions = page_table["session_id"]
    if not (page_sessions.is_sorted() and per_session["session_id"].is_sorted()):
        counts = page_table.group_by("session_id").agg(pl.len().alias("pages"))
        return per_session.join(counts, on="session_id", how="left").sort("session_id")
    return per_session.with_columns(_pages_of(per_session["session_id"], page_sessions))


def run_bounds(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and the last row of each run of equal ids."""
    if len(ids) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    return first, np.append(first[1:], len(ids)) - 1


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
