"""The scan's counts by time with integer keys (time_counts.py: the counts by time and
request class, the requests per minute and user class, the distinct timestamps) equal
the string-keyed group-bys and the coverage they replace: on every log in data/logs and
on tables with what the keys must carry apart (no timestamp, no or a negative latency,
unclassified requests, several classes, rules reading other columns, timestamps in
microseconds), dense and by key, in batches that merge."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from headroom.cli.workload import parse_log
from headroom.engine.logs import UnrecognisedLogError
from headroom.engine.workload import time_counts as counts_module
from headroom.engine.workload.classify import Rule, Rules, RuleSet, apply_rules, default_rules
from headroom.engine.workload.coverage import coverage, frame_coverage
from headroom.engine.workload.sketch import histogram_query
from headroom.engine.workload.time_counts import count_by_time

from .conftest import make_table

LOGS = sorted((Path(__file__).parents[4] / "data" / "logs").iterdir())
KEYS = {"requests_1s": ("ts", "cls_request"), "lat_time": ("t", "cls_request", "idx")}
RULES = Rules(
    request=RuleSet(
        rules=[
            Rule(cls="static", extensions=[".css", ".png"]),
            Rule(cls="api", path_prefix=["/api/"]),
            Rule(cls="búsqueda", has_query=True),
        ],
        default="page",
    ),
    user=default_rules().user,
)


def string_keyed(classified: pl.LazyFrame, every_s: int) -> dict[str, pl.DataFrame]:
    """The counts by (truncated time, class name) as streaming group-bys, nulls last."""
    requests = classified.select("ts", pl.col("cls_request").cast(pl.String), "latency_s")
    per_second = requests.group_by(pl.col("ts").dt.truncate("1s"), "cls_request").agg(
        pl.len().cast(pl.Int64).alias("n")
    )
    timed = requests.with_columns(pl.col("ts").dt.truncate(f"{every_s}s").alias("t"))
    queries = {
        "requests_1s": per_second,
        "lat_time": histogram_query(timed, ("t", "cls_request"), "latency_s"),
    }
    out = {}
    for name, query in queries.items():
        frame = query.collect(engine="streaming")
        for key in reversed(KEYS[name]):
            frame = frame.sort(key, nulls_last=True, maintain_order=True)
        out[name] = frame
    return out


def assert_equal(table: pl.DataFrame, rules: Rules | None, classify: bool, every_s: int) -> None:
    lazy = table.lazy()
    classified = apply_rules(lazy, rules) if classify else lazy
    expected = string_keyed(classified, every_s)
    found = count_by_time(lazy, rules, classify, every_s)
    for name, frame in expected.items():
        assert found.counts[name].schema == frame.schema, name
        assert found.counts[name].equals(frame), name
    minute = pl.col("ts").dt.truncate("1m").alias("minute")
    per_minute = classified.group_by(minute, pl.col("cls_user").cast(pl.String))
    by_key = pl.col("minute", "cls_user")
    expected_minutes = per_minute.agg(pl.len().alias("n")).collect().sort(by_key, nulls_last=True)
    assert found.per_minute.sort(by_key, nulls_last=True).equals(expected_minutes)
    cover = frame_coverage(lazy)
    assert (coverage(found.timestamps) if found.timestamps.size else None) == cover


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_the_counts_of_every_log_equal_the_string_keyed_ones(path: Path) -> None:
    try:
        table = parse_log(path).table
    except UnrecognisedLogError:
        pytest.skip("not a log the parsers read")
    if table.height == 0:
        pytest.skip("no request parsed")
    assert_equal(table, None, True, 60)
    assert_equal(table, RULES, True, 900)


def edge_table() -> pl.DataFrame:
    """Requests on both sides of second and bucket edges, some without a timestamp, a
    latency (or with a zero or negative one), some already classified, some not."""
    rng = np.random.default_rng(5)
    n = 3000
    latency = np.round(rng.lognormal(-3, 2, n), 6)
    latency[::17] = 0.0
    latency[::23] = -1.0
    table = make_table(
        np.sort(rng.uniform(0, 5 * 3600, n)).tolist(),
        path=rng.choice(["/", "/a.css", "/api/x", "/b.png", "/c"], n).tolist(),
        query=rng.choice([None, "", "q=1"], n).tolist(),
        latency_s=[None if i % 29 == 0 else float(v) for i, v in enumerate(latency)],
        cls_request=rng.choice(["static", "dynamic", "zeta", None], n).tolist(),
    )
    no_time = pl.Series("ts", [i % 31 == 0 for i in range(n)])
    return table.with_columns(pl.when(no_time).then(None).otherwise(pl.col("ts")).alias("ts"))


@pytest.mark.parametrize("classify", [True, False])
@pytest.mark.parametrize("rules", [None, RULES])
def test_edges_of_time_class_and_latency(classify: bool, rules: Rules | None) -> None:
    assert_equal(edge_table(), rules, classify, 300)


def test_rules_reading_other_columns_than_the_path() -> None:
    """Each batch reads only the columns the rules read (methods, clients, fields
    present, users: a column the table lacks) and classifies them as the whole table's
    rules do."""
    rng = np.random.default_rng(8)
    table = edge_table().with_columns(
        pl.Series("method", rng.choice(["GET", "post", "PUT"], 3000)),
        pl.Series("client", rng.choice(["10.0.0.1", "192.168.1.9", None], 3000).tolist()),
        pl.Series("referer", rng.choice(["", "http://a/", None], 3000).tolist()),
    )
    rules = Rules(
        request=RuleSet(
            rules=[
                Rule(cls="write", methods=["POST", "put"]),
                Rule(cls="linked", field_present=["referer"], path_prefix=["/api/"]),
                Rule(cls="named", users=["ann"]),
                *RULES.request.rules,
            ],
            default="page",
        ),
        user=RuleSet(
            rules=[Rule(cls="office", clients=["10.0.0.0/8"]), Rule(cls="agent", methods=["PUT"])],
            default="normal",
        ),
    )
    assert_equal(table, rules, True, 300)


def test_microsecond_timestamps() -> None:
    table = edge_table().with_columns(pl.col("ts").dt.cast_time_unit("us"))
    assert_equal(table, RULES, True, 900)


def test_counts_by_key_in_merged_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grid too large for the dense array, batches merged several times over, the
    requests out of time order."""
    monkeypatch.setattr(counts_module, "DENSE_CELLS", 0)
    monkeypatch.setattr(counts_module, "BATCH_ROWS", 200)
    monkeypatch.setattr(counts_module, "MERGE_ROWS", 50)
    shuffled = edge_table().sample(fraction=1.0, shuffle=True, seed=2)
    assert_equal(shuffled, None, True, 60)
    assert_equal(shuffled, None, False, 60)


def test_a_table_without_timestamps() -> None:
    table = edge_table().with_columns(pl.lit(None, pl.Datetime("ns", "UTC")).alias("ts"))
    assert_equal(table, None, True, 60)
