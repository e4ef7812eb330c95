"""The traffic summary against hand counts and invariants."""

from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.traffic import bucket_width_s, summarize

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def table(
    offsets_s: list[float],
    statuses: list[int],
    latency_s: list[float | None] | None = None,
    sizes: list[int] | None = None,
) -> pl.LazyFrame:
    n = len(offsets_s)
    return pl.DataFrame(
        {
            "ts": pl.Series(
                [START + timedelta(seconds=o) for o in offsets_s], dtype=pl.Datetime("ns", "UTC")
            ),
            "status": pl.Series(statuses, dtype=pl.Int16),
            "bytes": pl.Series(sizes or [100] * n, dtype=pl.Int64),
            "latency_s": pl.Series(latency_s or [None] * n, dtype=pl.Float64),
        }
    ).lazy()


def test_hand_worked_example() -> None:
    # minute 0: three requests (200, 200, 503); minute 2: one (404); minute 1 is empty.
    # Whole-second timestamps: the log covers [0, 131) s, minute 2 only [120, 131).
    summary = summarize(table([0, 10, 59, 130], [200, 200, 503, 404], [0.1, 0.2, 0.3, 0.4]))
    assert summary.request_count == 4
    assert summary.timestamp_granularity_s == 1.0 and summary.timestamp_notice is None
    assert summary.span_s == 131
    assert summary.mean_rate_per_s == 4 / 131
    assert summary.status_counts == {"1xx": 0, "2xx": 2, "3xx": 0, "4xx": 1, "5xx": 1}
    assert summary.error_rate == 0.25 and summary.client_error_rate == 0.25
    assert [p.requests for p in summary.series] == [3, 0, 1]
    assert [p.rate_per_min for p in summary.series] == [3, 0, 60 / 11]
    # the peak is over the buckets covering at least half a minute: not minute 2's 11 s
    assert summary.peak_rate_per_min == 3
    assert summary.bytes_total == 400
    assert summary.latency is not None
    assert summary.latency.p50_s == np.percentile([0.1, 0.2, 0.3, 0.4], 50)
    assert summary.latency.max_s == 0.4


def test_no_latency_column_values_means_no_latency_stats() -> None:
    assert summarize(table([0, 1], [200, 200])).latency is None


def test_peak_is_per_calendar_minute_even_with_wide_buckets() -> None:
    hourly = [float(d + (d // 3600 * 37) % 3600) for d in range(3600, 10 * 86400, 3600)]
    offsets = [0.0] * 50 + [10.0] + hourly
    summary = summarize(table(offsets, [200] * len(offsets)))
    assert summary.bucket_s > 60 and summary.timestamp_granularity_s == 1.0
    assert summary.peak_rate_per_min == 51


def test_a_partial_hour_is_a_rate_over_its_minutes() -> None:
    # 20 minutes at 50 req/s (timestamps to 10 ms): 50 req/s, not 60,000 requests over an
    # hour; the log covers up to its last stamp plus 10 ms (1199.99 s)
    offsets = list(np.arange(60_000) / 50.0)
    summary = summarize(table(offsets, [200] * 60_000))
    assert summary.timestamp_granularity_s == 0.01
    assert summary.span_s == pytest.approx(1199.99, abs=1e-6)
    assert summary.mean_rate_per_s == pytest.approx(50, rel=1e-5)
    assert [p.rate_per_min for p in summary.series] == pytest.approx([3000] * 20, rel=1e-3)
    assert summary.peak_rate_per_min == pytest.approx(3000, rel=1e-3)


def test_the_last_partial_bucket_is_normalised_by_its_covered_seconds() -> None:
    # 10 req/s for 150 s: the third minute holds 300 requests in 30 s, still 600 req/min
    offsets = list(np.arange(1500) / 10.0)
    summary = summarize(table(offsets, [200] * 1500))
    assert [p.requests for p in summary.series] == [600, 600, 300]
    assert [p.rate_per_min for p in summary.series] == pytest.approx([600, 600, 600])


def test_hour_rounded_timestamps_are_detected_and_the_peak_is_hourly() -> None:
    # every request at minute :05 of its hour, 100 an hour for 48 hours except one of 130
    hours = np.repeat(np.arange(48), 100).astype(float)
    offsets = list(hours * 3600 + 300 + (np.arange(hours.size) % 60))
    offsets += [3600 * 7 + 300.0] * 30
    summary = summarize(table(offsets, [200] * len(offsets)))
    assert summary.timestamp_granularity_s == 3600
    assert summary.timestamp_notice is not None and "1 hour" in summary.timestamp_notice
    assert summary.peak_bucket_s == 3600 and summary.bucket_s == 3600
    assert summary.span_s == 48 * 3600
    assert summary.peak_rate_per_min == 130 / 60
    assert summary.mean_rate_per_s == len(offsets) / (48 * 3600)


def test_bucket_width_keeps_series_small() -> None:
    assert bucket_width_s(3600, 2000) == 60
    assert bucket_width_s(86400 * 3.5, 2000) == 300
    assert 86400 * 365 / bucket_width_s(86400 * 365, 2000) < 2000


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 86400 * 30), st.integers(100, 599)), min_size=1, max_size=300)
)
def test_series_accounts_for_every_request(rows: list[tuple[float, int]]) -> None:
    offsets, statuses = zip(*rows, strict=True)
    summary = summarize(table(list(offsets), list(statuses)))
    assert sum(p.requests for p in summary.series) == summary.request_count == len(rows)
    assert sum(summary.status_counts.values()) == len(rows)
    for point in summary.series:
        assert point.s1xx + point.s2xx + point.s3xx + point.s4xx + point.s5xx == point.requests
    assert len(summary.series) <= 2000
    times = [p.t for p in summary.series]
    assert times == sorted(times)
