"""The reduce of stored partials (partial.merge_stored: a streaming group-by a frame, the
samples folded in part by part with rows above the running k-th key dropped) against the
in-memory merge of the same partials, and the samples against an independent bottom-k
(numpy's lexsort of the concatenated samples)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from headroom.engine.workload.mapreduce import map_partition
from headroom.engine.workload.partial import Partial, bottom_k, merge, merge_stored
from headroom.engine.workload.scan import scan

from .test_workload_mapreduce import TINY_BUDGET_MB, random_table, same


@pytest.fixture(scope="module")
def partials() -> list[Partial]:
    table = random_table(5000, 300)
    found = scan(table.lazy(), memory_budget_mb=TINY_BUDGET_MB)
    return [map_partition(table.lazy(), i, found) for i in range(found.parts)]


def stored(partials: list[Partial], folder: Path) -> list[dict[str, pl.LazyFrame]]:
    out = []
    for index, partial in enumerate(partials):
        frames = {}
        for name, frame in partial.frames.items():
            path = folder / f"{index}-{name}.parquet"
            frame.write_parquet(path)
            frames[name] = pl.scan_parquet(path)
        out.append(frames)
    return out


def bottom_k_by_hand(samples: pl.DataFrame, k: int) -> list[str]:
    """Per (quantity, class), the k rows of smallest (key, value), by numpy's lexsort."""
    chosen: list[str] = []
    for _, group in samples.group_by("quantity", "cls_user"):
        order = np.lexsort((group["value"].to_numpy(), group["key"].to_numpy()))[:k]
        chosen.extend(map(repr, group[order].iter_rows()))
    return sorted(chosen)


@pytest.mark.parametrize("k", [5, 50, 700, 50_000])
def test_stored_partials_merge_as_in_memory(
    partials: list[Partial], tmp_path: Path, k: int
) -> None:
    merged = merge_stored(stored(partials, tmp_path), k)
    assert same(merged, merge(partials, k))
    every = pl.concat([p.frames["samples"] for p in partials])
    rows = sorted(map(repr, merged.frames["samples"].iter_rows()))
    assert rows == bottom_k_by_hand(every, k)


@pytest.mark.parametrize("batch_rows", [1, 40, 500])
def test_parts_merged_in_batches_give_the_one_pass_merge(
    partials: list[Partial], tmp_path: Path, batch_rows: int
) -> None:
    """Counts and histograms folded a batch of parts at a time (one part a batch at 1 row)
    give the same frames as the in-memory merge of every part at once."""
    assert len(partials) > 2
    assert same(merge_stored(stored(partials, tmp_path), 50, batch_rows), merge(partials, 50))


def test_the_order_of_the_stored_parts_does_not_matter(
    partials: list[Partial], tmp_path: Path
) -> None:
    parts = stored(partials, tmp_path)
    assert same(merge_stored(parts[::-1], 50), merge_stored(parts, 50))


@pytest.mark.parametrize("k", [1, 3, 10, 40])
def test_bottom_k_with_keys_repeated_at_the_cut(k: int) -> None:
    """Keys drawn from a few values repeat at every group's k-th key: ties go by value."""
    rng = np.random.default_rng(3)
    n = 300
    samples = pl.DataFrame(
        {
            "quantity": rng.choice(["a", "b"], n),
            "cls_user": rng.choice(["normal", "bot", None], n),
            "key": rng.integers(0, 12, n).astype(np.uint64),
            "value": rng.integers(1, 30, n).astype(np.float64),
        }
    )
    rows = sorted(map(repr, bottom_k(samples, k).iter_rows()))
    assert rows == bottom_k_by_hand(samples, k)
