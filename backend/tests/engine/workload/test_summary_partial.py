"""The summary of a table kept in parts, from the parts' merged partials, against
``traffic.summarize`` of the whole table: every field identical but the latency mean
(a sum over parts: floating-point rounding) and percentiles (the log-bucket sketch,
within its relative 1%)."""

from datetime import UTC, datetime
from typing import Any

import numpy as np
import polars as pl
import pytest

from headroom.engine.workload.sketch import ALPHA
from headroom.engine.workload.summary_partial import (
    SummaryPartial,
    merge,
    partial_of,
    summary_of,
)
from headroom.engine.workload.traffic import summarize

START = datetime(2026, 11, 20, 8, tzinfo=UTC)


def requests(
    n: int, seed: int, first_s: float, span_s: float, round_to_s: float = 0.0
) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    offsets = np.sort(rng.uniform(0, span_s, n)) + first_s
    if round_to_s:
        offsets = np.floor(offsets / round_to_s) * round_to_s
    ns = (START.timestamp() + offsets) * 1e9
    status = rng.choice([200, 200, 200, 301, 404, 503], n)
    return pl.DataFrame(
        {
            "ts": pl.from_epoch(pl.Series(ns.astype(np.int64)), "ns").dt.replace_time_zone("UTC"),
            "status": pl.Series(status, dtype=pl.Int16),
            "bytes": pl.Series(rng.integers(100, 5000, n), dtype=pl.Int64),
            "latency_s": rng.lognormal(-2.5, 0.8, n),
            "client": [f"10.0.0.{i % 9}" for i in range(n)],
            "user_agent": pl.Series([None] * n, dtype=pl.String),
            "referer": pl.Series([None] * n, dtype=pl.String),
            "path": [f"/p/{i % 4}" for i in range(n)],
        }
    )


def assert_same(merged: dict[str, Any], whole: dict[str, Any]) -> None:
    got_latency, want_latency = merged.pop("latency"), whole.pop("latency")
    assert merged == whole
    assert got_latency["count"] == want_latency["count"]
    assert got_latency["max_s"] == want_latency["max_s"]
    assert got_latency["mean_s"] == pytest.approx(want_latency["mean_s"], rel=1e-12)
    for p in ("p50_s", "p90_s", "p95_s", "p99_s"):
        assert got_latency[p] == pytest.approx(want_latency[p], rel=ALPHA)


@pytest.mark.parametrize(
    ("parts", "round_to_s"),
    [(1, 0.0), (7, 0.0), (7, 1.0), (12, 60.0)],
)
def test_merged_partials_give_the_whole_tables_summary(parts: int, round_to_s: float) -> None:
    tables = [requests(800, seed, seed * 1500.0, 1800.0, round_to_s) for seed in range(parts)]
    partials = [partial_of(t) for t in tables]
    merged = summary_of(merge(partials))
    assert merged is not None
    whole = summarize(pl.concat(tables).lazy())
    assert_same(merged.model_dump(mode="json"), whole.model_dump(mode="json"))
    assert merged.timestamp_granularity_s == round_to_s or round_to_s == 0.0


def test_a_partial_survives_json() -> None:
    table = requests(300, 3, 0.0, 600.0, 1.0)
    partial = partial_of(table)
    again = SummaryPartial.from_json(partial.to_json())
    assert summary_of(again) == summary_of(partial)


def test_few_timestamps_and_missing_fields() -> None:
    table = requests(5, 4, 0.0, 4.0, 1.0).with_columns(
        pl.lit(None, pl.Int16).alias("status"), pl.lit(None, pl.Int64).alias("bytes")
    )
    parts = [table[:2], table[2:]]
    merged = summary_of(merge([partial_of(p) for p in parts]))
    assert merged is not None
    whole = summarize(table.lazy())
    assert merged.status_counts is None and merged.bytes_total is None
    assert_same(merged.model_dump(mode="json"), whole.model_dump(mode="json"))


def test_dropping_a_part_drops_its_contribution() -> None:
    tables = [requests(500, seed, seed * 3600.0, 3600.0) for seed in range(4)]
    partials = [partial_of(t) for t in tables]
    kept = summary_of(merge(partials[1:]))
    assert kept is not None
    whole = summarize(pl.concat(tables[1:]).lazy())
    assert kept.request_count == 1500
    assert_same(kept.model_dump(mode="json"), whole.model_dump(mode="json"))
