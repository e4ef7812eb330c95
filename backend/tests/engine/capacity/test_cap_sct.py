"""SCT on simulated servers with a known best pool size, the piecewise fit, the USL."""

import json
import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity import synth
from headroom.engine.capacity.piecewise import fit_segments
from headroom.engine.capacity.sct import (
    SctParams,
    _disagrees,
    analyze_trace,
    core_levels,
    piecewise_fit,
)
from headroom.engine.capacity.usl import UslFit, fit_usl, usl_throughput

RAMP = list(range(1, 51)) + list(range(50, 0, -1))  # users, one step per 5 s


def _server(q_lower: int, q_upper: int, decline: float, seed: int, name: str) -> pl.DataFrame:
    """Completion rate 100/s per request up to q_lower, flat to q_upper, then falling."""
    rates = synth.plateau_rates(100.0, q_lower, q_upper, decline, 80)
    rng = np.random.default_rng(seed)
    return synth.pool_trace(RAMP, 5.0, 0.005, rates, rng, server=name)


@pytest.fixture(scope="module")
def two_servers() -> pl.DataFrame:
    one_core = _server(10, 20, 0.02, 1, "app-1core")
    two_core = _server(20, 30, 0.02, 2, "app-2core")
    return pl.concat([one_core, two_core]).sort("ts")


def test_sct_finds_the_known_pool_optimum(two_servers: pl.DataFrame) -> None:
    """Q_lower and Q_upper within max(2, 10%) of the simulated breakpoints. Q is a 50-ms
    time average while N(t) swings by a few requests inside each interval, so the per-level
    means are the rate function smoothed over those swings, and the smoothing grows with n:
    the kinks are rounded, and the fit puts them up to 2-3 levels early (seen: 8-10 for 10,
    27-29 for 30 over 7 seeds). tp_max within 3% of the simulated peak (about 50
    completions per interval)."""
    report = analyze_trace(two_servers, SctParams(window_s=None))
    assert set(report.servers) == {"app-1core", "app-2core"}
    for name, (lower, upper) in {"app-1core": (10, 20), "app-2core": (20, 30)}.items():
        res = report.servers[name]
        assert res.q_lower is not None and abs(res.q_lower - lower) <= max(2, 0.1 * lower)
        assert res.q_upper is not None and abs(res.q_upper - upper) <= max(2, 0.1 * upper)
        assert res.tp_max_per_s == pytest.approx(100.0 * lower, rel=0.03)
        assert res.usl is not None and res.usl.n_star is not None
    out = report.to_dict()["servers"]["app-1core"]
    assert set(out) >= {"q_lower", "q_upper", "tp_max_per_s", "usl"}
    assert set(out["usl"]) >= {"sigma", "kappa", "n_star"}
    levels = out["levels"]
    assert [lv["n"] for lv in levels] == sorted(lv["n"] for lv in levels)
    assert all(lv["intervals"] >= 10 for lv in levels)
    # response time grows with concurrency past the plateau (Little: R = n / X)
    by_n = {lv["n"]: lv for lv in levels}
    assert by_n[30]["response_s"] > by_n[10]["response_s"]
    assert json.loads(json.dumps(out, allow_nan=False)) == out


def test_no_descent_reports_q_upper_as_above_observed() -> None:
    trace = _server(10, 200, 0.0, 3, "flat")  # never declines within the ramp
    res = analyze_trace(trace, SctParams(window_s=None)).servers["flat"]
    assert res.q_upper is None
    assert res.q_lower is not None and abs(res.q_lower - 10) <= 2
    assert res.to_dict()["q_upper"] is None


def test_window_keeps_only_recent_intervals(two_servers: pl.DataFrame) -> None:
    """The last 180 s of the ramp-down hold at most 36 users: no higher levels."""
    res = analyze_trace(two_servers, SctParams(window_s=180.0)).servers["app-1core"]
    assert res.levels.n.max() <= 36
    assert res.levels.intervals.sum() <= 180.0 / 0.05


def test_piecewise_fit_recovers_exact_breakpoints() -> None:
    n = np.arange(1.0, 41.0)
    tp = np.where(n <= 12, 80 * n, np.where(n <= 25, 960.0, 960 - 30 * (n - 25)))
    fit = piecewise_fit(n, tp)
    assert fit is not None
    assert (fit.q_lower, fit.q_upper) == (12, 25)
    assert fit.tp_max_per_s == pytest.approx(960.0)
    assert fit.middle_slope_per_s == pytest.approx(0.0, abs=1e-6)
    assert fit.last_slope_per_s == pytest.approx(-30.0)
    # the trend line's knots: the ends and the breakpoints, on the exact curve
    knots = np.array(fit.knots)
    assert knots == pytest.approx(np.array([[1, 80], [12, 960], [25, 960], [40, 510]]))


def test_two_segment_fit_recovers_rise_and_plateau() -> None:
    n = np.arange(1.0, 31.0)
    tp = np.minimum(n, 14.0) * 50.0
    fit = fit_segments(n, tp, segments=2)
    assert fit is not None
    assert fit.breakpoints == (14,)
    assert fit.slopes_per_s == pytest.approx((50.0, 0.0), abs=1e-6)
    assert fit_segments(n, tp, segments=4) is None  # only 2 or 3 stages


