"""The samples split at each part's cut (samples.head_cut): the merge folds the heads and
reads a group's tails only when its heads may miss some of its k smallest keys, and the
result is the exact bottom-k of every part's values (an independent numpy lexsort of
their union), the heads short or not, stored or in memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.mapreduce import map_partition
from headroom.engine.workload.partial import Partial, merge, merge_stored
from headroom.engine.workload.samples import HEAD_MARGIN, KEYS, counts_and_sample, head_cut
from headroom.engine.workload.scan import scan

from .test_workload_mapreduce import TINY_BUDGET_MB, random_table
from .test_workload_merge_stored import bottom_k_by_hand, stored

QUANTITIES = ("a", "b")
CLASSES = ["normal", "bot", None]


def values_of(rng: np.random.Generator, n: int) -> dict[str, pl.DataFrame]:
    """``n`` values a quantity (some zero) with uniform keys, in three user classes."""
    return {
        quantity: pl.DataFrame(
            {
                "cls_user": pl.Series(
                    [CLASSES[i] for i in rng.choice(3, n, p=[0.7, 0.25, 0.05])], dtype=pl.String
                ),
                "key": rng.integers(0, KEYS, n, dtype=np.uint64),
                "value": rng.integers(0, 40, n).astype(np.float64),
            }
        )
        for quantity in QUANTITIES
    }


def partial_of(values: dict[str, pl.DataFrame], k: int, parts: int) -> Partial:
    sampled = counts_and_sample(values, k, parts)
    return Partial(
        {
            "sample_counts": sampled.counts,
            "samples": sampled.head,
            "sample_tails": sampled.tail,
            "sample_cuts": sampled.cuts,
        }
    )


def positive_rows(parts: list[dict[str, pl.DataFrame]]) -> pl.DataFrame:
    """Every part's positive values as sample rows."""
    rows = [
        frame.filter(pl.col("value") > 0).select(
            pl.lit(quantity).alias("quantity"), "cls_user", "key", "value"
        )
        for values in parts
        for quantity, frame in values.items()
    ]
    return pl.concat(rows)


def merged_rows(partial: Partial) -> list[str]:
    return sorted(map(repr, partial.frames["samples"].iter_rows()))


def heads_only(partials: list[Partial], k: int) -> list[str]:
    heads = [Partial({"samples": p.frames["samples"]}) for p in partials]
    return merged_rows(merge(heads, k))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    parts=st.integers(1, 8),
    k=st.sampled_from([1, 7, 60, 400]),
    rows=st.integers(0, 1500),
)
def test_the_merged_heads_are_the_bottom_k_of_every_value(
    seed: int, parts: int, k: int, rows: int
) -> None:
    rng = np.random.default_rng(seed)
    values = [values_of(rng, int(n)) for n in rng.integers(0, rows + 1, parts)]
    partials = [partial_of(v, k, parts) for v in values]
    assert merged_rows(merge(partials, k)) == bottom_k_by_hand(positive_rows(values), k)


def test_a_part_holding_most_of_a_group_sends_the_merge_to_its_tails(tmp_path: Path) -> None:
    """One part of eight holds most values: its cut, far below the others', leaves the
    heads fewer than k rows below it, and the merge reads the tails."""
    rng = np.random.default_rng(11)
    k, parts = 300, 8
    values = [values_of(rng, 20_000 if index == 0 else 300) for index in range(parts)]
    partials = [partial_of(v, k, parts) for v in values]
    expected = bottom_k_by_hand(positive_rows(values), k)
    assert heads_only(partials, k) != expected  # the heads alone fall short
    assert merged_rows(merge(partials, k)) == expected
    assert merged_rows(merge_stored(stored(partials, tmp_path), k)) == expected


def test_the_merged_partial_merges_again(tmp_path: Path) -> None:
    """A merged partial is a part that kept its whole sample in its head."""
    rng = np.random.default_rng(5)
    k, parts = 200, 6
    values = [values_of(rng, 20_000 if index == 0 else 2_000) for index in range(parts)]
    partials = [partial_of(v, k, parts) for v in values]
    grouped = merge([merge(partials[:2], k), merge(partials[2:], k)], k)
    assert grouped.frames["sample_tails"].height == 0
    assert merged_rows(grouped) == bottom_k_by_hand(positive_rows(values), k)


def test_a_map_writes_about_its_share_of_the_heads() -> None:
    """Evenly hashed values: a part's head holds about HEAD_MARGIN * k / parts rows a
    group (a binomial count: far within 30% of that plus a few), not its whole k."""
    rng = np.random.default_rng(7)
    k, parts, n = 1_000, 10, 20_000
    sampled = counts_and_sample(values_of(rng, n), k, parts)
    per_group = sampled.head.group_by("quantity", "cls_user").len()
    bound = 1.3 * HEAD_MARGIN * k / parts + 20
    assert max(per_group["len"].to_list()) <= bound < k
    kept = pl.concat([sampled.head, sampled.tail]).group_by("quantity", "cls_user").len()
    positive = sampled.counts.select(
        "quantity", "cls_user", pl.min_horizontal(pl.col("n") - pl.col("zeros"), k).alias("len")
    )
    # the rest of each k is kept apart, for a merge that needs it
    assert kept.sort("quantity", "cls_user").equals(
        positive.sort("quantity", "cls_user"), null_equal=True
    )


def test_a_part_holding_its_whole_share_keeps_no_tail() -> None:
    """At most HEAD_MARGIN * k / parts values a group: the head holds them all."""
    assert head_cut(n=HEAD_MARGIN * 50 // 4, k=50, parts=4) == KEYS
    assert head_cut(n=HEAD_MARGIN * 50 // 4 + 1, k=50, parts=4) < KEYS
    sampled = counts_and_sample(values_of(np.random.default_rng(2), 30), k=50, parts=4)
    assert sampled.tail.height == 0 and sampled.cuts.height == 0


@pytest.mark.parametrize("k", [3, 20, 200])
def test_stored_maps_merge_to_the_bottom_k_of_their_whole_samples(tmp_path: Path, k: int) -> None:
    """Maps of a log with a small sample: the stored heads (and, when short, tails) give
    the bottom-k of every part's whole sample."""
    table = random_table(5000, 300)
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB, sample_size=k)
    partials = [map_partition(table.lazy(), i, found) for i in range(found.parts)]
    assert any(p.frames["sample_tails"].height for p in partials)
    every = pl.concat([p.frames[name] for p in partials for name in ("samples", "sample_tails")])
    merged = merge_stored(stored(partials, tmp_path), k)
    assert merged_rows(merged) == bottom_k_by_hand(every, k)
    assert merged_rows(merge(partials, k)) == bottom_k_by_hand(every, k)


def test_tails_are_not_read_when_the_heads_suffice(tmp_path: Path) -> None:
    """Evenly hashed parts: the merge never collects a tail (here, files that are gone)."""
    rng = np.random.default_rng(9)
    k, parts = 300, 6
    values = [values_of(rng, 5_000) for _ in range(parts)]
    partials = [partial_of(v, k, parts) for v in values]
    assert all(p.frames["sample_tails"].height for p in partials)
    gone = tmp_path / "gone.parquet"
    scans = [part | {"sample_tails": pl.scan_parquet(gone)} for part in stored(partials, tmp_path)]
    expected = bottom_k_by_hand(positive_rows(values), k)
    assert merged_rows(merge_stored(scans, k)) == expected
