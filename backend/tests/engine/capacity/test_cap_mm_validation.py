"""The knee-curve pipeline on logs drawn from M/M/1 and M/M/c queues (mu = 100/s in total).

Logs: FCFS queues (Lindley / Kiefer-Wolfowitz recursions) with Poisson arrivals whose rate
steps every 300 s, so 10-s windows cover a load range. References are the closed forms
of queueing.py (themselves checked against textbook values and simulation).

Tolerances, as fractions of the saturation rate c mu = 100/s, with why they are safe:
- knee: see the test; Kneedle normalises by the curve's end points, and the top bins are
  the noisiest: window loads carry Poisson noise (about 3/s at 90/s) and 10-s windows are
  short against the queue's relaxation time near rho = 0.9, which biases the window p95
  low by up to 30%.
- measured breaking point: 4% (bins are about 5/s wide; errors seen under 3%).
- model breaking point and model knee: 5% (service demand within 4% of 1/mu).
- MaxRate(T): 8% (the same low bias of the window p95 moves the crossing right; seen
  up to 5.4%).
- power-ratio peak: 3% (the cubic fits lambda (mu - lambda) exactly for M/M/1; seen
  under 1.5%).
"""

import numpy as np
import polars as pl
import pytest

from headroom.engine.capacity import knee as kn
from headroom.engine.capacity import queueing as q
from headroom.engine.capacity import synth
from headroom.engine.capacity.analysis import MODEL_KNEE, analyze
from headroom.engine.capacity.report import CapacityParams, CapacityReport

CAP = 100.0  # c mu
STABLE = list(np.linspace(5.0, 90.0, 18))  # up to rho = 0.9
OVERLOAD = list(np.arange(5.0, 131.0, 5.0))  # through saturation to rho = 1.3
EARLY = list(np.linspace(5.0, 45.0, 9))  # stops before the knee
T_AT_70 = {c: float(q.response_quantile_s(70.0, CAP / c, c, 95.0)) for c in (1, 4)}


def _log(rates: list[float], c: int, seed: int) -> pl.DataFrame:
    return synth.queue_log(rates, 300.0, CAP / c, c, np.random.default_rng(seed))


@pytest.fixture(scope="module", params=[1, 4], ids=["mm1", "mm4"])
def stable(request: pytest.FixtureRequest) -> tuple[int, CapacityReport]:
    c = request.param
    return c, analyze(_log(STABLE, c, 11), CapacityParams(threshold_s=T_AT_70[c]))


def test_measured_curve_follows_the_analytic_percentile(stable: tuple[int, CapacityReport]) -> None:
    """Bins up to rho = 0.75: median window p95 within 20% of the stationary p95 (a window
    holds 50-750 requests, so its p95 is a noisy, slightly low estimate)."""
    c, report = stable
    curve = report.classes["all"].curve
    sel = curve.load_per_s <= 0.75 * CAP
    theory = q.response_quantile_s(curve.load_per_s[sel], CAP / c, c, 95.0)
    np.testing.assert_allclose(curve.latency_s[sel], theory, rtol=0.20)
    np.testing.assert_allclose(curve.throughput_per_s, curve.load_per_s, rtol=0.03)


def test_knee_where_kneedle_puts_it_on_the_true_curve(stable: tuple[int, CapacityReport]) -> None:
    """Kneedle's objective (distance below the diagonal, 0..1) is flat near its maximum,
    so noise slides the argmax along that plateau. The measured knee must score within
    0.06 of the best score on the true curve (seen within 0.04 over 10 seeds x 2 queues),
    and lie within 12% of c mu of the true argmax (seen within 10.3%)."""
    c, report = stable
    cls = report.classes["all"]
    assert cls.knee is not None and cls.knee.source == "measured"
    lo, hi = cls.curve.load_per_s[0], cls.curve.load_per_s[-1]
    grid = np.linspace(lo, hi, 4000)
    true_p95 = q.response_quantile_s(grid, CAP / c, c, 95.0)
    theory = kn.kneedle(grid, true_p95)
    assert theory is not None
    gap = (grid - lo) / (hi - lo) - (true_p95 - true_p95[0]) / (true_p95[-1] - true_p95[0])
    assert float(np.interp(cls.knee.load_per_s, grid, gap)) >= theory.strength - 0.06
    assert cls.knee.load_per_s == pytest.approx(theory.load_per_s, abs=0.12 * CAP)


def test_unsaturated_log_gets_a_model_breaking_point(stable: tuple[int, CapacityReport]) -> None:
    c, report = stable
    cls = report.classes["all"]
    assert cls.mmc is not None and cls.mmc.servers_c == c  # c is identifiable up to rho 0.9
    assert cls.breaking_point is not None and cls.breaking_point.source == "model"
    assert cls.breaking_point.load_per_s == pytest.approx(0.97 * CAP, abs=0.05 * CAP)


