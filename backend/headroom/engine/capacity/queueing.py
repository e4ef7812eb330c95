"""Closed forms for the M/M/c FCFS queue (Erlang C), vectorised over the arrival rate.

All functions take the arrival rate `rate_per_s` as a scalar or an array, the service
rate of one server `mu_per_s` and the number of servers `c`. Unstable loads
(rate >= c * mu) give `inf` latencies.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
_BISECT_STEPS = 64


def _check(mu_per_s: float, c: int) -> None:
    if not mu_per_s > 0:
        raise ValueError(f"mu_per_s must be > 0, got {mu_per_s}")
    if c < 1:
        raise ValueError(f"c must be >= 1, got {c}")


def erlang_c(rate_per_s: ArrayLike, mu_per_s: float, c: int) -> FloatArray:
    """Probability that an arrival waits (Erlang C); 1 at or above saturation."""
    _check(mu_per_s, c)
    a = np.asarray(rate_per_s, dtype=np.float64) / mu_per_s
    blocking = np.ones_like(a)
    for k in range(1, c + 1):  # stable Erlang-B recurrence, loop over servers only
        blocking = a * blocking / (k + a * blocking)
    rho = a / c
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = blocking / (1.0 - rho * (1.0 - blocking))
    return np.where(rho >= 1.0, 1.0, wait)


def mean_response_s(rate_per_s: ArrayLike, mu_per_s: float, c: int) -> FloatArray:
    """E[T] = 1/mu + C(c, a) / (c mu - lambda)."""
    lam = np.asarray(rate_per_s, dtype=np.float64)
    theta = c * mu_per_s - lam
    with np.errstate(divide="ignore"):
        mean = 1.0 / mu_per_s + erlang_c(lam, mu_per_s, c) / theta
    return np.where(theta > 0, mean, np.inf)


def _survival(
    t: FloatArray, lam: FloatArray, mu: float, c: int, wait_prob: FloatArray
) -> FloatArray:
    theta = np.maximum(c * mu - lam, 1e-300)
    diff = theta - mu
    close = np.abs(diff) < 1e-9 * mu
    safe_diff = np.where(close, 1.0, diff)
    hypo = (theta * np.exp(-mu * t) - mu * np.exp(-theta * t)) / safe_diff
    hypo = np.where(close, (1.0 + mu * t) * np.exp(-mu * t), hypo)
    return (1.0 - wait_prob) * np.exp(-mu * t) + wait_prob * hypo


def response_survival(t_s: ArrayLike, rate_per_s: ArrayLike, mu_per_s: float, c: int) -> FloatArray:
    """P(T > t) for the response time T = wait + service of M/M/c FCFS.

    The wait is 0 with probability 1 - C and Exp(theta), theta = c mu - lambda, otherwise;
    the service is Exp(mu); the sum of the two exponentials is hypoexponential.
    """
    t = np.asarray(t_s, dtype=np.float64)
    lam = np.asarray(rate_per_s, dtype=np.float64)
    return _survival(t, lam, mu_per_s, c, erlang_c(lam, mu_per_s, c))


def response_quantile_s(
    rate_per_s: ArrayLike, mu_per_s: float, c: int, percentile: float
) -> FloatArray:
    """The `percentile` (0-100) of the M/M/c response time, by vectorised bisection."""
    _check(mu_per_s, c)
    tail = 1.0 - percentile / 100.0
    lam = np.atleast_1d(np.asarray(rate_per_s, dtype=np.float64))
    theta = c * mu_per_s - lam
    stable = theta > 0
    slowest = np.minimum(np.where(stable, theta, 1.0), mu_per_s)
    lo = np.zeros_like(lam)
    hi = 2.0 * np.log(2.0 / tail) / slowest  # P(A + B > hi) <= tail for any A, B here
    wait_prob = erlang_c(lam, mu_per_s, c)
    for _ in range(_BISECT_STEPS):
        mid = 0.5 * (lo + hi)
        above = _survival(mid, lam, mu_per_s, c, wait_prob) > tail
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    out = np.where(stable, 0.5 * (lo + hi), np.inf)
    return out.reshape(np.shape(rate_per_s))


def max_rate_per_s(threshold_s: float, mu_per_s: float, c: int, percentile: float) -> float:
    """Erlang-C inversion: the largest lambda whose response-time percentile is <= T."""
    cap = c * mu_per_s
    if float(response_quantile_s(0.0, mu_per_s, c, percentile)) > threshold_s:
        return 0.0
    lo, hi = 0.0, cap
    for _ in range(_BISECT_STEPS):
        mid = 0.5 * (lo + hi)
        if float(response_quantile_s(mid, mu_per_s, c, percentile)) <= threshold_s:
            lo = mid
        else:
            hi = mid
    return lo


def power_maximiser_per_s(mu_per_s: float, c: int, grid: int = 20001) -> float:
    """The arrival rate maximising the power ratio lambda / E[T] (M/M/1: mu / 2)."""
    lam = np.linspace(0.0, c * mu_per_s, grid)[1:-1]
    power = lam / mean_response_s(lam, mu_per_s, c)
    return float(lam[int(np.argmax(power))])
