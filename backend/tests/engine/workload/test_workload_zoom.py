"""The zoom window of the arrival series, against arrival_series (group_by on truncated
times, a separate implementation), hand-counted examples and steady logs whose rate is
known in every bucket."""

from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from headroom.engine.workload.arrivals import arrival_series, bucket_rates
from headroom.engine.workload.coverage import frame_coverage
from headroom.engine.workload.zoom import NS_PER_S, arrival_window

T0 = int(datetime(2024, 3, 1, tzinfo=UTC).timestamp()) * NS_PER_S


def table(offsets_s: list[float]) -> pl.DataFrame:
    ns = [T0 + round(s * NS_PER_S) for s in offsets_s]
    ts = pl.Series("ts", ns, pl.Int64).cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")
    return pl.DataFrame([ts])


def test_hand_counted_window_with_gaps() -> None:
    # requests at 0.2, 0.7, 3.1, 3.9, 4.0, 9.5 s; window [1 s, 5 s) at 1 s: 0, 0, 2, 1
    t = table([0.2, 0.7, 3.1, 3.9, 4.0, 9.5])
    w = arrival_window(t.lazy(), 1, T0 + NS_PER_S, T0 + 5 * NS_PER_S, 2000)
    assert w.count.tolist() == [0, 0, 2, 1]
    assert w.t_ms.tolist() == [(T0 + k * NS_PER_S) // 10**6 for k in (1, 2, 3, 4)]
    assert w.buckets == 4 and not w.downsampled


def test_whole_log_equals_arrival_series() -> None:
    rng = np.random.default_rng(5)
    offsets = np.sort(rng.exponential(0.05, 20_000).cumsum()).tolist()
    t = table(offsets)
    for every_s in (1, 10, 60):
        ref = arrival_series(t, every_s)
        w = arrival_window(t.lazy(), every_s, None, None, 10**6)
        assert w.count.tolist() == ref["count"].to_list()
        assert w.t_ms.tolist() == ref["t"].dt.epoch("ms").to_list()


def test_a_long_window_keeps_lttb_points_of_the_full_series() -> None:
    rng = np.random.default_rng(6)
    t = table(np.sort(rng.uniform(0, 3600, 50_000)).tolist())
    full = arrival_window(t.lazy(), 1, T0, T0 + 3600 * NS_PER_S, 10**6)
    w = arrival_window(t.lazy(), 1, T0, T0 + 3600 * NS_PER_S, 500)
    assert full.buckets == 3600 and len(full.count) == 3600 and int(full.count.sum()) == 50_000
    assert w.downsampled and len(w.t_ms) == 500 and w.buckets == 3600
    index = (w.t_ms - full.t_ms[0]) // 1000
    assert index[0] == 0 and index[-1] == 3599
    assert (full.count[index] == w.count).all()  # a subset of the true counts


def test_bad_windows_are_refused_with_a_reason() -> None:
    t = table([0.0, 1.0])
    with pytest.raises(ValueError, match="end must come after its start"):
        arrival_window(t.lazy(), 1, T0 + 5 * NS_PER_S, T0, 100)
    with pytest.raises(ValueError, match="coarser resolution"):
        arrival_window(t.lazy(), 1, T0, T0 + 10**9 * NS_PER_S, 100)


def steady_log(first_s: int, last_s: int, per_s: int) -> pl.DataFrame:
    """``per_s`` requests stamped at each whole second from first_s to last_s: 1 s
    timestamps, so the log covers [first_s, last_s + 1)."""
    return table([float(s) for s in range(first_s, last_s + 1) for _ in range(per_s)])


def test_a_steady_log_ending_mid_bucket_has_the_same_rate_in_every_bucket() -> None:
    # 3 req/s from 0:15 to 2:45 (covered to 2:45): minutes hold 135, 180, 135 requests
    # over 45, 60, 45 covered seconds, all 3 req/s
    t = steady_log(15, 164, 3)
    w = arrival_window(t.lazy(), 60, None, None, 2000)
    assert w.count.tolist() == [135, 180, 135]
    assert w.rate_per_s.tolist() == pytest.approx([3.0, 3.0, 3.0], abs=1e-12)
    ten = arrival_window(t.lazy(), 10, None, None, 2000)
    assert ten.count[-1] == 15 and ten.rate_per_s == pytest.approx(np.full(16, 3.0), abs=1e-12)


def test_a_window_cutting_a_bucket_rates_the_seconds_it_holds() -> None:
    t = steady_log(0, 299, 2)
    # [0:30, 3:20) at 1 min: 30, 60, 60, 20 covered seconds of 2 req/s
    w = arrival_window(t.lazy(), 60, T0 + 30 * NS_PER_S, T0 + 200 * NS_PER_S, 2000)
    assert w.count.tolist() == [60, 120, 120, 40]
    assert w.rate_per_s.tolist() == pytest.approx([2.0] * 4, abs=1e-12)


def test_the_rates_are_the_whole_log_views_rates() -> None:
    rng = np.random.default_rng(7)
    t = table(np.sort(rng.uniform(7.3, 5000.9, 30_000)).tolist())
    cover = frame_coverage(t)
    assert cover is not None
    for every_s in (10, 60, 3600):
        ref = bucket_rates(arrival_series(t, every_s, cover=cover), every_s, cover)
        w = arrival_window(t.lazy(), every_s, None, None, 10**6)
        given = arrival_window(t.lazy(), every_s, None, None, 10**6, cover)
        assert w.rate_per_s.tolist() == pytest.approx(ref.tolist(), rel=1e-12)
        assert given.rate_per_s.tolist() == w.rate_per_s.tolist()
