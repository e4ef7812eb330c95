"""The characterization (and its chart data) of every case against the invariants and an
independent count: shares sum to 1, rate x span = count, mean <= peak, the model lasts
the log's span and its profile integrates to the pages counted, every resolution agrees
on the mean rate, and the synthetic cases' known truth (ramp, rounded hours, 1,050 req/s).
"""

from __future__ import annotations

import numpy as np
import pytest

from headroom.engine.workload import characterize
from headroom.engine.workload.display import display_document

from . import checks
from .cases import case_names, load_case
from .checks import NS_ROUNDING_S


@pytest.fixture(scope="module", params=case_names())
def run(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    case = load_case(request.param)
    if case.table is None:
        pytest.skip(f"not a log the parser reads: {case.refusal}")
    result = characterize(case.table)
    display = display_document(result.tables["annotated"], result.tables["sessions"])
    return case, result, result.to_dict(), display


def _span_s(case, granularity_s: float) -> float:  # type: ignore[no-untyped-def]
    start, end = checks.covered(checks.ts_ns(case.table), granularity_s)
    return (end - start) / 1e9


def test_shares_sum_to_one(run) -> None:  # type: ignore[no-untyped-def]
    _, result, d, _ = run
    for kind in ("request", "user"):
        assert sum(d["classes"][kind].values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(c.share for c in result.model.classes) == pytest.approx(1.0, abs=1e-12)


def test_arrival_rates(run) -> None:  # type: ignore[no-untyped-def]
    case, _, d, _ = run
    a = d["arrivals"]
    span_s = _span_s(case, a["timestamp_granularity_s"])
    assert a["span_s"] == pytest.approx(span_s, abs=NS_ROUNDING_S)
    assert a["mean_per_min"] / 60 * span_s == pytest.approx(d["requests"], rel=1e-9)
    assert a["trough_per_min"] <= a["mean_per_min"] <= a["peak_per_min"] * (1 + 1e-12)
    assert a["every_s"] >= max(60, a["timestamp_granularity_s"])
    assert a["hourly"]["total"] == d["requests"] == case.table.height
    for unit in ("pages", "sessions"):  # left out when the log cannot tell them apart
        if d[unit]["count"] is None:
            assert f"{unit}_hourly" not in a
        else:
            assert a[f"{unit}_hourly"]["total"] == d[unit]["count"]
    assert isinstance(a["hourly"]["peak"], int) and isinstance(a["hourly"]["trough"], int)


def test_every_resolution_agrees_on_the_mean_rate(run) -> None:  # type: ignore[no-untyped-def]
    _case, _, d, display = run
    mean_per_s = d["arrivals"]["mean_per_min"] / 60
    for every, view in display["arrivals"].items():
        stats = view["stats"]
        assert stats["total"] == d["requests"], every
        assert stats["mean_per_s"] == pytest.approx(mean_per_s, rel=1e-9), every
        assert stats["mean_per_s"] <= stats["peak_per_s"] * (1 + 1e-12), every
        if not view["downsampled"]:
            assert sum(view["count"]) == d["requests"], every
            assert all(isinstance(n, int) for n in view["count"]), every
    assert display["default_every_s"] >= max(60, display["timestamp_granularity_s"])


def test_model_lasts_the_span_and_integrates_to_the_pages(run) -> None:  # type: ignore[no-untyped-def]
    case, result, d, _ = run
    model = result.model
    span_s = _span_s(case, d["arrivals"]["timestamp_granularity_s"])
    assert model.duration_s == pytest.approx(span_s, abs=NS_ROUNDING_S)
    assert model.profile_step_s >= d["arrivals"]["timestamp_granularity_s"]
    pages = 0.0
    for c in model.classes:
        starts = np.array([t for t, _ in c.profile] + [model.duration_s])
        rates = np.array([r for _, r in c.profile])
        assert starts[0] == 0 and np.all(np.diff(starts) > 0)
        pages += float(np.sum(rates * np.diff(starts)))
    # the model's pages are its page table's rows (one a request when no paths are logged)
    assert pages == pytest.approx(result.tables["pages"].height, rel=1e-9)
    if d["pages"]["count"] is not None:
        assert d["pages"]["count"] == result.tables["pages"].height


def test_known_truth(run) -> None:  # type: ignore[no-untyped-def]
    case, result, d, display = run
    truth, rel = case.truth, case.truth.get("rel", 1e-9)
    if not truth:
        pytest.skip("a real log: no closed-form truth")
    assert result.model.profile_step_s == truth["profile_step_s"]
    assert result.model.duration_s == pytest.approx(truth["span_s"], rel=rel)
    if "mean_per_s" in truth:
        for view in display["arrivals"].values():  # 1 s .. 1 h: the same mean rate
            assert view["stats"]["mean_per_s"] == pytest.approx(truth["mean_per_s"], rel=rel)
    if "peak_to_mean" in truth:
        assert d["arrivals"]["peak_to_mean"] == pytest.approx(truth["peak_to_mean"], rel=rel)
        assert display["default_every_s"] == 3600
        assert display["timestamp_notice"] is not None
    if "ramp" in truth:
        lo, hi, total_s = truth["ramp"]
        profile = result.model.classes[0].profile
        mid = np.array([t for t, _ in profile]) + 30
        expected = lo + (hi - lo) * mid / total_s
        got = np.array([r for _, r in profile])
        np.testing.assert_allclose(got, expected, rtol=0.02)
        assert got[-1] / got[0] > 10  # the ramp is kept, not flattened


def test_no_fractional_counts(run) -> None:  # type: ignore[no-untyped-def]
    _, _, d, _ = run
    assert isinstance(d["requests"], int)
    for unit in ("pages", "sessions"):  # null when not recorded, else a whole number
        assert d[unit]["count"] is None or isinstance(d[unit]["count"], int)
    for view in run[3]["arrivals"].values():
        assert isinstance(view["stats"]["total"], int)


def test_daily_profile_follows_the_timestamps(run) -> None:  # type: ignore[no-untyped-def]
    """The daily profile counts in buckets the timestamps support, each minute holding its
    bucket's requests per covered minute over the days that cover it (numpy here): the
    elastic log, stamped at one minute of each hour, gets an hourly profile, not 24
    one-minute spikes."""
    case, _, _, display = run
    profile = display["daily_profile"]
    if profile is None:
        pytest.skip("the log covers less than a day")
    every_s = display["default_every_s"]
    assert profile["every_s"] == every_s >= display["timestamp_granularity_s"]
    if case.name == "apache_combined_elastic.log":
        assert every_s == 3600
    w = every_s * 1_000_000_000
    per_day = 86_400 // every_s
    ts = checks.ts_ns(case.table)
    g = round(display["timestamp_granularity_s"] * 1e9)
    start, end = ((ts[0] // g) * g, (ts[-1] // g) * g + g) if g else (ts[0], ts[-1] + 1)
    slot = ts // w
    grid = np.arange(slot[0], slot[-1] + 1)
    covered = np.clip(np.minimum((grid + 1) * w, end) - np.maximum(grid * w, start), 0, None)
    counts = np.bincount(slot - slot[0], minlength=grid.size)[covered > 0]
    grid, covered = grid[covered > 0], covered[covered > 0] / 1e9
    days = np.bincount(grid % per_day, minlength=per_day)
    totals = np.bincount(grid % per_day, weights=counts, minlength=per_day)
    seconds = np.bincount(grid % per_day, weights=covered, minlength=per_day)
    with np.errstate(invalid="ignore"):  # requests per covered second, as per minute
        per_min = np.repeat(totals / seconds * 60, every_s // 60)
    got = np.array([np.nan if v is None else v for v in profile["mean_per_min"]])
    np.testing.assert_allclose(got, per_min, rtol=1e-12)
    assert profile["days"] == days.max()
