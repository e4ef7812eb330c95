"""Distributions: sample moments vs closed-form mean/variance; validation; declarative form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from headroom.engine.sim import distributions as d

N = 400_000
CASES = [
    d.Constant(2.5),
    d.Uniform(1.0, 3.0),
    d.Exponential(0.5),
    d.Lognormal(-1.0, 0.5),
    d.Pareto(5.0, 1.0),
    d.Mixture((0.97, 0.03), (d.Uniform(0, 1), d.Uniform(1, 2))),
    d.Empirical((1.0, 2.0, 4.0, 8.0)),
]


@pytest.mark.parametrize("dist", CASES, ids=lambda x: type(x).__name__)
def test_sample_mean_matches_closed_form(dist: d.Distribution) -> None:
    # The sample mean of N draws has sd sqrt(var / N); 6 sd is a safe deterministic bound.
    x = dist.sample(np.random.default_rng(7), N)
    assert len(x) == N and x.dtype == np.float64
    assert abs(x.mean() - dist.mean) <= 6 * math.sqrt(dist.variance / N) + 1e-12


@pytest.mark.parametrize("dist", CASES[1:], ids=lambda x: type(x).__name__)
def test_sample_variance_matches_closed_form(dist: d.Distribution) -> None:
    # Relative error of a sample variance is ~ sqrt(kurtosis / N) < 1% here.
    x = dist.sample(np.random.default_rng(8), N)
    assert x.var() == pytest.approx(dist.variance, rel=0.03)


def test_mixture_moments_by_hand() -> None:
    m = d.Mixture((0.5, 0.5), (d.Constant(1.0), d.Constant(3.0)))
    assert m.mean == 2.0 and m.variance == 1.0


def test_pareto_infinite_moments() -> None:
    assert d.Pareto(1.0, 1.0).mean == math.inf
    assert d.Pareto(1.5, 1.0).variance == math.inf


@pytest.mark.parametrize(
    "build",
    [
        lambda: d.Uniform(2, 1),
        lambda: d.Exponential(0),
        lambda: d.Constant(-1),
        lambda: d.Lognormal(0, -1),
        lambda: d.Pareto(0, 1),
        lambda: d.Mixture((1.0,), ()),
        lambda: d.Mixture((-1.0, 2.0), (d.Constant(1), d.Constant(2))),
        lambda: d.Empirical(()),
    ],
)
def test_invalid_parameters_raise(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]


def test_declarative_form() -> None:
    spec = {
        "dist": "mixture",
        "parts": [
            [0.97, {"dist": "uniform", "low": 0, "high": 1}],
            [0.03, {"dist": "uniform", "low": 1, "high": 2}],
        ],
    }
    dist = d.parse_distribution(spec)
    assert isinstance(dist, d.Mixture)
    assert dist.mean == pytest.approx(0.97 * 0.5 + 0.03 * 1.5)
    assert d.parse_distribution({"dist": "exponential", "mean": 2}) == d.Exponential(2.0)
    with pytest.raises(ValueError, match="unknown dist"):
        d.parse_distribution({"dist": "weibull"})
    with pytest.raises(ValueError, match="missing parameter"):
        d.parse_distribution({"dist": "uniform", "low": 0})


def test_same_generator_state_same_draws() -> None:
    dist = d.Lognormal(0.0, 1.0)
    a = dist.sample(np.random.default_rng(3), 100)
    b = dist.sample(np.random.default_rng(3), 100)
    assert np.array_equal(a, b)


def test_empirical_from_a_dataset() -> None:
    data = {"svc": np.array([0.1, 0.2, 0.3])}
    dist = d.parse_distribution({"dist": "empirical", "dataset": "svc"}, data)
    assert dist.mean == pytest.approx(0.2)
    assert set(dist.sample(np.random.default_rng(0), 50)) <= {0.1, 0.2, 0.3}
    with pytest.raises(ValueError, match="unknown dataset"):
        d.parse_distribution({"dist": "empirical", "dataset": "nope"}, data)
