"""The chart data: LTTB against a literal transcription of the published algorithm, and the
series, profiles and percentiles against hand-counted tables and numpy."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.classify import apply_rules
from headroom.engine.workload.display import (
    arrival_view,
    count_histogram,
    daily_profile_view,
    display_document,
    latency_bucket_s,
    latency_view,
)
from headroom.engine.workload.downsample import lttb_indices
from headroom.engine.workload.sessions import annotate, pages, sessions

from .conftest import START, MakeTable


def reference_lttb(x: list[float], y: list[float], threshold: int) -> list[int]:
    """Steinarsson's LTTB pseudo-code, point by point (bucket size `every`, floor bounds)."""
    n = len(x)
    if threshold >= n or threshold < 3:
        return list(range(n))
    every = (n - 2) / (threshold - 2)
    a, out = 0, [0]
    for i in range(threshold - 2):
        lo, hi = int(i * every) + 1, int((i + 1) * every) + 1
        nlo, nhi = hi, min(int((i + 2) * every) + 1, n)
        if i == threshold - 3:
            nlo, nhi = n - 1, n
        ax = sum(x[nlo:nhi]) / (nhi - nlo)
        ay = sum(y[nlo:nhi]) / (nhi - nlo)
        best, best_area = lo, -1.0
        for j in range(lo, hi):
            area = abs((x[a] - ax) * (y[j] - y[a]) - (x[a] - x[j]) * (ay - y[a]))
            if area > best_area:
                best, best_area = j, area
        out.append(best)
        a = best
    out.append(n - 1)
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=3, max_size=300),
    st.integers(3, 60),
)
def test_lttb_matches_the_reference_algorithm(counts: list[int], n_out: int) -> None:
    x = [float(i) for i in range(len(counts))]
    y = [float(c) for c in counts]
    kept = lttb_indices(x, y, n_out)
    expected = reference_lttb(x, y, n_out)
    assert kept.tolist() == expected
    assert len(kept) == min(len(counts), n_out)


def test_lttb_keeps_a_lone_spike() -> None:
    y = np.zeros(10_000)
    y[7_321] = 500.0
    kept = lttb_indices(np.arange(len(y)), y, 100)
    assert 7_321 in kept.tolist() and kept[0] == 0 and kept[-1] == len(y) - 1


def classified(table: MakeTable, offsets: list[float], **cols: list[object]) -> pl.DataFrame:
    return apply_rules(table(offsets, **cols))


def test_arrival_series_total_and_classes_are_the_hand_counts(table: MakeTable) -> None:
    offsets = [0, 0.5, 1.2, 61, 62, 125]  # minutes 0, 0, 0, 1, 1, 2 and seconds 0, 0, 1, ...
    paths = ["/a.png", "/b", "/c.css", "/d", "/e.png", "/f"]
    df = classified(table, offsets, path=paths)
    minute = arrival_view(df, 60, 2000)
    assert minute["count"] == [3, 2, 1] and not minute["downsampled"]
    assert minute["by_class"] == {"dynamic": [1, 1, 1], "static": [2, 1, 0]}
    assert minute["stats"]["total"] == 6 and minute["stats"]["peak"] == 3
    start_ms = int(START.timestamp() * 1000)
    assert minute["t_ms"] == [start_ms, start_ms + 60_000, start_ms + 120_000]
    second = arrival_view(df, 1, 20)  # 126 one-second buckets, LTTB down to 20
    assert second["downsampled"] and len(second["count"]) == 20
    assert second["stats"]["total"] == 6 and second["stats"]["buckets"] == 126
    assert second["t_ms"][0] == start_ms and second["t_ms"][-1] == start_ms + 125_000


