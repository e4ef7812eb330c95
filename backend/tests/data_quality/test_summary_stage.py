"""The traffic summary of every case against numpy over its timestamps and the invariants:
rate x span = count, mean <= peak, the series accounts for every request at integer
counts, each bucket's rate is its count over its covered seconds, totals equal the parse
report's, and the synthetic cases' known truth."""

from __future__ import annotations

import numpy as np
import pytest

from headroom.engine.workload.traffic import summarize

from . import checks
from .cases import case_names, load_case
from .checks import NS_ROUNDING_S


@pytest.fixture(scope="module", params=case_names())
def case_and_summary(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    case = load_case(request.param)
    if case.table is None:
        pytest.skip(f"not a log the parser reads: {case.refusal}")
    return case, summarize(case.table.lazy())


def test_counts(case_and_summary) -> None:  # type: ignore[no-untyped-def]
    case, s = case_and_summary
    assert s.request_count == case.table.height
    if case.report is not None:
        assert s.request_count == case.report["lines_parsed"]
        if case.table["status"].count() == 0:  # not recorded: null, never 0
            assert s.status_counts is None and s.error_rate is None
            assert case.report["requests_by_status"] == {}
            return
        statuses = {f"{k[0]}xx": 0 for k in s.status_counts}
        for code, n in case.report["requests_by_status"].items():
            statuses[f"{code[0]}xx"] = statuses.get(f"{code[0]}xx", 0) + n
        assert {k: v for k, v in statuses.items() if k in s.status_counts} == s.status_counts
    points = s.series
    assert sum(p.requests for p in points) == s.request_count
    assert all(isinstance(p.requests, int) and p.requests >= 0 for p in points)


def test_rates_are_counts_over_covered_seconds(case_and_summary) -> None:  # type: ignore[no-untyped-def]
    case, s = case_and_summary
    ts = checks.ts_ns(case.table)
    assert checks.consistent_granularity(ts, s.timestamp_granularity_s)
    start, end = checks.covered(ts, s.timestamp_granularity_s)
    assert s.span_s == pytest.approx((end - start) / 1e9, abs=NS_ROUNDING_S)
    assert s.mean_rate_per_s * s.span_s == pytest.approx(s.request_count, rel=1e-9)
    counts, _seconds, rates = checks.bucket_rates(ts, s.bucket_s, start, end)
    assert [p.requests for p in s.series] == counts.tolist()
    assert [p.rate_per_min for p in s.series] == pytest.approx((rates * 60).tolist(), rel=1e-9)
    assert s.bucket_s >= s.timestamp_granularity_s


def test_peak_is_a_bucket_rate_and_not_below_the_mean(case_and_summary) -> None:  # type: ignore[no-untyped-def]
    case, s = case_and_summary
    ts = checks.ts_ns(case.table)
    start, end = checks.covered(ts, s.timestamp_granularity_s)
    _, _, rates = checks.bucket_rates(ts, s.peak_bucket_s, start, end)
    assert s.peak_bucket_s >= max(60, s.timestamp_granularity_s)
    assert np.isclose(rates * 60, s.peak_rate_per_min, rtol=1e-9).any()
    assert s.mean_rate_per_s * 60 <= s.peak_rate_per_min * (1 + 1e-12)
    assert (s.timestamp_notice is not None) == (s.timestamp_granularity_s > 1)


def test_known_truth(case_and_summary) -> None:  # type: ignore[no-untyped-def]
    case, s = case_and_summary
    truth, rel = case.truth, case.truth.get("rel", 1e-9)
    if not truth:
        pytest.skip("a real log: no closed-form truth")
    if "mean_per_s" in truth:
        assert s.mean_rate_per_s == pytest.approx(truth["mean_per_s"], rel=rel)
    assert s.span_s == pytest.approx(truth["span_s"], rel=rel)
    if "granularity_s" in truth:
        assert s.timestamp_granularity_s == truth["granularity_s"]
    if "peak_per_min" in truth:
        assert s.peak_rate_per_min == pytest.approx(truth["peak_per_min"], rel=rel)
