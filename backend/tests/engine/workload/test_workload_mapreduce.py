"""Characterization as a map over client-hash partitions and a reduce (mapreduce.py,
partial.py, sketch.py) against the one-pass characterization of the same table: exact
fields identical, percentiles within the sketch's stated relative error, fits on the same
values (fewer than MAX_FIT_N, so the sample is all of them), and merging independent of
the order and grouping of the parts."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload import characterize
from headroom.engine.workload.display import display_document
from headroom.engine.workload.mapreduce import characterize_parts, map_partition, map_spilled
from headroom.engine.workload.partial import Partial, merge
from headroom.engine.workload.scan import ScanCounter, plan, scan, scan_from
from headroom.engine.workload.sketch import ALPHA, histogram_of, merge_histograms, percentiles
from headroom.engine.workload.spill import PARTITION_SEED, spill, spill_shares
from support.close import compare

from .conftest import make_table

SPILL = "headroom.engine.workload.spill"
TINY_BUDGET_MB = 1  # MIN_BUCKET_ROWS (1,000) requests a partition: several on a few thousand
PATHS = ["/", "/index.html", "/a.css", "/b.js", "/img/c.png", "/api/items", "/d.gif"]
AGENTS = ["Mozilla/5.0", "curl/8.5.0", "Googlebot/2.1", None]


def random_table(n: int, clients: int, seed: int = 3, span_s: int = 4 * 3600) -> pl.DataFrame:
    """Requests of ``clients`` clients (some null) with ties in ts (whole seconds),
    gaps over the session timeout, Referers to earlier paths, latencies and sizes."""
    rng = np.random.default_rng(seed)
    offsets = np.sort(rng.integers(0, span_s, n)).astype(float)
    pool = [f"10.0.{i // 256}.{i % 256}" for i in range(clients)]
    client = [None if rng.random() < 0.02 else pool[i] for i in rng.integers(0, clients, n)]
    referer = ["-" if r < 0.3 else f"http://site{PATHS[int(r * 10) % 3]}" for r in rng.random(n)]
    return make_table(
        offsets.tolist(),
        client=client,
        user_agent=[AGENTS[i] for i in rng.integers(0, len(AGENTS), n)],
        path=[PATHS[i] for i in rng.integers(0, len(PATHS), n)],
        referer=referer,
        status=rng.choice([200, 200, 200, 304, 404], n).tolist(),
        bytes=rng.integers(100, 50_000, n).tolist(),
        latency_s=np.round(rng.lognormal(-3, 1, n), 6).tolist(),
    )


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    return random_table(5000, 300)


@pytest.fixture(scope="module")
def pair(table: pl.DataFrame) -> tuple[Any, Any]:
    return characterize(table), characterize_parts(table, memory_budget_mb=TINY_BUDGET_MB)


def test_the_table_is_cut_into_several_partitions(table: pl.DataFrame) -> None:
    assert scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB).parts == 5


def test_map_reduce_equals_one_pass(pair: tuple[Any, Any]) -> None:
    one_pass, parts = pair
    assert compare(one_pass.to_dict(), parts.to_dict()) == []
    assert parts.latency is not None and parts.latency["count"] == 5000


def test_exact_fields_are_identical(pair: tuple[Any, Any]) -> None:
    one_pass, parts = (c.to_dict() for c in pair)
    for key in ("requests", "arrivals", "classes", "pages", "sessions", "fields_recorded"):
        assert compare(one_pass[key], parts[key], f"/{key}") == [], key
    assert parts["latency"]["max_s"] == one_pass["latency"]["max_s"]


def test_chart_data_matches_the_request_tables(pair: tuple[Any, Any]) -> None:
    one_pass, parts = pair
    expected = display_document(
        one_pass.tables["annotated"], one_pass.tables["sessions"], held=one_pass.fields_recorded
    )
    assert compare(expected, parts.display) == []


def test_the_scans_counts_by_time_are_the_one_pass_tables(
    table: pl.DataFrame, pair: tuple[Any, Any]
) -> None:
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    annotated = pair[0].tables["annotated"]
    per_second = annotated.group_by(pl.col("ts").dt.truncate("1s"), "cls_request").agg(
        pl.len().cast(pl.Int64).alias("n")
    )
    every_s = found.context.latency_every_s
    timed = annotated.with_columns(pl.col("ts").dt.truncate(f"{every_s}s").alias("t"))
    lat = histogram_of(timed, ["t", "cls_request"], "latency_s")
    keys = ["t", "cls_request", "idx"]
    assert found.counts["requests_1s"].equals(per_second.sort("ts", "cls_request"))
    assert found.counts["lat_time"].equals(lat.sort(keys))


def test_the_maps_leave_the_counts_by_time_to_the_scan(table: pl.DataFrame) -> None:
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    assert not set(map_partition(table.lazy(), 0, found).frames) & set(found.counts)


def sessions_by_hand(table: pl.DataFrame, gap_s: float = 1800.0) -> int:
    """An independent count: per (client, user agent), runs of requests with gaps under
    ``gap_s``, counted with numpy on the sorted keys."""
    keys = table.select(
        pl.col("client").fill_null("<none>"), pl.col("user_agent").fill_null("<none>"), "ts"
    ).sort("client", "user_agent", "ts")
    same = (keys["client"] == keys["client"].shift(1)) & (
        keys["user_agent"] == keys["user_agent"].shift(1)
    )
    gap = keys["ts"].diff().dt.total_seconds(fractional=True).to_numpy()
    new = ~same.fill_null(False).to_numpy() | ~(np.nan_to_num(gap, nan=np.inf) < gap_s)
    return int(new.sum())


def test_session_counts_are_exact_across_partition_edges() -> None:
    # few clients with long activity: every partition holds sessions cut by the timeout
    table = random_table(4000, 12, seed=11, span_s=20 * 3600)
    parts = characterize_parts(table, memory_budget_mb=TINY_BUDGET_MB)
    assert scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB).parts > 1
    assert parts.sessions["count"] == sessions_by_hand(table)
    assert parts.sessions["count"] == characterize(table).sessions["count"]


def test_percentiles_are_within_the_stated_relative_error() -> None:
    rng = np.random.default_rng(5)
    x = np.concatenate([np.zeros(40), rng.lognormal(-4, 2, 20_000), rng.pareto(1.2, 500)])
    hist = histogram_of(pl.DataFrame({"v": x}), [], "v")
    row = percentiles(hist, []).row(0, named=True)
    for p in (50, 90, 95, 99):
        exact = float(np.percentile(x, p))
        assert abs(row[f"p{p}_s"] - exact) <= ALPHA * exact * (1 + 1e-9), p
    assert row["max_s"] == x.max() and row["count"] == len(x)


def test_percentiles_per_group_with_a_null_key_equal_numpy_within_the_error() -> None:
    """Groups of two keys, one null (a group of its own, sorted first as by polars):
    each group's percentiles within the stated relative error of numpy's on its
    values, counts and maxima exact; an empty histogram gives no group, or with no
    keys a zero count."""
    rng = np.random.default_rng(7)
    keys = pl.Series("k", rng.choice(["a", "b", "c"], 6000)).replace("c", None)
    frame = pl.DataFrame(
        {"k": keys, "j": rng.integers(0, 2, 6000), "v": rng.lognormal(-3, 1.5, 6000)}
    )
    hist = histogram_of(frame, ["k", "j"], "v")
    out = percentiles(hist, ["k", "j"])
    expected = [(None, 0), (None, 1), ("a", 0), ("a", 1), ("b", 0), ("b", 1)]
    assert out.select("k", "j").rows() == expected
    for row in out.iter_rows(named=True):
        mine = pl.col("k").eq_missing(row["k"]) & (pl.col("j") == row["j"])
        values = frame.filter(mine)["v"].to_numpy()
        assert row["count"] == len(values) and row["max_s"] == values.max()
        for p in (50, 90, 95, 99):
            exact = float(np.percentile(values, p))
            assert abs(row[f"p{p}_s"] - exact) <= ALPHA * exact * (1 + 1e-9), (row, p)
    assert percentiles(hist.head(0), ["k", "j"]).columns == out.columns
    assert percentiles(hist.head(0), ["k", "j"]).height == 0
    assert percentiles(hist.head(0), []).row(0, named=True)["count"] == 0


def test_a_split_histogram_merges_to_the_whole() -> None:
    rng = np.random.default_rng(6)
    frame = pl.DataFrame({"k": rng.choice(["a", "b"], 3000), "v": rng.exponential(0.1, 3000)})
    whole = histogram_of(frame, ["k"], "v").sort("k", "idx")
    pieces = [histogram_of(frame[i : i + 700], ["k"], "v") for i in range(0, 3000, 700)]
    assert merge_histograms(pieces, ["k"]).sort("k", "idx").equals(whole)


@pytest.fixture(scope="module")
def partials(table: pl.DataFrame) -> list[Partial]:
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    return [map_partition(table.lazy(), i, found) for i in range(found.parts)]


def canonical(partial: Partial) -> dict[str, pl.DataFrame]:
    return {
        name: frame.select(sorted(frame.columns)).sort(sorted(frame.columns), nulls_last=True)
        for name, frame in partial.frames.items()
    }


def same(one: Partial, other: Partial) -> bool:
    a, b = canonical(one), canonical(other)
    return a.keys() == b.keys() and all(
        a[k].equals(b[k]) if k != "totals" else _close_totals(a[k], b[k]) for k in a
    )


def _close_totals(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    one, other = a.row(0, named=True), b.row(0, named=True)
    return all(math.isclose(one[k], other[k], rel_tol=1e-12) for k in one)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_merging_is_independent_of_order_and_grouping(
    partials: list[Partial], data: st.DataObject
) -> None:
    order = data.draw(st.permutations(range(len(partials))))
    cut = data.draw(st.integers(1, len(partials)))
    k = data.draw(st.sampled_from([5, 50, 50_000]))  # small k: the bottom-k cut matters
    baseline = merge(partials, k)
    shuffled = [partials[i] for i in order]
    grouped = merge(
        [merge(shuffled[:cut], k), *([merge(shuffled[cut:], k)] if cut < len(shuffled) else [])], k
    )
    assert same(grouped, baseline)


def test_distinct_clients_add_up_over_disjoint_partitions(
    partials: list[Partial], table: pl.DataFrame
) -> None:
    merged = merge(partials, 50_000)
    assert merged.frames["totals"]["clients"].item() == table["client"].drop_nulls().n_unique()


def test_an_empty_table_is_refused() -> None:
    empty = random_table(10, 3).head(0)
    with pytest.raises(ValueError, match="empty"):
        characterize_parts(empty, memory_budget_mb=TINY_BUDGET_MB)


def test_the_spill_holds_each_partition_in_the_table_order(
    table: pl.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read in slices smaller than a partition (so a partition's file gets several row
    groups), each spilled file is row for row the partition the filter finds."""
    monkeypatch.setattr(f"{SPILL}.SPILL_BATCH_ROWS", 700)
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    paths = spill(table.lazy(), found.parts, tmp_path)
    assert len(paths) == found.parts
    for index, path in enumerate(paths):
        bucket = pl.col("client").hash(PARTITION_SEED) % found.parts
        chosen = table.filter(bucket == index)
        assert pl.read_parquet(path).equals(chosen)
    assert sum(pl.read_parquet(p).height for p in paths) == table.height


