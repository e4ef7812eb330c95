"""Fitting: parameter recovery within stated multiples of the standard error, the AIC
choice at large n, the spec's reference distributions, body/tail splices, zeros.

Tolerances. Asymptotically normal MLEs: |estimate - truth| <= 4 standard errors from the
observed information (P(|Z| > 4) = 6e-5 per parameter). The Pareto scale (the sample
minimum) is biased upward with an exponential-like tail: 0 <= estimate - truth <= 7 of
its scale (scale / (n alpha); P(exceed) = e^-7 < 1e-3). Seeds are fixed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from headroom.engine.sim.distributions import parse_distribution
from headroom.engine.workload.bodytail import fit_body_tail
from headroom.engine.workload.fitting import (
    FAMILIES,
    bootstrap_ci,
    fit_distribution,
    fit_family,
    frozen,
)

TRUTH = {
    "lognormal": {"mu": 1.0, "sigma": 0.8},
    "pareto": {"alpha": 1.4, "scale": 1.0},
    "exponential": {"mean": 2.0},
    "weibull": {"shape": 0.7, "scale": 3.0},
    "gamma": {"shape": 3.0, "scale": 0.5},
    "inverse_gaussian": {"mean": 3.86, "shape": 9.46},
}


def sample(dist: str, n: int, seed: int) -> np.ndarray:
    return frozen(dist, TRUTH[dist]).rvs(size=n, random_state=np.random.default_rng(seed))


@pytest.mark.parametrize("dist", FAMILIES)
def test_recovers_parameters(dist: str) -> None:
    fit = fit_family(dist, sample(dist, 5000, seed=11))
    for name, true in TRUTH[dist].items():
        err = fit.params[name] - true
        if dist == "pareto" and name == "scale":
            assert 0 <= err <= 7 * fit.se[name]
        else:
            assert abs(err) <= 4 * fit.se[name], (name, fit.params[name], fit.se[name])
        lo, hi = fit.ci95[name]
        assert lo < fit.params[name] < hi or (lo <= fit.params[name] and name == "scale")


def test_standard_errors_match_closed_forms() -> None:
    x = sample("lognormal", 4000, seed=3)
    fit = fit_family("lognormal", x)
    # lognormal: se(mu) = sigma / sqrt(n), se(sigma) = sigma / sqrt(2n)
    assert fit.se["mu"] == pytest.approx(fit.params["sigma"] / math.sqrt(4000), rel=1e-3)
    assert fit.se["sigma"] == pytest.approx(fit.params["sigma"] / math.sqrt(8000), rel=1e-3)
    expo = fit_family("exponential", sample("exponential", 4000, seed=3))
    assert expo.se["mean"] == pytest.approx(expo.params["mean"] / math.sqrt(4000), rel=1e-3)


@pytest.mark.parametrize("dist", FAMILIES)
def test_chooses_the_right_family_at_large_n(dist: str) -> None:
    report = fit_distribution(sample(dist, 20000, seed=5))
    best = report.best
    assert best is not None
    if dist == "exponential":
        # Weibull and gamma contain the exponential (shape 1): AIC may prefer one by a
        # hair (the likelihood ratio is chi-squared(1)); then its shape is 1 within 4 se
        assert best.dist == "exponential" or abs(best.params["shape"] - 1) <= 4 * best.se["shape"]
        aics = {f.dist: f.aic for f in report.candidates}
        assert aics["exponential"] - best.aic < 10
    else:
        assert best.dist == dist
    assert best.ks < 0.02  # the KS 99% critical value at n = 20000 is 1.63/sqrt(n) = 0.0115


def test_ks_distance_against_scipy() -> None:
    from scipy import stats

    x = sample("gamma", 3000, seed=9)
    fit = fit_family("weibull", x)
    ref = stats.kstest(x, frozen("weibull", fit.params).cdf).statistic
    assert fit.ks == pytest.approx(ref, abs=1e-12)


def test_spec_reference_values_are_recovered() -> None:
    """The reference distributions of docs/methods/workload.md: sampled, fitted, chosen and
    recovered."""
    rng = np.random.default_rng(2024)
    per_session = frozen("inverse_gaussian", {"mean": 3.86, "shape": 9.46}).rvs(
        20000, random_state=rng
    )
    think = 1.0 * (1 + rng.pareto(1.4, 20000))
    objects = 2.0 * (1 + rng.pareto(1.33, 20000))
    embedded = rng.lognormal(8.215, 1.46, 20000)
    for x, dist, truth in (
        (per_session, "inverse_gaussian", {"mean": 3.86, "shape": 9.46}),
        (think, "pareto", {"alpha": 1.4}),
        (objects, "pareto", {"alpha": 1.33}),
        (embedded, "lognormal", {"mu": 8.215, "sigma": 1.46}),
    ):
        best = fit_distribution(x).best
        assert best is not None and best.dist == dist
        for k, v in truth.items():
            assert abs(best.params[k] - v) <= 4 * best.se[k]


def test_body_tail_recovers_the_spec_html_sizes() -> None:
    """HTML sizes: lognormal(7.630, 1.001) body, Pareto(alpha 1, k 10240) tail; the tail
    share is the lognormal's own mass above k (5.5%). n = 20000: 1,100 tail points, so
    se(alpha) = alpha / sqrt(1100) = 0.03; the split is a sample quantile of 25
    candidates. Tolerances: alpha within 0.15 (5 se), split within 15%, mu and sigma
    within 0.05 (about 5 of their standard errors, sigma / sqrt(n) = 0.007)."""
    rng = np.random.default_rng(7)
    body = rng.lognormal(7.630, 1.001, 60000)
    body = body[body < 10240][:18900]
    tail = 10240 * (1 + rng.pareto(1.0, 1100))
    fit = fit_body_tail(np.concatenate([body, tail]))
    assert fit is not None
    assert abs(fit.alpha - 1) < 0.15 and abs(fit.split / 10240 - 1) < 0.15
    assert abs(fit.mu - 7.630) < 0.05 and abs(fit.sigma - 1.001) < 0.05
    assert fit.ks < 0.02
    report = fit_distribution(np.concatenate([body, tail]), body_tail=True)
    assert report.body_tail is not None
    assert report.body_tail.aic < min(f.aic for f in report.candidates)
    assert report.sim_spec()["dist"] == "mixture"
    assert parse_distribution(report.sim_spec()).mean > 0


def test_zeros_become_a_constant_part_the_simulator_reads() -> None:
    rng = np.random.default_rng(1)
    x = np.concatenate([np.zeros(300), rng.lognormal(0, 1, 700)])
    report = fit_distribution(x)
    assert report.zero_fraction == pytest.approx(0.3)
    spec = report.sim_spec()
    assert spec["parts"][0] == [pytest.approx(0.3), {"dist": "constant", "value": 0.0}]
    dist = parse_distribution(spec)
    draws = dist.sample(np.random.default_rng(0), 20000)
    assert np.mean(draws == 0) == pytest.approx(0.3, abs=0.03)  # 9 binomial se of 0.0032


def test_fallbacks_for_too_little_data() -> None:
    assert fit_distribution([]).sim_spec() == {"dist": "constant", "value": 0.0}
    assert fit_distribution([2.0] * 50).sim_spec() == {"dist": "constant", "value": 2.0}
    small = fit_distribution([1.0, 2.0, 3.0])
    assert small.best is None and small.sim_spec()["dist"] == "empirical"
    assert small.to_dict()["dist"] is None


def test_bootstrap_interval_agrees_with_the_information() -> None:
    x = sample("gamma", 2000, seed=4)
    fit = fit_family("lognormal", x)
    ci = bootstrap_ci("lognormal", x, np.random.default_rng(0), n_boot=300)
    for k in ("mu", "sigma"):
        width = ci[k][1] - ci[k][0]
        assert ci[k][0] < fit.params[k] < ci[k][1]
        # 300 resamples estimate the 2.5/97.5% points to within ~15%; the information
        # width is 2 * 1.96 se. The lognormal misfits gamma data, so allow 35%.
        assert width == pytest.approx(2 * 1.96 * fit.se[k], rel=0.35)


def test_large_samples_are_subsampled_with_the_given_generator() -> None:
    x = sample("lognormal", 50000, seed=1)
    a = fit_distribution(x, rng=np.random.default_rng(3), max_n=5000)
    b = fit_distribution(x, rng=np.random.default_rng(3), max_n=5000)
    assert a.best is not None and b.best is not None
    assert a.best.params == b.best.params and a.best.n == 5000 and a.n == 50000


def test_sim_form_skips_parameters_the_simulator_refuses() -> None:
    from dataclasses import replace

    report = fit_distribution(sample("gamma", 2000, seed=2))
    broken = tuple(
        replace(f, params={**f.params, "sigma": 25.0}) if f.dist == "lognormal" else f
        for f in report.candidates
        if f.dist in ("lognormal", "gamma")
    )
    only_gamma = replace(report, candidates=broken)
    assert only_gamma.sim_spec()["dist"] == "empirical"  # neither is usable as is
    assert len(only_gamma.sim_spec()["values"]) == 1000
