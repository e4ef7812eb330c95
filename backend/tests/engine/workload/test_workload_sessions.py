"""Sessions and pages: a hand-worked table, partition invariants, and the real log."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.classify import apply_rules
from headroom.engine.workload.sessions import (
    SessionSettings,
    annotate,
    object_gaps_s,
    pages,
    sessions,
    think_times_s,
)

from .conftest import make_table

H = "http://example.org"
ROWS = [
    # client, t_s, path, referer, status, latency_s
    ("A", 0, "/", None, 200, 0.5),  # page 0 (base)
    ("A", 1, "/a.css", f"{H}/", 200, 0.1),  # page 0 by Referer
    ("A", 2, "/b.png", f"{H}/#top", 200, 0.1),  # page 0 (fragment ignored)
    ("A", 10, "/two.html", f"{H}/", 200, 0.2),  # page 1: HTML base, though Referer is /
    ("A", 11, "/c.png", f"{H}/two.html", 200, 0.3),  # page 1
    ("A", 12, "/d.png", f"{H}/", 200, 0.1),  # page 0 again: interleaved
    ("A", 14, "/favicon.ico", None, 200, 0.1),  # window: joins the previous row's page 0
    ("A", 30, "/e.png", "http://other.site/x", 200, 0.1),  # orphan: page 2 without base
    ("A", 31, "/f.png", "http://other.site/x", 200, 0.1),  # continues the orphan page 2
    ("A", 3000, "/", None, 200, 0.1),  # gap >= 1800 s: session 1, page 3
    ("B", 0, "/x", None, 200, None),  # session 2, page 4
    ("B", 2, "/x.css", None, 200, None),  # window
    ("B", 6, "/y.js", None, 200, None),  # window (4 s after the previous)
    ("B", 20, "/z.js", None, 200, None),  # 14 s: orphan, page 5
    ("B", 21, "/w.js", None, 304, None),  # window of page 5
    ("B", 22, "/missing", None, 404, None),  # an error is no base: orphan page 6
]


@pytest.fixture
def hand() -> pl.DataFrame:
    cols = list(zip(*ROWS, strict=True))
    return make_table(
        cols[1],
        client=cols[0],
        path=cols[2],
        referer=cols[3],
        status=cols[4],
        latency_s=cols[5],
        bytes=[10 * (i + 1) for i in range(len(ROWS))],
    )


def test_hand_worked_sessions_and_pages(hand: pl.DataFrame) -> None:
    out = annotate(hand.reverse())  # input order must not matter
    assert out["session_id"].to_list() == [0] * 9 + [1] + [2] * 6
    assert out["page_id"].to_list() == [0, 0, 0, 1, 1, 0, 0, 2, 2, 3, 4, 4, 4, 5, 5, 6]
    roles = out["page_role"].to_list()
    assert roles[:9] == [
        "base",
        "referer",
        "referer",
        "base",
        "referer",
        "referer",
        "window",
        "orphan",
        "orphan_cont",
    ]
    table = pages(out)
    assert table["requests"].to_list() == [5, 2, 2, 1, 3, 2, 1]
    assert table["objects"].to_list() == [4, 1, 2, 0, 2, 2, 1]
    assert table["has_base"].to_list() == [True, True, False, True, True, False, False]
    assert table["bytes"][0] == 10 + 20 + 30 + 60 + 70
    # load time: last completion 14 + 0.1 - base arrival 0; page 4 has no latencies
    assert table["load_time_s"][0] == pytest.approx(14.1)
    assert table["load_time_s"][1] == pytest.approx(11.3 - 10)
    assert table["load_time_s"][4] is None


def test_hand_worked_gaps_and_think_times(hand: pl.DataFrame) -> None:
    out = annotate(hand)
    gaps = sorted(object_gaps_s(out).to_list())
    # page 0: 1,1,10,2; page 1: 1; page 2: 1; page 4: 2,4; page 5: 1
    assert gaps == pytest.approx(sorted([1, 1, 10, 2, 1, 1, 2, 4, 1]))
    table = pages(out)
    # session 0: page 1 starts at 10 < page 0's end (14.1): overlap, none; page 2 at 30
    # after page 1's end 11.3 -> 18.7. Session 2: page 5 at 20 - page 4's end 6 = 14;
    # page 6 at 22 - page 5's end 21 = 1.
    assert sorted(think_times_s(table).to_list()) == pytest.approx([1, 14, 18.7])
    s = sessions(out, table)
    assert s["requests"].to_list() == [9, 1, 6]
    assert s["pages"].to_list() == [3, 1, 3]


def test_settings_change_the_split(hand: pl.DataFrame) -> None:
    out = annotate(hand, SessionSettings(session_gap_s=5000, object_window_s=20))
    assert out["session_id"].n_unique() == 2
    assert out.filter(pl.col("client") == "B")["page_id"].n_unique() == 2  # z.js joins


def test_a_referer_names_a_request_by_its_path_and_query() -> None:
    def roles(referer: str) -> list[str]:
        paths, queries = ["/p", "/i.png"], ["a=1", None]
        table = make_table([0, 1], path=paths, query=queries, referer=[None, H + referer])
        return annotate(table)["page_role"].to_list()

    assert roles("/p?a=1") == ["base", "referer"]
    assert roles("/p") == ["base", "orphan"]  # /p?a=1 is not /p


CLIENTS = st.sampled_from(["a", "b", "c"])
PATHS = st.sampled_from(["/", "/p", "/q.html", "/i.png", "/s.css", "/x.php"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            CLIENTS,
            st.integers(0, 10_000),
            PATHS,
            st.one_of(st.none(), PATHS, PATHS.map(lambda p: p + "?a=1")),
            st.sampled_from([200, 304, 404]),
            st.sampled_from(["ua", "other", None]),
            st.sampled_from([None, "", "a=1"]),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_sessions_and_pages_partition_requests(rows: list[tuple]) -> None:
    cols = list(zip(*rows, strict=True))
    df = make_table(
        cols[1], client=cols[0], path=cols[2], status=cols[4], user_agent=cols[5],
        referer=[None if r is None else H + r for r in cols[3]], query=cols[6],
    )  # fmt: skip
    out = annotate(df)
    n = len(rows)
    assert out.height == n and out["session_id"].null_count() == 0
    assert out["page_id"].null_count() == 0
    # every page lies in exactly one session
    assert out.group_by("page_id").agg(pl.col("session_id").n_unique())["session_id"].max() == 1
    # a session is one client (address + user agent, null included) with gaps < 30 min;
    # a new session of the same client follows a gap >= 30 min
    ts = out["ts"].dt.epoch("ns").to_numpy() / 1e9
    keys = list(zip(out["client"].to_list(), out["user_agent"].to_list(), strict=True))
    same_client = np.array([a == b for a, b in zip(keys[1:], keys[:-1], strict=True)], dtype=bool)
    new = np.diff(out["session_id"].to_numpy()) == 1
    gaps = np.diff(ts)
    assert np.all(new[~same_client]) and np.array_equal(new[same_client], gaps[same_client] >= 1800)
    assert same_partition(df)
    table = pages(out)
    assert table["requests"].sum() == n and table["page_id"].to_list() == list(range(table.height))
    s = sessions(out, table)
    assert s["requests"].sum() == n and s["pages"].sum() == table.height
    assert (table["objects"] >= 0).all()


def same_partition(df: pl.DataFrame) -> bool:
    """annotate's pages and the reference's group the input rows the same way."""
    out = annotate(df.with_row_index("idx"))
    ours = dict(zip(out["idx"].to_list(), out["page_id"].to_list(), strict=True))
    theirs = reference_page_ids(df)
    return canonical([ours[i] for i in range(df.height)]) == canonical(theirs)


def canonical(labels: list[int]) -> list[int]:
    first: dict[int, int] = {}
    return [first.setdefault(x, len(first)) for x in labels]


def reference_page_ids(df: pl.DataFrame) -> list[int]:
    """A plain-Python, row-by-row reading of the module docstring's rules; the page of
    each input row, in input order."""
    rows = sorted(
        enumerate(apply_rules(df).iter_rows(named=True)),
        key=lambda r: (str(r[1]["client"]), str(r[1]["user_agent"]), r[1]["ts"], r[0]),
    )
    ids: list[int] = []
    by_row: dict[int, int] = {}
    prev: dict | None = None
    seen: dict[str, int] = {}
    prev_orphan, pages_so_far, prev_ref = False, 0, None
    for index, r in rows:
        new = prev is None or (r["client"], r["user_agent"]) != (prev["client"], prev["user_agent"])
        dt = 0.0 if prev is None else (r["ts"] - prev["ts"]).total_seconds()
        if new or dt >= 1800:
            seen, prev_orphan = {}, False
            new = True
        url = r["path"] + (f"?{r['query']}" if r["query"] else "")
        ref = None
        if r["referer"] not in (None, "-"):
            ref = (
                re.sub(
                    r"#.*$", "", re.sub(r"^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*", "", r["referer"])
                )
                or "/"
            )
        html = r["path"].lower().endswith((".html", ".htm", ".xhtml", ".shtml", "/"))
        base = (r["cls_request"] == "dynamic" or html) and 200 <= r["status"] <= 399
        orphan = False
        if base:
            page = pages_so_far
        elif ref is not None and ref in seen:
            page = seen[ref]
        elif ref is None and r["cls_request"] == "static" and not new and dt <= 5:
            page = ids[-1]
        elif prev_orphan and ref is not None and ref == prev_ref:
            page, orphan = ids[-1], True
        else:
            page, orphan = pages_so_far, True
        pages_so_far = max(pages_so_far, page + 1)
        seen[url] = page
        ids.append(page)
        by_row[index] = page
        prev, prev_orphan, prev_ref = r, orphan, ref
    return [by_row[i] for i in range(len(rows))]


def test_real_log(elastic: pl.DataFrame) -> None:
    out = annotate(elastic)
    assert same_partition(elastic)
    # sessions are client + user agent: at least one per distinct pair
    pairs = elastic.select("client", "user_agent").n_unique()
    s = sessions(out)
    assert s.height >= pairs and s["requests"].sum() == elastic.height
    # every hh:05 burst is an hour apart, so a client's bursts in different hours are
    # different sessions: no session spans more than the one minute 05 it sits in
    assert s["duration_s"].max() < 60
    table = pages(out)
    assert table["requests"].sum() == elastic.height
    assert table["has_base"].sum() == out.filter(pl.col("page_role") == "base").height
    # the seconds within hh:05 do not keep a page's order: many objects arrive "before"
    # their base and become orphan pages; still, thousands are found by their Referer
    roles = dict(out["page_role"].value_counts().iter_rows())
    assert roles["referer"] > 1900 and roles["orphan"] > 2000
