"""The zoom window of the arrival series, against arrival_series (group_by on truncated
times, a separate implementation) and a hand-counted example."""

from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from headroom.engine.workload.arrivals import arrival_series
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
