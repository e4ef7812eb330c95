"""Fits that cannot be made, and values at the edges of the floating-point range.

References: maximum likelihood is scale-equivariant (fitting c * x gives the scale
parameters times c and the lognormal mu plus log c, the same shapes, the log-likelihood
minus n log c); the Pareto MLE alpha_hat has se alpha / sqrt(n) (its information), so its
95% interval is alpha_hat +- 1.96 alpha_hat / sqrt(n). Tolerances are stated per test.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from headroom.engine.sim.distributions import parse_distribution
from headroom.engine.workload.bodytail import fit_body_tail
from headroom.engine.workload.fitting import FitReport, fit_distribution, fit_family


def uniform_sizes(n: int = 60_107, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).integers(100, 90_001, n).astype(float)


def _numbers(spec: Any) -> list[float]:
    if isinstance(spec, dict):
        return [v for x in spec.values() for v in _numbers(x)]
    if isinstance(spec, list):
        return [v for x in spec for v in _numbers(x)]
    return [float(spec)] if isinstance(spec, int | float) else []


def assert_finite(report: FitReport) -> None:
    for fit in report.candidates:
        assert all(math.isfinite(v) for v in fit.params.values()), fit
        assert math.isfinite(fit.aic) and math.isfinite(fit.ks)
    if report.body_tail is not None:
        bt = report.body_tail
        assert all(math.isfinite(v) for v in (bt.mu, bt.sigma, bt.alpha, bt.split, bt.aic))
    assert all(math.isfinite(v) for v in _numbers(report.sim_spec()))


def test_light_tailed_sizes_fit_without_overflow() -> None:
    # regression: k ** alpha overflowed (alpha ~ 100 at a split of ~88,000 bytes)
    x = uniform_sizes()
    report = fit_distribution(x, body_tail=True)
    assert report.fitted and report.reason is None
    assert report.body_tail is not None and report.body_tail.alpha > 20
    assert_finite(report)
    # the chosen form draws sizes inside the data's range in the mean: uniform mean 45,050
    draws = parse_distribution(report.sim_spec()).sample(np.random.default_rng(0), 20_000)
    assert np.mean(draws) == pytest.approx(45_050, rel=0.05)


def test_body_tail_loglik_matches_a_direct_sum_in_log_space() -> None:
    x = uniform_sizes(5000)
    fit = fit_body_tail(x)
    assert fit is not None
    tail = x[x >= fit.split]
    # the Pareto part's log-density summed directly, never forming split ** alpha
    direct = np.sum(
        np.log(fit.alpha) + fit.alpha * np.log(fit.split) - (fit.alpha + 1) * np.log(tail)
    )
    assert np.isfinite(direct) and len(tail) > 0


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ([], "no values"),
        ([0.0] * 30, "all 30 values are zero"),
        ([3.0], "only 1 positive value (a fit needs at least 20)"),
        ([1.0, 2.0], "only 2 positive values (a fit needs at least 20)"),
        ([1.0, 2.0, 3.0, 4.0, 5.0], "only 5 positive values (a fit needs at least 20)"),
        ([5.0] * 100, "100 values, all equal to 5"),
        ([1.0, 2.0] * 50, "100 values but only 2 distinct ones"),
    ],
)
def test_unfittable_values_say_why(values: list[float], reason: str) -> None:
    report = fit_distribution(values, body_tail=True)
    assert not report.fitted
    assert report.reason == reason
    assert report.to_dict()["reason"] == reason and report.to_dict()["dist"] is None
    assert_finite(report)


def test_values_within_two_percent_are_not_fitted_and_say_so() -> None:
    # regression: the Weibull shape search raised (no sign change below shape 4e4)
    x = 100_000 + np.random.default_rng(3).uniform(0, 1_000, 60_107)
    report = fit_distribution(x, body_tail=True)
    assert report.reason == "60,107 values but all within 2% of each other"
    assert report.sim_spec()["dist"] == "empirical"


@pytest.mark.parametrize("c", [1e-300, 1e-6, 1e6, 1e300])
def test_fits_are_scale_equivariant(c: float) -> None:
    # regression: values near 1e300 overflowed the lognormal Hessian / gamma fit
    x = np.random.default_rng(5).lognormal(0.5, 0.9, 3000)
    base = fit_distribution(x, body_tail=True)
    scaled = fit_distribution(x * c, body_tail=True)
    assert_finite(scaled)
    by = {f.dist: f for f in scaled.candidates}
    for fit in base.candidates:
        other = by[fit.dist]
        for k, v in fit.params.items():
            if k == "mu":
                expected = v + math.log(c)
                assert other.params[k] == pytest.approx(expected, rel=1e-6, abs=1e-6)
            elif k in ("scale", "mean") or (fit.dist == "inverse_gaussian" and k == "shape"):
                assert other.params[k] == pytest.approx(v * c, rel=1e-4)
            else:
                assert other.params[k] == pytest.approx(v, rel=1e-4)
        assert other.loglik == pytest.approx(fit.loglik - len(x) * math.log(c), rel=1e-6, abs=1e-3)
    assert base.body_tail is not None and scaled.body_tail is not None
    assert scaled.body_tail.split == pytest.approx(base.body_tail.split * c, rel=1e-9)
    assert scaled.body_tail.alpha == pytest.approx(base.body_tail.alpha, rel=1e-9)


def test_huge_magnitude_lognormal_recovers_mu() -> None:
    x = np.random.default_rng(2).lognormal(700.0, 1.0, 4000)
    fit = fit_family("lognormal", x)
    # 4 standard errors, se(mu) = sigma / sqrt(n)
    assert abs(fit.params["mu"] - 700.0) <= 4 / math.sqrt(4000)
    assert fit.se["mu"] == pytest.approx(fit.params["sigma"] / math.sqrt(4000), rel=1e-3)


@pytest.mark.parametrize("alpha", [0.8, 1.5, 3.0])
def test_pareto_alpha_within_its_interval(alpha: float) -> None:
    n = 5000
    u = np.random.default_rng(int(alpha * 10)).random(n)
    x = 40.0 * (1 - u) ** (-1 / alpha)
    fit = fit_family("pareto", x)
    lo, hi = fit.ci95["alpha"]
    assert lo < alpha < hi  # a 95% interval; fixed seeds
    # its half-width is 1.96 alpha_hat / sqrt(n) (Fisher information n / alpha^2), 2%
    half = 1.959964 * fit.params["alpha"] / math.sqrt(n)
    assert (hi - lo) / 2 == pytest.approx(half, rel=0.02)
    assert abs(fit.params["alpha"] - alpha) <= 4 * alpha / math.sqrt(n)


def test_heavy_tail_body_tail_recovers_alpha() -> None:
    rng = np.random.default_rng(9)
    body = rng.lognormal(8.0, 0.6, 8000)
    body = body[body < 10_000]
    tail = 10_000 * (1 - rng.random(2000)) ** (-1 / 1.2)
    fit = fit_body_tail(np.concatenate([body, tail]))
    assert fit is not None
    # alpha_hat has se alpha / sqrt(n_tail); the chosen split may sit above 10,000
    n_tail = fit.tail_fraction * fit.n
    assert abs(fit.alpha - 1.2) <= 4 * 1.2 / math.sqrt(n_tail)


positive = st.floats(
    min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False, allow_subnormal=True
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    arrays(np.float64, st.integers(0, 120), elements=positive),
    st.booleans(),
)
def test_any_positive_values_never_raise_or_give_non_finite_parameters(
    x: np.ndarray, body_tail: bool
) -> None:
    report = fit_distribution(x, body_tail=body_tail)
    assert_finite(report)
    assert report.fitted or report.reason


@settings(max_examples=30, deadline=None)
@given(
    st.floats(-300, 300),
    st.floats(0.0, 3.0),
    st.integers(20, 200),
    st.integers(0, 2**32 - 1),
)
def test_lognormal_values_at_any_magnitude_are_fitted(
    log_ref: float, sigma: float, n: int, seed: int
) -> None:
    x = np.exp(log_ref + sigma * np.random.default_rng(seed).standard_normal(n))
    report = fit_distribution(x, body_tail=True)
    assert_finite(report)
    assert report.fitted or report.reason


def test_one_failing_fit_leaves_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    from headroom.engine.workload import characterization

    real = characterization.fit_distribution

    def failing(x: np.ndarray, **kwargs: Any) -> FitReport:
        if kwargs.get("body_tail"):
            raise OverflowError(34, "Numerical result out of range")
        return real(x, **kwargs)

    monkeypatch.setattr(characterization, "fit_distribution", failing)
    rng = np.random.default_rng(0)
    values = {"html_bytes": uniform_sizes(200), "think_time_s": rng.exponential(5.0, 500)}
    fits = characterization.fit_samples(values, rng)
    assert not fits["html_bytes"].fitted
    assert (fits["html_bytes"].reason or "").startswith("the fit failed on these values")
    assert fits["html_bytes"].sim_spec()["dist"] == "empirical"
    assert fits["think_time_s"].fitted and fits["think_time_s"].reason is None
