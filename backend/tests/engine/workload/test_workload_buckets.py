"""Characterization one range of clients at a time (buckets.py) gives the one-pass result
exactly: the same JSON, the same annotated requests, pages and sessions."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import polars as pl
import polars.selectors as cs
import pytest

from headroom.engine.workload import characterize
from headroom.engine.workload.buckets import (
    ANNOTATE_BYTES_PER_ROW,
    MIN_BUCKET_ROWS,
    ClientRange,
    annotated,
    bucket_rows,
    client_ranges,
)

from .conftest import MakeTable

TINY_BUDGET_MB = 1  # MIN_BUCKET_ROWS requests a range: many ranges on a few thousand rows
PATHS = ["/", "/index.html", "/a.css", "/b.js", "/img/c.png", "/api/items", "/d.gif"]
AGENTS = ["Mozilla/5.0", "curl/8.5.0", "Googlebot/2.1", None]


def _json(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, default=str)  # NaN equal to NaN


def _random_table(make: MakeTable, n: int, clients: int, seed: int = 3) -> pl.DataFrame:
    """Requests of ``clients`` clients (some null) with ties in ts (whole seconds),
    Referers to earlier paths, latencies and sizes."""
    rng = np.random.default_rng(seed)
    offsets = np.sort(rng.integers(0, 4 * 3600, n)).astype(float)
    pool = [f"10.0.{i // 256}.{i % 256}" for i in range(clients)]
    client = [None if rng.random() < 0.02 else pool[i] for i in rng.integers(0, clients, n)]
    path = [PATHS[i] for i in rng.integers(0, len(PATHS), n)]
    referer = ["-" if r < 0.3 else f"http://site{PATHS[int(r * 10) % 3]}" for r in rng.random(n)]
    return make(
        offsets.tolist(),
        client=client,
        user_agent=[AGENTS[i] for i in rng.integers(0, len(AGENTS), n)],
        path=path,
        referer=referer,
        status=rng.choice([200, 200, 200, 304, 404], n).tolist(),
        bytes=rng.integers(100, 50_000, n).tolist(),
        latency_s=np.round(rng.exponential(0.05, n), 6).tolist(),
    )


def _same_either_way(table: pl.DataFrame | pl.LazyFrame) -> None:
    one_pass = characterize(table)
    bucketed = characterize(table, memory_budget_mb=TINY_BUDGET_MB)
    assert _json(bucketed.to_dict()) == _json(one_pass.to_dict())
    for name in ("annotated", "pages", "sessions"):
        expected = _strings(one_pass.tables[name])
        assert _strings(bucketed.tables[name]).equals(expected), name


def _strings(frame: pl.DataFrame) -> pl.DataFrame:
    """Categoricals as strings (each call has categories of its own)."""
    return frame.with_columns(cs.categorical().cast(pl.String))


def test_bucket_rows_follow_the_budget() -> None:
    assert bucket_rows(None) is None
    assert bucket_rows(1024) == int(1024 * (1 << 20) * 0.4 // ANNOTATE_BYTES_PER_ROW)
    assert bucket_rows(1) == MIN_BUCKET_ROWS


def test_client_ranges_cut_the_sorted_clients_by_requests() -> None:
    """Clients b (3 requests), a (2), c (4) and a null one: sorted a, b, c, null with
    2, 3, 4, 1 requests before them 0, 2, 5, 9; by 4 requests: ranges 0, 0, 1, 2."""
    clients = ["b"] * 3 + ["a"] * 2 + ["c"] * 4 + [None]
    ranges = client_ranges(pl.LazyFrame({"client": clients}), 4)
    assert ranges == [
        ClientRange("a", "b", False),
        ClientRange("c", "c", False),
        ClientRange(None, None, True),
    ]
    table = pl.DataFrame({"client": clients})
    picked = [table.filter(r.condition()).height for r in ranges]
    assert picked == [5, 4, 1]


def test_many_ranges_equal_one_pass(table: MakeTable) -> None:
    requests = _random_table(table, 6000, clients=300)
    rows = bucket_rows(TINY_BUDGET_MB)
    assert rows is not None
    assert len(client_ranges(requests.lazy(), rows)) >= 5
    _same_either_way(requests)


def test_a_lazy_table_equals_the_collected_one(table: MakeTable) -> None:
    requests = _random_table(table, 3000, clients=50, seed=5)
    expected = _json(characterize(requests).to_dict())
    assert _json(characterize(requests.lazy(), memory_budget_mb=1).to_dict()) == expected


def test_completion_order_log(table: MakeTable) -> None:
    """Rows written as requests complete (arrival + latency): out of time order in the
    table; each range is sorted by arrival as the whole table was."""
    requests = _random_table(table, 4000, clients=120, seed=9)
    done = pl.col("ts") + pl.duration(microseconds=pl.col("latency_s") * 1e6 * 200)
    shuffled = requests.sort(done)
    assert not shuffled["ts"].is_sorted()
    _same_either_way(shuffled)


def test_one_client_only(table: MakeTable) -> None:
    one = pl.lit("10.0.0.9").alias("client")
    requests = _random_table(table, 2500, clients=1).with_columns(one)
    assert len(client_ranges(requests.lazy(), MIN_BUCKET_ROWS)) == 1
    _same_either_way(requests)


@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_one_line_tables(table: MakeTable, n: int) -> None:
    _same_either_way(_random_table(table, n, clients=3))


def test_ids_are_offset_by_the_earlier_ranges(table: MakeTable) -> None:
    """Session and page ids run 0..n-1 over the whole table; sessions in request order
    (a page's request may follow a later page's start: a Referer to an earlier page)."""
    requests = _random_table(table, 3000, clients=200, seed=11)
    parts = annotated(requests, None, True, rows=MIN_BUCKET_ROWS)
    for ids, count in (("session_id", parts.sessions.height), ("page_id", parts.pages.height)):
        column = parts.requests[ids]
        assert column.n_unique() == count
        assert column.min() == 0 and column.max() == count - 1
    assert parts.requests["session_id"].is_sorted()
