"""Arrival series against hand counts, sum invariants and the real log's hourly pattern."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.arrivals import (
    RESOLUTIONS_S,
    arrival_series,
    arrival_stats,
    daily_profile,
    stats_by_class,
)

from .conftest import START, MakeTable, make_table


def test_hand_worked_minutes(table: MakeTable) -> None:
    # minute 0: 3 requests, minute 1: none, minute 2: 1 -> mean 4/3, trough 0
    series = arrival_series(table([0, 10, 59, 130]), 60)
    assert series["count"].to_list() == [3, 0, 1]
    assert series["t"].to_list() == [START + timedelta(minutes=m) for m in range(3)]
    # whole-second stamps: the log covers [0, 131) s; minute 2 only 11 s of it, too little
    # to be a peak (1 request in 11 s); the mean is 4 requests over 131 s
    stats = arrival_stats(table([0, 10, 59, 130]), 60)
    assert (stats.peak, stats.trough, stats.buckets, stats.total) == (3, 0, 3, 4)
    assert stats.covered_s == 131 and stats.mean_per_s == 4 / 131
    assert stats.mean == 4 / 131 * 60 and stats.peak_to_mean == (3 / 60) / (4 / 131)
    assert stats.per_minute()["peak_per_min"] == 3
    assert stats.per_minute()["mean_per_min"] == 4 / 131 * 60


def test_ten_second_buckets_and_classes(table: MakeTable) -> None:
    df = table([0, 1, 25, 26, 27], cls_request=["static", "dynamic", "static", "static", "x"])
    series = arrival_series(df, 10, by="cls_request")
    got = {
        (r["cls_request"], int((r["t"] - START).total_seconds())): r["count"]
        for r in series.iter_rows(named=True)
    }
    assert got == {
        ("dynamic", 0): 1, ("dynamic", 10): 0, ("dynamic", 20): 0,
        ("static", 0): 1, ("static", 10): 0, ("static", 20): 2,
        ("x", 0): 0, ("x", 10): 0, ("x", 20): 1,
    }  # fmt: skip
    per_class = stats_by_class(df, "cls_request", 10)
    assert per_class["static"].peak == 2 and per_class["x"].trough == 0


def test_daily_profile_means_across_days(table: MakeTable) -> None:
    day = 86400
    # 12:00 on day 0 gets 2 requests, on day 1 gets 4 -> mean 3 over 2 days (11:59 and
    # 12:02 bound the log, so both noon minutes are wholly covered)
    df = table([-60, 0, 1, day, day + 1, day + 2, day + 3, day + 120])
    profile = daily_profile(df)
    noon = profile.filter(pl.col("minute_of_day") == 12 * 60).row(0, named=True)
    assert noon["mean_count"] == 3 and noon["days"] == 2
    assert profile.height == 1440  # a full day of minutes lies between the two


def test_empty_table(table: MakeTable) -> None:
    assert arrival_series(table([]), 60).height == 0
    assert arrival_stats(table([])).total == 0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0, 7200, allow_nan=False), min_size=1, max_size=200),
    st.sampled_from(RESOLUTIONS_S),
)
def test_series_sums_to_request_count_and_is_gap_free(offsets: list[float], every: int) -> None:
    df = make_table(offsets, cls_request=[("a", "b", "c")[i % 3] for i in range(len(offsets))])
    series = arrival_series(df, every)
    assert series["count"].sum() == len(offsets)
    steps = series["t"].diff().drop_nulls().dt.total_seconds().unique().to_list()
    assert steps in ([], [every])
    by_class = arrival_series(df, every, by="cls_request")
    assert by_class["count"].sum() == len(offsets)
    assert by_class.height == series.height * by_class["cls_request"].n_unique()


def test_real_log_hourly_counts(elastic: pl.DataFrame) -> None:
    """Every timestamp of this log has minute 05: the per-minute series is zero except at
    hh:05, and the hourly series equals an independent count of the hour stamps."""
    hourly = arrival_series(elastic, 3600)
    stamps = Counter(t.replace(minute=0, second=0) for t in elastic["ts"].to_list())
    assert dict(zip(hourly["t"].to_list(), hourly["count"].to_list(), strict=True)) == {
        t: stamps.get(t, 0) for t in hourly["t"].to_list()
    }
    assert hourly.height == 84  # 17 May 10:00 .. 20 May 21:00
    minutes = arrival_series(elastic, 60)
    busy = minutes.filter(pl.col("count") > 0)
    assert set(busy["t"].dt.minute().to_list()) == {5}
    stats = arrival_stats(elastic, 60)
    assert stats.trough == 0 and stats.peak == max(stamps.values())
    assert stats.total == elastic.height == 10000


def test_real_log_daily_profile(elastic: pl.DataFrame) -> None:
    """Minute-of-day h:05 averages hour h's counts over the days whose minute grid holds
    it (17 May 10:05 .. 20 May 21:05); every other minute of the day is zero."""
    profile = daily_profile(elastic)
    assert profile.height == 1440
    stamps = Counter((t.date(), t.hour) for t in elastic["ts"].to_list())
    days = sorted({d for d, _ in stamps})
    first, last = elastic["ts"].min(), elastic["ts"].max()
    for hour in (0, 10, 12, 21, 23):
        covered = [
            d for d in days if first.replace(hour=0, minute=0, second=0).date() <= d
            and (d, hour) >= (first.date(), first.hour) and (d, hour) <= (last.date(), last.hour)
        ]  # fmt: skip
        row = profile.filter(pl.col("minute_of_day") == hour * 60 + 5).row(0, named=True)
        assert row["days"] == len(covered)
        assert row["mean_count"] == pytest.approx(
            sum(stamps.get((d, hour), 0) for d in covered) / len(covered)
        )
    assert profile.filter(pl.col("minute_of_day") % 60 != 5)["mean_count"].max() == 0
