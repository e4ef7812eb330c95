"""Window sums: quantiles per group, time-averaged concurrency, Little's law."""

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity import analyze, synth
from headroom.engine.capacity.windows import (
    grouped_quantile,
    interval_counts,
    new_client_counts,
    row_groups,
    window_stats,
)

requests = st.lists(st.tuples(st.floats(0.0, 50.0), st.floats(0.0, 20.0)), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.floats(0, 100), min_size=1, max_size=80),
    q=st.floats(0.0, 1.0),
    data=st.data(),
)
def test_grouped_quantile_matches_numpy(values: list[float], q: float, data: st.DataObject) -> None:
    groups = np.array(
        data.draw(st.lists(st.integers(0, 4), min_size=len(values), max_size=len(values)))
    )
    v = np.array(values)
    got = grouped_quantile(groups, v, 5, q)
    for g in range(5):
        sel = v[groups == g]
        if sel.size:
            assert got[g] == pytest.approx(np.quantile(sel, q), abs=1e-9)
        else:
            assert np.isnan(got[g])


@settings(max_examples=60, deadline=None)
@given(reqs=requests, width=st.floats(0.05, 7.0))
def test_little_law_over_the_whole_span(reqs: list[tuple[float, float]], width: float) -> None:
    """Integral of N(t) over all intervals = sum of latencies when every request fits."""
    a = np.array([r[0] for r in reqs])
    d = a + np.array([r[1] for r in reqs])
    n = int(np.ceil(d.max() / width)) + 1
    counts = interval_counts(a, d, width, n)
    assert counts.in_system_s.sum() == pytest.approx((d - a).sum(), rel=1e-9, abs=1e-9)
    assert counts.arrivals.sum() == a.size
    assert counts.completions.sum() == a.size
    assert counts.completed_latency_s.sum() == pytest.approx((d - a).sum(), rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(reqs=requests, width=st.floats(0.1, 5.0))
def test_concurrency_matches_brute_force_overlap(
    reqs: list[tuple[float, float]], width: float
) -> None:
    a = np.array([r[0] for r in reqs])
    d = a + np.array([r[1] for r in reqs])
    n = 12
    counts = interval_counts(a, d, width, n)
    lo = np.arange(n) * width
    overlap = np.clip(np.minimum(d[:, None], lo + width) - np.maximum(a[:, None], lo), 0, None)
    np.testing.assert_allclose(counts.in_system_s, overlap.sum(axis=0), atol=1e-9)


def test_window_stats_little_law_per_window() -> None:
    """A steady stream of equal requests: L = X W in every window after the first (which
    starts empty), and the measured time average equals Little's X x mean latency."""
    a = np.arange(0, 100, 0.01)  # 100 req/s
    lat = np.full(a.size, 0.05)
    w = window_stats(a, lat, np.ones(a.size, bool), 10.0, 9, 95.0)
    np.testing.assert_allclose(w.load_per_s, 100.0)
    np.testing.assert_allclose(w.throughput_per_s[1:], 100.0)
    np.testing.assert_allclose(w.concurrency[1:], 5.0, atol=1e-9)
    np.testing.assert_allclose(w.concurrency_little[1:], 5.0, atol=1e-9)
    np.testing.assert_allclose(w.latency_pct_s, 0.05)


def test_window_stats_unknown_latency_counts_as_load_only() -> None:
    a = np.arange(0, 30, 0.5)
    lat = np.where(np.arange(a.size) % 2 == 0, 0.1, np.nan)
    ok = np.arange(a.size) % 3 != 0
    w = window_stats(a, lat, ok, 10.0, 3, 50.0)
    np.testing.assert_allclose(w.load_per_s, 2.0)
    np.testing.assert_allclose(w.mean_latency_s, 0.1)
    assert np.all(w.goodput_per_s < w.throughput_per_s)


@settings(max_examples=40, deadline=None)
@given(
    a=st.lists(st.sampled_from(["x", "y", None]), min_size=1, max_size=80),
    data=st.data(),
)
def test_row_groups_match_a_python_grouping(a: list[str | None], data: st.DataObject) -> None:
    b = data.draw(st.lists(st.integers(0, 40), min_size=len(a), max_size=len(a)))
    frame = pl.DataFrame({"a": a, "b": [str(v) for v in b]}, schema={"a": pl.Utf8, "b": pl.Utf8})
    expected: dict[tuple[object, ...], list[int]] = {}
    for i, key in enumerate(zip(a, [str(v) for v in b], strict=True)):
        expected.setdefault(key, []).append(i)
    got = row_groups(frame, ["a", "b"])  # up to 123 groups: both the mask and sort paths
    assert {k: v.tolist() for k, v in got.items()} == expected
    assert list(row_groups(frame, [])[()]) == list(range(len(a)))


def test_row_groups_many_groups_take_the_sort_path() -> None:
    keys = [f"s{i % 100}" for i in range(1000)]
    got = row_groups(pl.DataFrame({"k": keys}), ["k"])
    assert len(got) == 100
    assert got[("s7",)].tolist() == list(range(7, 1000, 100))


@settings(max_examples=50, deadline=None)
@given(
    visits=st.lists(st.tuples(st.floats(0.0, 99.0), st.integers(-1, 15)), min_size=1, max_size=80),
    width=st.floats(1.0, 20.0),
)
def test_new_clients_are_counted_once_at_their_first_request(
    visits: list[tuple[float, int]], width: float
) -> None:
    t = np.array([v[0] for v in visits])
    codes = np.array([v[1] for v in visits], dtype=np.int64)
    n = int(np.ceil(100.0 / width))
    counts = new_client_counts(t, codes, width, n)
    assert counts.sum() == len({c for c in codes.tolist() if c >= 0})
    for c in set(codes.tolist()) - {-1}:  # each client lands in its first request's window
        assert counts[int(np.floor(t[codes == c].min() / width))] >= 1


def test_analyze_reports_new_clients_per_window() -> None:
    """Two requests per client, 1 s apart, one new client every 0.5 s: 2 new clients/s."""
    first = np.arange(0.0, 400.0, 0.5)
    arrive = np.concatenate((first, first + 1.0))
    client = np.concatenate((np.arange(first.size), np.arange(first.size))).astype(str)
    order = np.argsort(arrive, kind="stable")
    table = synth.to_table(arrive[order], np.full(arrive.size, 0.01)).with_columns(
        client=pl.Series(client[order])
    )
    curve = analyze(table).classes["all"].curve
    np.testing.assert_allclose(curve.new_clients_per_s, 2.0)
    # a bin's load is the mean of its windows': the first window holds no second visits
    np.testing.assert_allclose(curve.load_per_s, 4.0, rtol=0.01)