def test_max_rate_matches_the_erlang_c_inversion(stable: tuple[int, CapacityReport]) -> None:
    c, report = stable
    sla = report.classes["all"].sla
    assert sla is not None and sla.stance == "user" and sla.source == "measured"
    exact = q.max_rate_per_s(T_AT_70[c], CAP / c, c, 95.0)
    assert exact == pytest.approx(70.0, rel=1e-6)
    assert sla.max_rate_per_s == pytest.approx(exact, abs=0.08 * CAP)
    # MaxConn(T) is the measured concurrency at MaxRate(T): Little's lambda E[T] there,
    # within 10% (seen within 7.5% over 16 seeds; the bin medians smooth a steep curve)
    rate = sla.max_rate_per_s
    little = rate * float(q.mean_response_s(rate, CAP / c, c))
    assert sla.max_conn == pytest.approx(little, rel=0.10)


def test_power_peak_matches_the_analytic_maximiser(stable: tuple[int, CapacityReport]) -> None:
    c, report = stable
    peak = report.capacity.power_peak_load_per_s
    assert peak is not None and report.capacity.r2 is not None
    assert peak == pytest.approx(q.power_maximiser_per_s(CAP / c, c), abs=0.03 * CAP)
    assert c > 1 or peak == pytest.approx(CAP / 2, abs=0.03 * CAP)  # M/M/1: mu / 2


@pytest.mark.parametrize("c", [1, 4])
def test_breaking_point_through_saturation(c: int) -> None:
    """X = min(lambda, c mu): the smallest lambda with X >= 0.97 max X is 0.97 c mu."""
    cls = analyze(_log(OVERLOAD, c, 5)).classes["all"]
    assert cls.breaking_point is not None and cls.breaking_point.source == "measured"
    assert cls.breaking_point.load_per_s == pytest.approx(0.97 * CAP, abs=0.04 * CAP)
    assert cls.knee is not None and cls.knee.load_per_s < cls.breaking_point.load_per_s
    assert cls.max_conn is not None and cls.sla is not None
    assert cls.max_conn > cls.sla.max_conn  # the absolute MaxConn is past the SLA's


@pytest.mark.parametrize("c", [1, 4])
def test_log_stopping_before_the_knee_is_extrapolated_as_model(c: int) -> None:
    report = analyze(_log(EARLY, c, 2), CapacityParams(model_servers=c))
    cls = report.classes["all"]
    assert cls.mmc is not None and cls.mmc.c_source == "parameter"
    assert cls.mmc.service_time_s == pytest.approx(c / CAP, rel=0.05)
    assert cls.mmc.fit_error_rel < 0.1
    assert cls.knee is not None and cls.knee.source == "model"
    assert MODEL_KNEE in cls.warnings
    lo = cls.curve.load_per_s[0]
    grid = np.linspace(lo, 0.97 * CAP, 4000)
    theory = kn.kneedle(grid, q.response_quantile_s(grid, CAP / c, c, 95.0))
    assert theory is not None
    assert cls.knee.load_per_s == pytest.approx(theory.load_per_s, abs=0.05 * CAP)
    assert cls.breaking_point is not None and cls.breaking_point.source == "model"
    assert cls.breaking_point.load_per_s == pytest.approx(0.97 * CAP, abs=0.05 * CAP)
    # balanced: T = latency at the (model) knee, so MaxRate(T) is the knee load, a model value
    assert cls.sla is not None and cls.sla.source == "model"
    assert cls.sla.max_rate_per_s == pytest.approx(cls.knee.load_per_s, rel=1e-6)
    out = report.to_dict()["classes"]["all"]
    assert out["knee"]["source"] == "model"
    assert out["knee"]["load_per_s"] > max(EARLY)  # never passed off as a measured load
    measured = [p for p in out["curve"] if p["source"] == "measured"]
    model = [p for p in out["curve"] if p["source"] == "model"]
    assert measured and model
    assert min(p["load_per_s"] for p in model) > max(p["load_per_s"] for p in measured)
    assert all(p["fit_error_rel"] == cls.mmc.fit_error_rel for p in model)


@pytest.mark.parametrize("c", [1, 4])
def test_max_rate_beyond_the_log_comes_from_the_erlang_c_model(c: int) -> None:
    """T above every measured latency: MaxRate(T) is read off the model curve, so it must
    equal the Erlang-C inversion with the fitted D and c (1%: linear interpolation on a
    400-point grid), and the true inversion (80/s) within 5% (D is within 5%)."""
    t_80 = float(q.response_quantile_s(80.0, CAP / c, c, 95.0))
    cls = analyze(_log(EARLY, c, 2), CapacityParams(model_servers=c, threshold_s=t_80)).classes[
        "all"
    ]
    assert cls.sla is not None and cls.mmc is not None
    assert cls.sla.source == "model" and not cls.sla.capped
    fitted = q.max_rate_per_s(t_80, cls.mmc.mu_per_s, c, 95.0)
    assert cls.sla.max_rate_per_s == pytest.approx(fitted, rel=0.01)
    assert cls.sla.max_rate_per_s == pytest.approx(80.0, abs=0.05 * CAP)
    # MaxConn(T) on the model part is Little's lambda E[T] of the fitted model
    little = fitted * float(q.mean_response_s(fitted, cls.mmc.mu_per_s, c))
    assert cls.sla.max_conn == pytest.approx(little, rel=0.01)
