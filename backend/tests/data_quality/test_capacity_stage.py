"""The capacity analysis of every latency case, run as the product runs it (the request
table stored as Parquet, read by analyses.tables, analysed by engine.capacity.analyze),
against numpy over the requests:

- each load bin's load is the mean of its windows' requests / window seconds, and its
  pooled p95 numpy's p95 of the bin's requests (bins are contiguous in load, so the
  hand-computed windows sorted by load and cut at the curve's window counts are the bins);
- Little's law: MaxConn(T) = MaxRate(T) x the arrival-weighted mean latency at that load,
  within 10% (concurrency is measured as the time average in each window, which counts a
  request in the windows it spans rather than the window it arrived in);
- MaxRate(T) never above the highest measured per-server window throughput + 3%;
- on the M/M/c logs (c = 1, 4, 16), MaxRate(T) within 3% of Erlang C (closed form below)
  at T = the stationary p95 at 85% of capacity, and the knee read off the measured curve
  (the logs cover 10-100% of capacity);
- on the closed loop no knee, breaking point or MaxRate(T), and the method is concurrency;
- logs without latencies, or too short for the windows, are refused with their code.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import brentq

from headroom.analyses.run import _analyse
from headroom.analyses.schemas import CapacityParamsIn
from headroom.analyses.tables import scan_for_capacity
from headroom.core.storage import LocalStore
from headroom.engine.capacity import analyze
from headroom.engine.logs import LogInputError

from .cases import MM_CAPACITY_PER_S, latency_case_names, load_latency_case

LITTLE_REL = 0.10


def erlang_c(lam: float, mu: float, c: int) -> float:
    a = lam / mu
    top = a**c / math.factorial(c) / (1 - a / c)
    return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)


def p95_s(lam: float, mu: float, c: int) -> float:
    """M/M/c FCFS response time = Exp(mu) + (with prob. C) Exp(c mu - lam)."""
    wait, theta = erlang_c(lam, mu, c), c * mu - lam

    def survival(t: float) -> float:
        if c == 1:
            return math.exp(-theta * t)
        hypo = (theta * math.exp(-mu * t) - mu * math.exp(-theta * t)) / (theta - mu)
        return (1 - wait) * math.exp(-mu * t) + wait * hypo

    return brentq(lambda t: survival(t) - 0.05, 0.0, 100.0 / min(mu, theta))


def erlang_max_rate(threshold_s: float, mu: float, c: int) -> float:
    return brentq(lambda lam: p95_s(lam, mu, c) - threshold_s, 1e-6, c * mu * (1 - 1e-9))


def _params(case) -> CapacityParamsIn:  # type: ignore[no-untyped-def]
    c = case.truth.get("servers_c")
    if c is None:
        return CapacityParamsIn()
    mu = MM_CAPACITY_PER_S / c
    return CapacityParamsIn(threshold_s=p95_s(0.85 * MM_CAPACITY_PER_S, mu, c))


@pytest.fixture(scope="module", params=latency_case_names())
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    case = load_latency_case(request.param)
    if case.table is None:
        pytest.skip(f"not a log the parser reads: {case.refusal}")
    path = tmp_path_factory.mktemp("cap") / "part-0.parquet"
    case.table.write_parquet(path)
    params = _params(case)
    try:
        table = scan_for_capacity(LocalStore(path.parent), [path.name])
        report = analyze(table, params.to_engine())
    except (LogInputError, ValueError):
        report = None
    return case, path, params, report


def _windows(case, report):  # type: ignore[no-untyped-def]
    """Per window of each stream (server), by hand: load, throughput, and its requests."""
    table = case.table
    t0 = table["ts"].min()
    t = ((table["ts"] - t0).dt.total_nanoseconds().to_numpy() / 1e9).astype(np.float64)
    lat = table["latency_s"].cast(float).fill_null(np.nan).to_numpy()
    w = report.params.window_s
    n = math.floor(t.max() / w)
    servers = (
        table["server"].fill_null("").to_numpy()
        if report.per_server
        else np.zeros(t.size, dtype=object)
    )
    loads, tps, members = [], [], []
    for s in sorted(set(servers.tolist())):
        mine = servers == s
        ta, la = t[mine], lat[mine]
        win = np.floor(ta / w).astype(np.int64)
        dep = np.floor((ta + np.nan_to_num(la)) / w).astype(np.int64)
        arrivals = np.bincount(win[win < n], minlength=n)[:n]
        known = np.bincount(win[(win < n) & ~np.isnan(la)], minlength=n)[:n]
        done = np.bincount(dep[dep < n], minlength=n)[:n]
        for k in np.flatnonzero((arrivals > 0) & (known > 0)):
            loads.append(arrivals[k] / w)
            tps.append(done[k] / w)
            members.append(la[(win == k) & ~np.isnan(la)])
    return np.array(loads), np.array(tps), members


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


def test_bins_against_numpy(run) -> None:  # type: ignore[no-untyped-def]
    case, _, _, report = run
    if report is None:
        pytest.skip("refused")
    curve = report.classes["all"].curve
    loads, _, members = _windows(case, report)
    order = np.argsort(loads, kind="stable")
    cuts = np.cumsum(curve.n_windows)[:-1]
    assert int(curve.n_windows.sum()) == loads.size
    for b, chunk in enumerate(np.split(order, cuts)):
        assert curve.load_per_s[b] == pytest.approx(loads[chunk].mean(), rel=1e-9)
        pooled = np.concatenate([members[i] for i in chunk])
        assert curve.latency_s[b] == pytest.approx(np.percentile(pooled, 95), rel=1e-9)


def test_max_rate_little_and_measured_throughput(run) -> None:  # type: ignore[no-untyped-def]
    case, _, _, report = run
    if report is None:
        pytest.skip("refused")
    cls = report.classes["all"]
    loads, tps, members = _windows(case, report)
    assert cls.max_throughput_per_s == pytest.approx(tps.max(), rel=1e-12)
    sla = cls.sla
    if sla is None or sla.max_rate_per_s == 0:
        return
    assert sla.max_rate_per_s <= 1.03 * tps.max()
    if sla.source == "measured":
        order = np.argsort(loads, kind="stable")
        chunks = np.split(order, np.cumsum(cls.curve.n_windows)[:-1])
        mean_lat = [np.concatenate([members[i] for i in ch]).mean() for ch in chunks]
        at = np.interp(sla.max_rate_per_s, cls.curve.load_per_s, mean_lat)
        assert sla.max_conn == pytest.approx(sla.max_rate_per_s * at, rel=LITTLE_REL)


def test_known_truth(run) -> None:  # type: ignore[no-untyped-def]
    case, _, params, report = run
    if "servers_c" in case.truth:
        c = case.truth["servers_c"]
        sla = report.classes["all"].sla
        assert sla is not None and not sla.capped
        exact = erlang_max_rate(params.threshold_s, MM_CAPACITY_PER_S / c, c)
        assert exact == pytest.approx(0.85 * MM_CAPACITY_PER_S, rel=1e-6)
        assert sla.max_rate_per_s == pytest.approx(exact, rel=0.03)
        knee = report.classes["all"].knee
        assert knee is not None and knee.source == "measured"  # the log covers 10-100%
    elif case.truth.get("closed_loop"):
        for cls in report.classes.values():
            assert cls.method == "concurrency"
            assert cls.knee is None and cls.sla is None and cls.breaking_point is None
        assert report.to_dict()["classes"]["all"]["method"] == "concurrency"
    else:
        pytest.skip("a real log: no closed-form truth")