def test_daily_profile_averages_each_minute_over_the_days_that_cover_it(
    table: MakeTable,
) -> None:
    day = 86_400
    # 12:00 x2, x4 next day; 12:01 next day; 11:59 and 12:05 bound the log, so both days'
    # noon minutes are wholly covered (a partly covered minute counts by its covered seconds)
    offsets = [-60, 0, 1, day, day + 1, day + 2, day + 3, day + 60, day + 300]
    profile = daily_profile_view(classified(table, offsets))
    noon = START.hour * 60
    assert profile["mean_per_min"][noon] == 3.0  # (2 + 4) / 2 days
    assert profile["mean_per_min"][noon + 1] == 0.5  # (0 + 1) / 2
    assert profile["days"] == 2 and len(profile["mean_per_min"]) == 1440


def test_an_hourly_daily_profile_spreads_each_hour_over_its_minutes(table: MakeTable) -> None:
    """Hourly-stamped requests (all at minute 5) fill their hour evenly, not one minute."""
    day = 86_400
    # 12:05 x3, 12:05 next day, 13:05; 11:05 and 14:05 next day bound the log, so the
    # noon and 13:00 hours are wholly covered on both days
    offsets = [-3300, 300, 300, 300, day + 300, 3600 + 300, day + 7200 + 300]
    profile = daily_profile_view(classified(table, offsets), every_s=3600)
    noon = START.hour * 60
    assert profile["mean_per_min"][noon : noon + 60] == [2.0 / 60] * 60  # (3 + 1) / 2 days
    assert profile["mean_per_min"][noon + 60 : noon + 120] == [0.5 / 60] * 60  # (1 + 0) / 2
    assert profile["every_s"] == 3600 and profile["days"] == 2


def test_latency_percentiles_per_bucket_equal_numpy(table: MakeTable) -> None:
    rng = np.random.default_rng(7)
    offsets = sorted(rng.uniform(0, 180, 300).tolist())
    latency = rng.lognormal(-3, 1, 300).tolist()
    df = classified(table, offsets, latency_s=latency)
    view = latency_view(df, 2000)
    assert view is not None and view["every_s"] == 60
    minute = np.floor(np.array(offsets) / 60)
    for i, m in enumerate(sorted(set(minute))):
        mine = np.array(latency)[minute == m]
        assert view["overall"]["count"][i] == len(mine)
        for p in (50, 90, 95, 99):
            assert np.isclose(view["overall"][f"p{p}_s"][i], np.percentile(mine, p), rtol=1e-12)
        assert view["overall"]["max_s"][i] == mine.max()
    assert set(view["by_class"]) == {"dynamic"}
    assert latency_view(classified(table, offsets), 2000) is None


def test_latency_bucket_widens_to_keep_the_point_cap(table: MakeTable) -> None:
    df = table([0, 3 * 86_400])  # three days: 4,321 minutes
    assert latency_bucket_s(df, 2000) == 300
    assert latency_bucket_s(df, 10_000) == 60


def test_count_histogram_counts_every_value_once() -> None:
    values = np.array([1, 1, 2, 5, 5, 5, 90])
    hist = count_histogram(values, max_bins=40)
    assert sum(hist["counts"]) == len(values)
    assert hist["edges"][0] == 1 and hist["edges"][1] - hist["edges"][0] == 3  # ceil(90/40)
    assert count_histogram(np.array([1, 2, 2]))["counts"] == [1, 2]


def test_the_document_of_a_real_log_has_every_request(elastic: pl.DataFrame) -> None:
    ann = annotate(apply_rules(elastic.sort("ts")))
    page_table = pages(ann)
    doc = display_document(ann, sessions(ann, page_table))
    for view in doc["arrivals"].values():
        assert view["stats"]["total"] == elastic.height == 10_000
        assert len(view["count"]) <= 2000
    assert doc["arrivals"]["3600"]["stats"]["buckets"] == 84  # the MANIFEST's hourly buckets
    assert sum(doc["arrivals"]["3600"]["count"]) == 10_000
    assert (
        sum(r["requests"] for r in doc["paths"]) == 10_000 and doc["paths"][-1]["path"] == "other"
    )
    assert doc["latency"] is None
    assert sum(doc["pages_per_session"]["counts"]) == sessions(ann, page_table).height
