"""Universal Scalability Law: X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1))."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.linalg import solve

FloatArray = NDArray[np.float64]
_KAPPA_ZERO = 1e-9
MAX_STEPS = 2000
MAX_DAMPING = 1e16


@dataclass(frozen=True)
class UslFit:
    lambda_per_s: float  # throughput of one request alone (the slope at N = 1)
    sigma: float  # contention
    kappa: float  # coherency
    n_star: float | None  # concurrency of peak throughput; None when kappa = 0 (no peak)
    peak_throughput_per_s: float  # X(n_star), or the asymptote lambda / sigma
    rmse_per_s: float

    def throughput_per_s(self, n: FloatArray) -> FloatArray:
        return usl_throughput(n, self.lambda_per_s, self.sigma, self.kappa)


def usl_throughput(n: FloatArray, lam: float, sigma: float, kappa: float) -> FloatArray:
    n = np.asarray(n, dtype=np.float64)
    return lam * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))


def _peak(lam: float, sigma: float, kappa: float) -> tuple[float | None, float]:
    if kappa <= _KAPPA_ZERO:  # a solver's round-off, not coherency: no peak
        return None, (lam / sigma if sigma > 0 else math.inf)
    n_star = math.sqrt(max(1.0 - sigma, 0.0) / kappa)
    n_star = max(n_star, 1.0)
    return n_star, float(usl_throughput(np.array(n_star), lam, sigma, kappa))


@njit(cache=True)
def _residuals(n: FloatArray, x: FloatArray, p: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Model minus data, and the Jacobian of the model in (lambda, sigma, kappa)."""
    m = n.size
    r, jac = np.empty(m), np.empty((m, 3))
    for i in range(m):
        d = 1.0 + p[1] * (n[i] - 1.0) + p[2] * n[i] * (n[i] - 1.0)
        value = p[0] * n[i] / d
        r[i] = value - x[i]
        jac[i, 0] = n[i] / d
        jac[i, 1] = -value * (n[i] - 1.0) / d
        jac[i, 2] = -value * n[i] * (n[i] - 1.0) / d
    return r, jac


@njit(cache=True)
def _cost(r: FloatArray) -> float:
    total = 0.0
    for v in r:
        total += v * v
    return total


@njit(cache=True)
def _step(jac: FloatArray, r: FloatArray, p: FloatArray, damping: float) -> FloatArray:
    """The damped Gauss-Newton step on columns scaled to unit norm; a parameter at its
    bound of 0 whose descent would cross it stays put."""
    k = p.size
    scale, grad = np.ones(k), np.zeros(k)
    for j in range(k):
        total = 0.0
        for i in range(r.size):
            total += jac[i, j] * jac[i, j]
            grad[j] += jac[i, j] * r[i]
        if total > 0.0:
            scale[j] = math.sqrt(total)
    normal, rhs = np.zeros((k, k)), np.zeros(k)
    for a in range(k):
        held = p[a] == 0.0 and grad[a] > 0.0
        rhs[a] = 0.0 if held else -grad[a] / scale[a]
        for b in range(k):
            if held or (p[b] == 0.0 and grad[b] > 0.0):
                normal[a, b] = 1.0 if a == b else 0.0
                continue
            total = 0.0
            for i in range(r.size):
                total += jac[i, a] * jac[i, b]
            normal[a, b] = total / (scale[a] * scale[b])
        if not held:
            normal[a, a] += damping
    return solve(normal, rhs) / scale


@njit(cache=True)
def _levenberg_marquardt(n: FloatArray, x: FloatArray, p0: FloatArray) -> FloatArray:
    """Least squares of the USL with every parameter >= 0 (steps projected onto the
    bounds), in plain loops: the same fit on every CPU, where a LAPACK-based solver
    follows the BLAS kernel the CPU selects."""
    p = p0.copy()
    r, jac = _residuals(n, x, p)
    cost, damping = _cost(r), 1e-3
    for _ in range(MAX_STEPS):
        delta = _step(jac, r, p, damping)
        trial = np.maximum(p + delta, 0.0)
        trial_r, trial_jac = _residuals(n, x, trial)
        trial_cost = _cost(trial_r)
        if trial_cost < cost:
            moved = np.abs(trial - p).max() > 0.0
            p, r, jac, cost = trial, trial_r, trial_jac, trial_cost
            damping = max(damping / 10.0, 1e-12)
            if not moved:
                break
        else:
            damping *= 10.0
            if damping > MAX_DAMPING:
                break
    return p


def fit_usl(n: FloatArray, throughput_per_s: FloatArray) -> UslFit:
    """Non-linear least squares with lambda, sigma, kappa >= 0."""
    n = np.asarray(n, dtype=np.float64)
    x = np.asarray(throughput_per_s, dtype=np.float64)
    keep = (n > 0) & np.isfinite(x)
    n, x = n[keep], x[keep]
    if n.size < 3:
        raise ValueError(f"the USL fit needs at least 3 concurrency levels, got {n.size}")
    lam0 = float(np.max(x / n))
    lam, sigma, kappa = _levenberg_marquardt(n, x, np.array([lam0, 0.05, 0.001]))
    if not math.isfinite(lam + sigma + kappa):
        raise RuntimeError("the USL fit found no finite parameters")
    n_star, peak = _peak(float(lam), float(sigma), float(kappa))
    resid = x - usl_throughput(n, lam, sigma, kappa)
    return UslFit(
        lambda_per_s=float(lam),
        sigma=float(sigma),
        kappa=float(kappa),
        n_star=n_star,
        peak_throughput_per_s=peak,
        rmse_per_s=float(np.sqrt(np.mean(resid**2))),
    )