def test_a_spilled_partition_maps_to_the_filtered_one(
    table: pl.DataFrame, partials: list[Partial], tmp_path: Path
) -> None:
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    paths = spill(table.lazy(), found.parts, tmp_path)
    assert all(same(map_spilled(p, found), partials[i]) for i, p in enumerate(paths))


def test_an_empty_partition_is_spilled_as_an_empty_file(tmp_path: Path) -> None:
    one_client = random_table(50, 1).filter(pl.col("client").is_not_null())
    paths = spill(one_client.lazy(), 3, tmp_path)
    heights = sorted(pl.read_parquet(p).height for p in paths)
    assert heights == [0, 0, one_client.height]
    assert all(pl.read_parquet(p).schema == one_client.schema for p in paths)


def test_the_shares_cover_the_table_in_order_with_whole_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(f"{SPILL}.SPILL_BATCH_ROWS", 100)
    monkeypatch.setattr(f"{SPILL}.SPILL_SHARE_BATCHES", 3)
    shares = spill_shares(1050)  # 11 slices: 4 shares of 2 or 3 slices
    assert [(r.start, r.stop) for r in shares] == [(0, 200), (200, 500), (500, 800), (800, 1050)]
    assert spill_shares(250) == [range(0, 250)]
    assert spill_shares(0) == [range(0, 0)]


