"""Arrival pattern (docs/methods/workload.md, "Arrival pattern"): counts per interval, their summary
statistics and the daily profile.

Every function takes any frame with a ``ts`` column (requests; or pages or sessions,
whose ``ts`` is their first arrival). Series are gap-filled: every bucket from the first
to the last arrival is present, with zero where nothing arrived, and with ``by`` every
(bucket, class) pair is present. Given the log's :class:`Coverage`, the grid spans the
covered interval instead.

Rates are counts divided by the seconds each bucket covers (coverage.py): the first and
last buckets of a log rarely cover their whole width, so their rates are their counts over
the covered seconds, and the mean rate is the total over the covered span.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl

from .coverage import NS_PER_S, Coverage, frame_coverage, peak_and_trough

RESOLUTIONS_S = (1, 10, 60, 3600)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
Frame = pl.DataFrame | pl.LazyFrame


@dataclass(frozen=True)
class ArrivalStats:
    """Counts per bucket of ``every_s`` seconds over the gap-filled grid, and rates: each
    bucket's count over the seconds it covers. ``peak`` and ``trough`` are the counts of
    the buckets of highest and lowest rate, ``mean`` the mean rate times ``every_s``
    (requests per full bucket), ``peak_to_mean`` the ratio of the rates."""

    every_s: int
    buckets: int
    total: int
    peak: int
    trough: int
    mean: float
    peak_to_mean: float
    covered_s: float = 0.0
    peak_per_s: float = 0.0
    trough_per_s: float = 0.0
    mean_per_s: float = 0.0

    def per_minute(self) -> dict[str, float]:
        """The CLI contract's keys, rates scaled to one minute."""
        return {
            "peak_per_min": self.peak_per_s * 60.0,
            "trough_per_min": self.trough_per_s * 60.0,
            "mean_per_min": self.mean_per_s * 60.0,
            "peak_to_mean": self.peak_to_mean,
        }

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def arrival_series(
    table: Frame,
    every_s: int = 60,
    by: str | None = None,
    cover: Coverage | None = None,
    weight: str | None = None,
) -> pl.DataFrame:
    """Columns ``t`` (bucket start, UTC), [``by``], ``count``; zero buckets included.
    With ``weight``, each row stands for that column's number of arrivals (a table of
    counts per finer bucket, as the map/reduce characterization keeps)."""
    lazy = table.lazy()
    keys = [pl.col("ts").dt.truncate(f"{every_s}s").alias("t")]
    if by is not None:
        keys.append(pl.col(by).fill_null("(none)"))
    count = pl.len() if weight is None else pl.col(weight).sum()
    counts = lazy.group_by(keys).agg(count.cast(pl.Int64).alias("count")).collect()
    grid = _grid(counts, every_s, by, cover)
    on = ["t"] if by is None else ["t", by]
    sort = on if by is None else [by, "t"]
    return grid.join(counts, on=on, how="left").fill_null(0).sort(sort)


