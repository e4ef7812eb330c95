"""`histogram_quantile` against hand-worked buckets and a scalar transcription of
Prometheus' bucketQuantile (promql/quantile.go)."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.prometheus import histogram_quantile, increases

INF = math.inf
BOUNDS = np.array([0.1, 0.5, 1.0, INF])
COUNTS = np.array([[10.0, 60.0, 90.0, 100.0]])


def test_interpolates_inside_the_bucket_holding_the_rank():
    # rank 50 lies in (0.1, 0.5]: 10 below it, 50 inside -> 0.1 + 0.4 * 40 / 50
    assert histogram_quantile(0.5, BOUNDS, COUNTS)[0] == 0.1 + 0.4 * 40 / 50
    # rank 5 in the first bucket, which starts at 0
    assert histogram_quantile(0.05, BOUNDS, COUNTS)[0] == 0.1 * 5 / 10
    # rank 90 is exactly the top of (0.5, 1]
    assert histogram_quantile(0.9, BOUNDS, COUNTS)[0] == 1.0


def test_a_rank_in_the_inf_bucket_is_the_largest_finite_bound():
    assert histogram_quantile(0.95, BOUNDS, COUNTS)[0] == 1.0


def test_no_observations_or_no_inf_bucket_give_nan():
    assert math.isnan(histogram_quantile(0.5, BOUNDS, np.zeros((1, 4)))[0])
    assert math.isnan(histogram_quantile(0.5, BOUNDS[:3], COUNTS[:, :3])[0])
    assert math.isnan(histogram_quantile(0.5, BOUNDS[3:], COUNTS[:, 3:])[0])


def test_out_of_range_quantiles_are_infinite():
    assert histogram_quantile(-0.1, BOUNDS, COUNTS)[0] == -INF
    assert histogram_quantile(1.1, BOUNDS, COUNTS)[0] == INF


def test_non_monotonic_counts_are_fixed_by_the_running_maximum():
    # [10, 8, 90, 100] is read as [10, 10, 90, 100]: rank 50 in (0.5, 1], 40 of 80
    counts = np.array([[10.0, 8.0, 90.0, 100.0]])
    assert histogram_quantile(0.5, BOUNDS, counts)[0] == 0.5 + 0.5 * 40 / 80


def test_a_non_positive_first_bound_is_answered_as_is():
    bounds = np.array([-1.0, 0.0, INF])
    assert histogram_quantile(0.1, bounds, np.array([[5.0, 8.0, 10.0]]))[0] == -1.0


def reference(q, bounds, counts):
    """Prometheus' bucketQuantile, one histogram at a time (its Go code, line by line)."""
    if q < 0:
        return -INF
    if q > 1:
        return INF
    if not math.isinf(bounds[-1]):
        return math.nan
    counts = list(counts)
    for i in range(1, len(counts)):
        counts[i] = max(counts[i], counts[i - 1])
    if len(bounds) < 2 or counts[-1] == 0:
        return math.nan
    rank = q * counts[-1]
    b = next((i for i in range(len(counts) - 1) if counts[i] >= rank), len(counts) - 1)
    if b == len(counts) - 1:
        return bounds[-2]
    if b == 0 and bounds[0] <= 0:
        return bounds[0]
    start, end, count = 0.0, bounds[b], counts[b]
    if b > 0:
        start, count, rank = bounds[b - 1], count - counts[b - 1], rank - counts[b - 1]
    return start + (end - start) * (rank / count)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=2, max_size=6),
    st.lists(st.lists(st.integers(0, 40), min_size=7, max_size=7), min_size=1, max_size=5),
    st.floats(0.001, 1.0),
)
def test_matches_prometheus_rule_row_by_row(widths, rows, q):
    bounds = np.append(np.cumsum(np.array(widths, float) + 1) / 10, INF)
    counts = np.cumsum(np.array(rows, float)[:, : bounds.size], axis=1)
    got = histogram_quantile(q, bounds, counts)
    want = [reference(q, list(bounds), list(row)) for row in counts]
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def test_counter_increases_with_resets_and_gaps():
    # 20 -> 5 is a restart: the counter counted 5 since, as Prometheus' increase() adds
    got = increases(np.array([0.0, 10.0, 20.0, 5.0, 15.0]))
    np.testing.assert_array_equal(got, [10.0, 10.0, 5.0, 10.0])
    gap = increases(np.array([0.0, np.nan, 20.0, 30.0]))
    np.testing.assert_array_equal(gap, [np.nan, np.nan, 10.0])