def test_the_spill_spread_over_shares_gives_the_serial_partitions(
    table: pl.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each share spilled on its own (slices of 700 rows, 2 a share: 4 shares), a
    partition's pieces read in share order are its serial spill, row for row, and map to
    the same partial."""
    monkeypatch.setattr(f"{SPILL}.SPILL_BATCH_ROWS", 700)
    monkeypatch.setattr(f"{SPILL}.SPILL_SHARE_BATCHES", 2)
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    serial = spill(table.lazy(), found.parts, tmp_path)
    shares = spill_shares(table.height)
    assert len(shares) == 4
    pieces = [
        spill(table.lazy(), found.parts, tmp_path, rows, f"-from-{share}")
        for share, rows in enumerate(shares)
    ]
    for index, path in enumerate(serial):
        spread = pl.scan_parquet([p[index] for p in pieces])
        assert spread.collect().equals(pl.read_parquet(path))
        assert same(map_spilled(spread, found), map_spilled(path, found))


def test_the_scan_counted_by_the_shares_spills_is_the_one_pass_scan(
    table: pl.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each share's spill counts the slices it reads; the scan of the shares' partials
    (frames, coverage, top paths, quiet minutes) is the one pass's."""
    monkeypatch.setattr(f"{SPILL}.SPILL_BATCH_ROWS", 700)
    monkeypatch.setattr(f"{SPILL}.SPILL_SHARE_BATCHES", 2)
    lazy = table.lazy()
    planned = plan(lazy, memory_budget_mb=TINY_BUDGET_MB)
    partials = []
    for share, rows in enumerate(spill_shares(table.height)):
        counter = ScanCounter(planned, table.columns)
        spill(lazy, planned.parts, tmp_path, rows, f"-from-{share}", counter=counter)
        partials.append(counter.partial())
    assert len(partials) == 4
    spread, whole = scan_from(planned, partials), scan(lazy, memory_budget_mb=TINY_BUDGET_MB)
    assert spread.counts.keys() == whole.counts.keys()
    assert all(spread.counts[k].equals(whole.counts[k]) for k in whole.counts)
    assert spread.context.quiet.equals(whole.context.quiet)
    assert (spread.cover, spread.context.top_paths) == (whole.cover, whole.context.top_paths)
    assert (spread.requests, spread.parts) == (whole.requests, whole.parts) == (table.height, 5)


def test_merging_by_sort_equals_the_group_by_with_null_and_string_keys() -> None:
    """merge_histograms' sort of integer, time and string keys (nulls a group of their
    own, first) gives the group-by's groups, counts and maxima, and percentiles' one
    lexicographic sort the order of a sort on every key."""
    rng = np.random.default_rng(11)
    n = 4000
    hist = pl.DataFrame(
        {
            "t": [None if i % 13 == 0 else int(v) for i, v in enumerate(rng.integers(0, 9, n))],
            "cls": [
                None if i % 7 == 0 else str(v) for i, v in enumerate(rng.choice(["b", "a", "é"], n))
            ],
            "idx": rng.integers(-5, 5, n).astype(np.int32),
            "n": rng.integers(1, 100, n),
            "max": rng.uniform(0, 10, n),
        }
    ).with_columns(pl.from_epoch("t", "s").dt.replace_time_zone("UTC"))
    keys = ["t", "cls", "idx"]
    merged = merge_histograms([hist.head(1500), hist.tail(n - 1500)], ["t", "cls"])
    expected = hist.group_by(keys).agg(pl.col("n").sum(), pl.col("max").max())
    assert merged.sort(keys).equals(expected.sort(keys))
    assert merged.equals(merged.sort(keys, maintain_order=True))
    shares = percentiles(hist, ["cls", "t"])
    assert shares.select("cls", "t").equals(hist.select("cls", "t").unique().sort(["cls", "t"]))