def _grid(
    counts: pl.DataFrame, every_s: int, by: str | None, cover: Coverage | None
) -> pl.DataFrame:
    if counts.height == 0:
        return counts.select("t") if by is None else counts.select("t", by)
    first: datetime = counts["t"].min()  # type: ignore[assignment]
    last: datetime = counts["t"].max()  # type: ignore[assignment]
    if cover is not None:
        step_ns = every_s * NS_PER_S
        lo = (cover.start_ns // step_ns) * step_ns
        hi = ((cover.end_ns - 1) // step_ns) * step_ns
        first = min(first, _utc(lo))
        last = max(last, _utc(hi))
    times = pl.datetime_range(
        first, last, f"{every_s}s", time_unit="ns", time_zone="UTC", eager=True
    )
    grid = pl.DataFrame({"t": times.cast(counts.schema["t"])})
    if by is None:
        return grid
    return grid.join(counts.select(pl.col(by).unique().sort()), how="cross")


def _utc(epoch_ns: int) -> datetime:
    return EPOCH + timedelta(microseconds=epoch_ns // 1000)


def bucket_rates(series: pl.DataFrame, every_s: int, cover: Coverage) -> np.ndarray:
    """Each bucket's count over the seconds of it the log covers (requests per second)."""
    starts = series["t"].dt.epoch("ns").to_numpy()
    return rates_per_s(series["count"].to_numpy(), starts, every_s, cover)


def rates_per_s(
    counts: np.ndarray, bucket_start_ns: np.ndarray, every_s: int, cover: Coverage
) -> np.ndarray:
    """Counts of the buckets ``[start, start + every_s)`` over the seconds of each the
    coverage holds (0 for a bucket it does not touch)."""
    covered = cover.covered_s(bucket_start_ns, every_s)
    n = np.asarray(counts, dtype=float)
    return np.divide(n, covered, out=np.zeros_like(n), where=covered > 0)


def series_stats(series: pl.DataFrame, every_s: int, cover: Coverage | None = None) -> ArrivalStats:
    """Peak, trough, mean and peak-to-mean of one gap-filled series' ``count`` column;
    rates over the covered seconds (every bucket taken as whole without ``cover``)."""
    counts = series["count"]
    if counts.len() == 0:
        return ArrivalStats(every_s, 0, 0, 0, 0, 0.0, 0.0)
    if cover is None:
        covered = np.full(counts.len(), float(every_s))
    else:
        covered = cover.covered_s(series["t"].dt.epoch("ns").to_numpy(), every_s)
    n = counts.to_numpy().astype(np.int64)
    live = covered > 0
    rates = np.where(live, n / np.where(live, covered, 1.0), 0.0)
    total, covered_s = int(n.sum()), float(covered.sum())
    mean_per_s = total / covered_s if covered_s > 0 else 0.0
    hi, lo = peak_and_trough(rates, covered, every_s, mean_per_s)
    return ArrivalStats(
        every_s=every_s,
        buckets=counts.len(),
        total=total,
        peak=int(n[hi]),
        trough=int(n[lo]),
        mean=mean_per_s * every_s,
        peak_to_mean=float(rates[hi]) / mean_per_s if mean_per_s > 0 else 0.0,
        covered_s=covered_s,
        peak_per_s=float(rates[hi]),
        trough_per_s=float(rates[lo]),
        mean_per_s=mean_per_s,
    )


def arrival_stats(
    table: Frame, every_s: int = 60, cover: Coverage | None = None, weight: str | None = None
) -> ArrivalStats:
    """The statistics over the table's own coverage (or ``cover``, the log's)."""
    cover = cover or frame_coverage(table)
    series = arrival_series(table, every_s, cover=cover, weight=weight)
    return series_stats(series, every_s, cover)


def stats_by_class(
    table: Frame, by: str, every_s: int = 60, cover: Coverage | None = None
) -> dict[str, ArrivalStats]:
    cover = cover or frame_coverage(table)
    series = arrival_series(table, every_s, by, cover)
    return {
        str(name): series_stats(part, every_s, cover)
        for (name,), part in series.partition_by(by, as_dict=True).items()
    }


def daily_profile(
    table: Frame,
    by: str | None = None,
    every_s: int = 60,
    cover: Coverage | None = None,
    weight: str | None = None,
) -> pl.DataFrame:
    """Mean arrivals per bucket of ``every_s`` (a divisor of a day) across the days the
    log covers, keyed by the bucket's first minute-of-day (0..1439).

    Each bucket is averaged over the days whose gap-filled grid holds it, weighted by the
    seconds of it the log covers, so a partial first or last day (or bucket) does not
    dilute the buckets it lacks or only starts.
    """
    cover = cover or frame_coverage(table)
    series = arrival_series(table, every_s, by, cover, weight)
    if cover is not None:
        starts_ns = series["t"].dt.epoch("ns").to_numpy()
        series = series.with_columns(covered_s=pl.Series(cover.covered_s(starts_ns, every_s)))
        series = series.filter(pl.col("covered_s") > 0)
    else:
        series = series.with_columns(covered_s=pl.lit(float(every_s)))
    minute = (pl.col("t").dt.hour().cast(pl.Int32) * 60 + pl.col("t").dt.minute()).alias(
        "minute_of_day"
    )
    keys = [minute] if by is None else [minute, pl.col(by)]
    out = series.group_by(keys).agg(
        (pl.col("count").sum() / pl.col("covered_s").sum() * every_s).alias("mean_count"),
        pl.len().alias("days"),
    )
    return out.sort(["minute_of_day"] if by is None else [by, "minute_of_day"])
