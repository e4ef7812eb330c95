"""Erlang C / M/M/c closed forms against textbook values and a simulated queue."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity import queueing as q
from headroom.engine.capacity import synth


def test_erlang_c_textbook_values() -> None:
    # c = 1: P(wait) = rho; c = 2, a = 1: C = 1/3 (Kleinrock vol. 1, M/M/2)
    assert q.erlang_c(0.3, 1.0, 1) == pytest.approx(0.3)
    assert q.erlang_c(1.0, 1.0, 2) == pytest.approx(1.0 / 3.0)
    # c = 3, a = 2: C = (a^c/c! * c/(c-a)) / (sum_k<c a^k/k! + that) = (8/6*3) / (1+2+2+4)
    assert q.erlang_c(2.0, 1.0, 3) == pytest.approx(4.0 / 9.0)


def test_mm1_quantile_is_exponential() -> None:
    mu, lam = 100.0, 70.0
    got = q.response_quantile_s(np.array([lam]), mu, 1, 95.0)
    assert got[0] == pytest.approx(-math.log(0.05) / (mu - lam), rel=1e-9)


def test_unstable_load_is_infinite() -> None:
    assert math.isinf(float(q.response_quantile_s(100.0, 25.0, 4, 95.0)))
    assert math.isinf(float(q.mean_response_s(120.0, 25.0, 4)))


@settings(max_examples=40, deadline=None)
@given(
    c=st.integers(1, 12),
    rho=st.floats(0.01, 0.98),
    p=st.floats(50.0, 99.9),
)
def test_quantile_inverts_survival(c: int, rho: float, p: float) -> None:
    mu = 10.0
    lam = rho * c * mu
    t = float(q.response_quantile_s(lam, mu, c, p))
    assert float(q.response_survival(t, lam, mu, c)) == pytest.approx(1 - p / 100, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(c=st.integers(1, 8), threshold_factor=st.floats(3.5, 30.0))
def test_max_rate_is_the_inverse_of_the_quantile(c: int, threshold_factor: float) -> None:
    mu = 20.0
    threshold = threshold_factor / mu  # above the zero-load p95 (about 3 / mu)
    rate = q.max_rate_per_s(threshold, mu, c, 95.0)
    assert 0 < rate < c * mu
    assert float(q.response_quantile_s(rate, mu, c, 95.0)) == pytest.approx(threshold, rel=1e-6)


def test_power_maximiser_mm1_is_half_mu() -> None:
    # lambda / E[T] = lambda (mu - lambda): maximal at mu / 2
    assert q.power_maximiser_per_s(100.0, 1) == pytest.approx(50.0, abs=0.01)


def test_closed_forms_match_a_simulated_mmc_queue() -> None:
    """Independent check: 400k requests through a FCFS M/M/4 simulation (Kiefer-Wolfowitz)
    at rho = 0.8. The p95 and mean of a stationary sample of this size are within 3%
    (standard errors are under 1% here; the margin covers autocorrelation)."""
    rng = np.random.default_rng(7)
    mu, c, lam = 25.0, 4, 80.0
    arrive = synth.poisson_arrivals_s([lam], 5000.0, rng)
    service = rng.exponential(1 / mu, arrive.size)
    latency = (synth.fcfs_departures_s(arrive, service, c) - arrive)[5000:]
    assert np.quantile(latency, 0.95) == pytest.approx(
        float(q.response_quantile_s(lam, mu, c, 95.0)), rel=0.03
    )
    assert latency.mean() == pytest.approx(float(q.mean_response_s(lam, mu, c)), rel=0.03)
