"""Poisson arrivals of consecutive periods drawn in one compiled call, with the values
and the generator stream of numpy's (arrivals.PoissonArrivals draws a period as
``rng.poisson(rate * span)`` uniform times ``rng.uniform(t0, t1, n)``).

The count follows numpy's own ``random_poisson`` (numpy/random/src/distributions/
distributions.c) operation for operation: the same double arithmetic, ``floor`` where it
floors, the same libm functions; numba's own ``Generator.poisson`` truncates where numpy
floors, so it can return another count. Every uniform is the generator's own
``next_double`` (``rng.random()``) scaled as numpy scales it: ``t0 + (t1 - t0) * u``.
test_sim_poisson.py checks counts, times and the generator's state against numpy's."""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

F64 = NDArray[np.float64]

_LOGGAM_COEFFS = np.array([
    8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
    -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
    6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
    -1.39243221690590e00,
])  # fmt: skip
_LOG_2PI = 1.8378770664093453


@njit(cache=True)
def _loggam(x: float) -> float:
    """log(Gamma(x)), numpy's ``random_loggam``."""
    if x == 1.0 or x == 2.0:
        return 0.0
    n = int(7 - x) if x < 7.0 else 0
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    gl0 = _LOGGAM_COEFFS[9]
    for k in range(8, -1, -1):
        gl0 *= x2
        gl0 += _LOGGAM_COEFFS[k]
    gl = gl0 / x0 + 0.5 * _LOG_2PI + (x0 - 0.5) * math.log(x0) - x0
    if x < 7.0:
        for _ in range(n):
            gl -= math.log(x0 - 1.0)
            x0 -= 1.0
    return gl


@njit(cache=True)
def _poisson_ptrs(rng, lam):
    """numpy's ``random_poisson_ptrs`` (transformed rejection, lam >= 10)."""
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = rng.random() - 0.5
        v = rng.random()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)) <= (
            -lam + k * loglam - _loggam(float(k + 1))
        ):
            return k


@njit(cache=True)
def _poisson_mult(rng, lam):
    """numpy's ``random_poisson_mult`` (lam < 10)."""
    enlam = math.exp(-lam)
    count, prod = 0, 1.0
    while True:
        prod *= rng.random()
        if prod > enlam:
            count += 1
        else:
            return count


@njit(cache=True)
def poisson_count(rng, lam):
    """``rng.poisson(lam)``: the same count from the same draws."""
    if lam >= 10:
        return _poisson_ptrs(rng, lam)
    if lam == 0:
        return 0
    return _poisson_mult(rng, lam)


@njit(cache=True)
def poisson_periods(rng, rate_per_s, starts, ends, limit):
    """The arrivals of the periods [starts[k], ends[k]) at ``rate_per_s``, drawn
    period after period until they number ``limit`` or more: their times (in time
    order) and each drawn period's count."""
    times = np.empty(max(limit, 16))
    counts = np.empty(len(starts), dtype=np.int64)
    total = 0
    for p in range(len(starts)):
        t0, t1 = starts[p], ends[p]
        n = poisson_count(rng, rate_per_s * (t1 - t0))
        while total + n > len(times):
            times = _grown(times, total)
        span = t1 - t0
        for i in range(total, total + n):
            times[i] = t0 + span * rng.random()
        _sort_uniform(times[total : total + n], t0, span)
        total += n
        counts[p] = n
        if total >= limit:
            return times[:total], counts[: p + 1]
    return times[:total], counts


@njit(cache=True)
def _grown(values: F64, used: int) -> F64:
    out = np.empty(2 * len(values))
    out[:used] = values[:used]
    return out


@njit(cache=True)
def _sort_uniform(values: F64, low: float, span: float) -> None:
    """Sort ``values``, drawn on [low, low + span], in place: placed by bucket of equal
    width (as many as values), then an insertion sort, which only has to order each
    bucket (uniform draws put about one value in each: linear time, where a comparison
    sort takes n log n)."""
    n = len(values)
    if n < 2:
        return
    scale = n / span
    if not math.isfinite(scale):  # a vanishingly short period: buckets cannot split it
        values.sort()
        return
    starts = np.zeros(n + 1, dtype=np.int64)
    for x in values:
        starts[_bucket(x, low, scale, n) + 1] += 1
    for b in range(n):
        starts[b + 1] += starts[b]
    placed = np.empty(n)
    for x in values:
        b = _bucket(x, low, scale, n)
        placed[starts[b]] = x
        starts[b] += 1
    for i in range(1, n):
        x, j = placed[i], i - 1
        while j >= 0 and placed[j] > x:
            placed[j + 1] = placed[j]
            j -= 1
        placed[j + 1] = x
    values[:] = placed


@njit(cache=True)
def _bucket(x: float, low: float, scale: float, n: int) -> int:
    return int(min((x - low) * scale, n - 1.0))  # clamped as a float: no int overflow
