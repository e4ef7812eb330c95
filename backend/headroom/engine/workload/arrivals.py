"""Arrival pattern (workload.md, "Arrival pattern"): counts per interval, their summary
statistics and the daily profile.

Every function takes any frame with a ``ts`` column (requests; or pages or sessions,
whose ``ts`` is their first arrival). Series are gap-filled: every bucket from the first
to the last arrival is present, with zero where nothing arrived, and with ``by`` every
(bucket, class) pair is present.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

import polars as pl

RESOLUTIONS_S = (1, 10, 60, 3600)
Frame = pl.DataFrame | pl.LazyFrame


@dataclass(frozen=True)
class ArrivalStats:
    """Counts per bucket of ``every_s`` seconds over the gap-filled grid."""

    every_s: int
    buckets: int
    total: int
    peak: int
    trough: int
    mean: float
    peak_to_mean: float

    def per_minute(self) -> dict[str, float]:
        """The CLI contract's keys, rates scaled to one minute."""
        scale = 60.0 / self.every_s
        return {
            "peak_per_min": self.peak * scale,
            "trough_per_min": self.trough * scale,
            "mean_per_min": self.mean * scale,
            "peak_to_mean": self.peak_to_mean,
        }

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def arrival_series(table: Frame, every_s: int = 60, by: str | None = None) -> pl.DataFrame:
    """Columns ``t`` (bucket start, UTC), [``by``], ``count``; zero buckets included."""
    lazy = table.lazy()
    keys = [pl.col("ts").dt.truncate(f"{every_s}s").alias("t")]
    if by is not None:
        keys.append(pl.col(by).fill_null("(none)"))
    counts = lazy.group_by(keys).agg(pl.len().cast(pl.Int64).alias("count")).collect()
    grid = _grid(counts, every_s, by)
    on = ["t"] if by is None else ["t", by]
    sort = on if by is None else [by, "t"]
    return grid.join(counts, on=on, how="left").fill_null(0).sort(sort)


def _grid(counts: pl.DataFrame, every_s: int, by: str | None) -> pl.DataFrame:
    if counts.height == 0:
        return counts.select("t") if by is None else counts.select("t", by)
    first: datetime = counts["t"].min()  # type: ignore[assignment]
    last: datetime = counts["t"].max()  # type: ignore[assignment]
    times = pl.datetime_range(
        first, last, f"{every_s}s", time_unit="ns", time_zone="UTC", eager=True
    )
    grid = pl.DataFrame({"t": times.cast(counts.schema["t"])})
    if by is None:
        return grid
    return grid.join(counts.select(pl.col(by).unique().sort()), how="cross")


def series_stats(series: pl.DataFrame, every_s: int) -> ArrivalStats:
    """Peak, trough, mean and peak-to-mean of one gap-filled series' ``count`` column."""
    counts = series["count"]
    if counts.len() == 0:
        return ArrivalStats(every_s, 0, 0, 0, 0, 0.0, 0.0)
    mean = float(counts.mean())  # type: ignore[arg-type]
    peak = int(counts.max())  # type: ignore[arg-type]
    return ArrivalStats(
        every_s=every_s,
        buckets=counts.len(),
        total=int(counts.sum()),
        peak=peak,
        trough=int(counts.min()),  # type: ignore[arg-type]
        mean=mean,
        peak_to_mean=peak / mean if mean > 0 else 0.0,
    )


def arrival_stats(table: Frame, every_s: int = 60) -> ArrivalStats:
    return series_stats(arrival_series(table, every_s), every_s)


def stats_by_class(table: Frame, by: str, every_s: int = 60) -> dict[str, ArrivalStats]:
    series = arrival_series(table, every_s, by)
    return {
        str(name): series_stats(part, every_s)
        for (name,), part in series.partition_by(by, as_dict=True).items()
    }


def daily_profile(table: Frame, by: str | None = None) -> pl.DataFrame:
    """Mean arrivals per minute-of-day (0..1439) across the days the log covers.

    Each minute-of-day is averaged over the days whose gap-filled per-minute grid holds
    it, so a partial first or last day does not dilute the minutes it lacks.
    """
    series = arrival_series(table, 60, by)
    minute = (pl.col("t").dt.hour().cast(pl.Int32) * 60 + pl.col("t").dt.minute()).alias(
        "minute_of_day"
    )
    keys = [minute] if by is None else [minute, pl.col(by)]
    out = series.group_by(keys).agg(
        pl.col("count").mean().alias("mean_count"), pl.len().alias("days")
    )
    return out.sort(["minute_of_day"] if by is None else [by, "minute_of_day"])