def test_piecewise_fit_needs_six_levels() -> None:
    assert piecewise_fit(np.arange(1.0, 6.0), np.ones(5)) is None


@settings(max_examples=30, deadline=None)
@given(
    lam=st.floats(10.0, 1000.0),
    sigma=st.floats(0.0, 0.3),
    kappa=st.floats(0.0005, 0.02),
)
def test_usl_fit_recovers_exact_parameters(lam: float, sigma: float, kappa: float) -> None:
    n = np.arange(1.0, 61.0)
    fit = fit_usl(n, usl_throughput(n, lam, sigma, kappa))
    np.testing.assert_allclose(
        fit.throughput_per_s(n), usl_throughput(n, lam, sigma, kappa), rtol=1e-4
    )
    expected = max(math.sqrt((1 - sigma) / kappa), 1.0)
    assert fit.n_star == pytest.approx(expected, rel=1e-2)


def test_disagreement_rule() -> None:
    def usl(n_star: float | None) -> UslFit:
        return UslFit(1.0, 0.0, 0.01, n_star, 1.0, 0.0)

    assert not _disagrees(usl(15.0), 10, 20)  # inside the SCT range
    assert not _disagrees(usl(12.9), 10, 10)  # 29% above a point range
    assert _disagrees(usl(13.5), 10, 10)  # 35% above
    assert _disagrees(usl(6.0), 10, 20)  # 40% below
    assert _disagrees(usl(None), 10, 20)  # no peak at all
    assert not _disagrees(None, 10, 20)


def test_fringe_levels_are_trimmed() -> None:
    counts = np.array([3, 40, 200, 210, 190, 205, 120, 50, 9])
    core = core_levels(counts)
    assert (core.start, core.stop) == (2, 7)  # median 120: 3, 40 and 50, 9 are fringe
    skewed = np.array([400, 300, 200, 150, 90, 60, 40, 20, 15, 12, 11, 10])
    assert core_levels(skewed) == slice(0, 9)  # at most a quarter of the levels per end


def test_trace_without_server_column_is_one_site() -> None:
    trace = _server(10, 20, 0.02, 4, "x").drop("server")
    report = analyze_trace(trace, SctParams(window_s=None))
    assert list(report.servers) == ["site"]


def test_tiny_trace_gives_a_reason_not_a_crash() -> None:
    trace = _server(10, 20, 0.02, 6, "tiny").head(50)
    res = analyze_trace(trace).servers["tiny"]
    assert res.q_lower is None and res.q_upper is None and res.fit is None
    assert res.warnings and "levels" in res.warnings[0]
    json.dumps(res.to_dict(), allow_nan=False)


def test_bad_trace_input() -> None:
    with pytest.raises(ValueError, match="latency_s"):
        analyze_trace(pl.DataFrame({"ts": [1]}))
    with pytest.raises(ValueError, match="interval_ms"):
        analyze_trace(_server(10, 20, 0.02, 5, "x"), SctParams(interval_ms=0))


def test_dropped_levels_are_always_named(two_servers: pl.DataFrame) -> None:
    """Levels seen in fewer than min_intervals intervals leave the scatter with a warning;
    so do the fringe levels the fits leave out, and the trace before a recent window."""
    res = analyze_trace(two_servers, SctParams(window_s=None, min_intervals=200))
    for server in res.servers.values():
        assert server.levels.dropped.size > 0
        assert np.all(server.levels.intervals >= 200)
        assert any("fewer than 200 intervals and left out" in w for w in server.warnings)
    whole = analyze_trace(two_servers, SctParams(window_s=None)).servers["app-1core"]
    assert not any("most recent window" in w for w in whole.warnings)
    recent = analyze_trace(two_servers, SctParams(window_s=180.0)).servers["app-1core"]
    assert any("most recent window" in w for w in recent.warnings)


def _sse(n: np.ndarray, x: np.ndarray, p: tuple[float, ...]) -> float:
    return float(np.sum((usl_throughput(n, *p) - x) ** 2))


@pytest.mark.parametrize("noise", [0.01, 0.1, 0.3])
def test_usl_fit_is_at_least_as_close_as_scipys(noise: float) -> None:
    """The plain-loop fit against scipy's bounded curve_fit (trust region reflective), on
    noisy USL data: its sum of squares is never larger, its parameters close."""
    from scipy.optimize import curve_fit

    rng = np.random.default_rng(11)
    for _ in range(20):
        n = np.arange(1.0, rng.integers(8, 60))
        truth = (rng.uniform(10, 1000), rng.uniform(0, 0.5), rng.uniform(0.0005, 0.02))
        x = usl_throughput(n, *truth) * rng.lognormal(0, noise, n.size)
        ours = fit_usl(n, x)
        theirs, _ = curve_fit(
            usl_throughput, n, x, p0=(float(np.max(x / n)), 0.05, 0.001),
            bounds=([0.0] * 3, [np.inf] * 3), maxfev=20_000,
        )  # fmt: skip
        mine = (ours.lambda_per_s, ours.sigma, ours.kappa)
        assert _sse(n, x, mine) <= _sse(n, x, tuple(theirs)) * (1 + 1e-12)
        assert ours.lambda_per_s == pytest.approx(theirs[0], rel=1e-3)
