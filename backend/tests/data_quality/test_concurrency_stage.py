"""The concurrency (SCT) analysis of every latency case, run as the product runs it (the
request table stored as Parquet, read by analyses.tables, analysed by
engine.capacity.analyze_trace), against numpy over the requests:

- each interval's concurrency is the integral of N(t) = arrivals - departures so far over
  the interval, from closed-form cumulative sums (not the engine's per-interval pass); the
  kept levels, their interval counts and their throughput (the mean of completions /
  interval seconds over the intervals after one at the level) are recomputed from it;
- Q_lower <= Q_upper, and TP_max is not above the highest level's measured throughput + 3%;
- logs without latencies are refused with their code;
- known truth: the closed loop's server completes 50/s per request inside up to 10, flat to
  20, then falls, so Q_lower = 10, Q_upper = 20 (+-1) and TP_max = 500/s (3%); an M/M/c
  server completes c mu = 100/s whenever c or more requests are in it, so TP_max is within
  3% of it (the top level's 120 s hold about 2,400 intervals of 5 expected completions:
  the plateau's mean is known to about 1%).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from headroom.analyses.run import _analyse
from headroom.analyses.schemas import SctParamsIn
from headroom.analyses.tables import scan_for_sct
from headroom.core.storage import LocalStore
from headroom.engine.capacity import analyze_trace
from headroom.engine.logs import LogInputError

from .cases import MM_CAPACITY_PER_S, latency_case_names, load_latency_case


@pytest.fixture(scope="module", params=latency_case_names())
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    case = load_latency_case(request.param)
    if case.table is None:
        pytest.skip(f"not a log the parser reads: {case.refusal}")
    path = tmp_path_factory.mktemp("sct") / "part-0.parquet"
    case.table.write_parquet(path)
    params = SctParamsIn()
    try:
        report = analyze_trace(
            scan_for_sct(LocalStore(path.parent), [path.name]), params.to_engine()
        )
    except (LogInputError, ValueError):
        report = None
    return case, path, params, report


def _integral(x: np.ndarray, arrive: np.ndarray, depart: np.ndarray) -> np.ndarray:
    """int_0^x N(t) dt = sum over a_i < x of (x - a_i) minus the same over departures."""
    a, d = np.sort(arrive), np.sort(depart)
    ka, kd = np.searchsorted(a, x), np.searchsorted(d, x)
    sa, sd = np.concatenate(([0.0], np.cumsum(a))), np.concatenate(([0.0], np.cumsum(d)))
    return (ka * x - sa[ka]) - (kd * x - sd[kd])


def _levels(case, width_s: float, min_intervals: int) -> dict[str, tuple[np.ndarray, ...]]:  # type: ignore[no-untyped-def]
    """Per server: kept levels, their interval counts and mean throughput, by hand."""
    table = case.table.filter(case.table["latency_s"].is_not_null())
    # seconds as the engine reads them: polars' division can differ from numpy's in the
    # last place, enough to move a departure that sits on an interval boundary
    since = (pl.col("ts") - pl.col("ts").min()).dt.total_nanoseconds().cast(pl.Float64)
    t = table.select(since / 1e9).to_series().to_numpy()
    lat = table["latency_s"].cast(float).to_numpy()
    named = "server" in table.columns and table["server"].null_count() < table.height
    servers = table["server"].fill_null("site").to_numpy() if named else np.full(t.size, "site")
    out = {}
    for s in sorted(set(servers.tolist())):
        a = t[servers == s]
        d = a + lat[servers == s]
        n = math.floor(a.max() / width_s)
        edges = np.arange(n + 1) * width_s
        level = np.rint(np.diff(_integral(edges, a, d))[:-1] / width_s).astype(np.int64)
        slot = np.floor(d / width_s).astype(np.int64)
        tp = np.bincount(slot[slot < n], minlength=n)[1:n] / width_s
        per = np.bincount(level)
        keep = np.flatnonzero((per >= min_intervals) & (np.arange(per.size) > 0))
        mean_tp = np.array([tp[level == k].mean() for k in keep])
        out[str(s)] = (keep, per[keep], mean_tp)
    return out


def test_refused_with_its_code_or_analysed(run) -> None:  # type: ignore[no-untyped-def]
    case, path, params, report = run
    has_latency = "latency_s" in case.table.columns and case.table["latency_s"].null_count() < (
        case.table.height
    )
    if report is not None:
        assert has_latency
        return
    with pytest.raises(LogInputError) as refused:
        _analyse(params, LocalStore(path.parent), [path.name])
    assert refused.value.code == ("unusable_data" if has_latency else "no_latency")


def test_levels_against_numpy(run) -> None:  # type: ignore[no-untyped-def]
    case, _, _, report = run
    if report is None:
        pytest.skip("refused")
    engine = report.params
    mine = _levels(case, engine.interval_ms / 1000.0, engine.min_intervals)
    assert set(mine) == set(report.servers)
    for name, result in report.servers.items():
        levels, per, tp = mine[name]
        np.testing.assert_array_equal(result.levels.n, levels)
        np.testing.assert_array_equal(result.levels.intervals, per)
        np.testing.assert_allclose(result.levels.throughput_per_s, tp, rtol=1e-9)


def test_pool_bounds_and_peak_throughput(run) -> None:  # type: ignore[no-untyped-def]
    _, _, _, report = run
    if report is None:
        pytest.skip("refused")
    for result in report.servers.values():
        if result.q_lower is not None and result.q_upper is not None:
            assert result.q_lower <= result.q_upper
        if result.tp_max_per_s is not None:
            assert result.tp_max_per_s <= 1.03 * float(result.levels.throughput_per_s.max())


def test_closed_loop_pool_sizes(run) -> None:  # type: ignore[no-untyped-def]
    case, _, _, report = run
    if not case.truth.get("closed_loop"):
        pytest.skip("not the closed loop")
    (result,) = report.servers.values()
    assert result.q_lower == pytest.approx(10, abs=1)
    assert result.q_upper == pytest.approx(20, abs=1)
    assert result.tp_max_per_s == pytest.approx(500.0, rel=0.03)


def test_mmc_peak_throughput_is_the_service_capacity(run) -> None:  # type: ignore[no-untyped-def]
    case, _, _, report = run
    if "servers_c" not in case.truth:
        pytest.skip("not an M/M/c log")
    (result,) = report.servers.values()
    assert result.tp_max_per_s == pytest.approx(MM_CAPACITY_PER_S, rel=0.03)
