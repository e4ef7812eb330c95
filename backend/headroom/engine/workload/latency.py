"""Latency percentiles (p50/p90/p95/p99/max): overall, per class, per path group (the top
paths by traffic, the rest as ``other``) and per time bucket.

Percentiles interpolate linearly between order statistics, as ``numpy.percentile`` does
by default. Rows without a latency are ignored; a group with none is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

PERCENTILES = (50, 90, 95, 99)
OTHER_PATHS = "other"
Frame = pl.DataFrame | pl.LazyFrame


def _aggregations() -> list[pl.Expr]:
    lat = pl.col("latency_s")
    return [
        pl.len().alias("count"),
        *(lat.quantile(p / 100, "linear").alias(f"p{p}_s") for p in PERCENTILES),
        lat.max().alias("max_s"),
    ]


def latency_percentiles(table: Frame, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """One row per group (one row overall without ``by``): count, p50_s .. p99_s, max_s."""
    lazy = table.lazy().filter(pl.col("latency_s").is_not_null())
    keys = [by] if isinstance(by, str) else list(by or [])
    if not keys:
        out = lazy.select(_aggregations()).collect()
        return out.filter(pl.col("count") > 0)
    return lazy.group_by(keys).agg(_aggregations()).sort(keys).collect()


def path_group(table: Frame, top: int = 50) -> pl.Expr:
    """``path`` for the ``top`` paths by request count (ties by path), else ``other``."""
    ranked = (
        table.lazy()
        .group_by("path")
        .agg(pl.len().alias("n"))
        .sort(["n", "path"], descending=[True, False])
        .head(top)
        .collect()
    )
    kept = ranked["path"].drop_nulls()
    return (
        pl.when(pl.col("path").is_in(kept.implode()))
        .then(pl.col("path"))
        .otherwise(pl.lit(OTHER_PATHS))
        .alias("path_group")
    )


def latency_by_path(table: Frame, top: int = 50) -> pl.DataFrame:
    """Percentiles per path group, busiest first (``other`` last), with request counts."""
    lazy = table.lazy().with_columns(path_group(table, top))
    requests = lazy.group_by("path_group").agg(pl.len().alias("requests"))
    lat = latency_percentiles(lazy, "path_group").lazy()
    out = requests.join(lat, on="path_group", how="left").collect()
    return out.sort(
        [pl.col("path_group") == OTHER_PATHS, "requests", "path_group"],
        descending=[False, True, False],
    )


def latency_over_time(table: Frame, every_s: int = 60, by: str | None = None) -> pl.DataFrame:
    """Percentiles per ``every_s`` bucket (column ``t``), optionally per class."""
    lazy = table.lazy().with_columns(pl.col("ts").dt.truncate(f"{every_s}s").alias("t"))
    return latency_percentiles(lazy, ["t"] if by is None else [by, "t"])
