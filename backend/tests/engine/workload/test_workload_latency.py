"""Latency percentiles against numpy.percentile (linear interpolation, its default)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from headroom.engine.workload.latency import (
    OTHER_PATHS,
    PERCENTILES,
    latency_by_path,
    latency_over_time,
    latency_percentiles,
)

from .conftest import make_table


@pytest.fixture(scope="module")
def random_table() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 5000
    paths = [f"/p{i}" for i in rng.zipf(1.5, n).clip(max=200)]
    lat = rng.lognormal(-3, 1, n)
    lat_list: list[float | None] = [float(x) for x in lat]
    for i in rng.choice(n, 300, replace=False):
        lat_list[int(i)] = None
    return make_table(
        np.sort(rng.uniform(0, 3600, n)).tolist(),
        path=paths,
        latency_s=lat_list,
        cls_request=rng.choice(["static", "dynamic"], n).tolist(),
    )


def reference(values: pl.Series) -> dict[str, float]:
    v = values.drop_nulls().to_numpy()
    out = {f"p{p}_s": float(np.percentile(v, p)) for p in PERCENTILES}
    return {**out, "max_s": float(v.max()), "count": len(v)}


def check(row: dict[str, float], values: pl.Series) -> None:
    ref = reference(values)
    assert row["count"] == ref["count"]
    for key in ref:
        assert row[key] == pytest.approx(ref[key], rel=1e-12)


def test_overall_and_per_class(random_table: pl.DataFrame) -> None:
    check(latency_percentiles(random_table).row(0, named=True), random_table["latency_s"])
    per = latency_percentiles(random_table, "cls_request")
    for row in per.iter_rows(named=True):
        part = random_table.filter(pl.col("cls_request") == row["cls_request"])
        check(row, part["latency_s"])


def test_path_groups(random_table: pl.DataFrame) -> None:
    out = latency_by_path(random_table, top=50)
    assert out.height == 51 and out["path_group"][-1] == OTHER_PATHS
    assert out["requests"].sum() == random_table.height
    counts = random_table["path"].value_counts().sort(["count", "path"], descending=[True, False])
    top = set(counts["path"].head(50))
    assert set(out["path_group"].head(50)) == top
    other = random_table.filter(~pl.col("path").is_in(list(top)))
    check(out.filter(pl.col("path_group") == OTHER_PATHS).row(0, named=True), other["latency_s"])


def test_per_minute(random_table: pl.DataFrame) -> None:
    out = latency_over_time(random_table, 60)
    assert out.height == 60 and out["count"].sum() == random_table.height - 300
    minute = random_table.filter(pl.col("ts").dt.minute() == 17)
    check(out.row(17, named=True), minute["latency_s"])


def test_without_latency_there_are_no_rows(elastic: pl.DataFrame) -> None:
    assert latency_percentiles(elastic).height == 0
    assert latency_over_time(elastic).height == 0
    assert latency_by_path(elastic)["requests"].sum() == elastic.height
