"""Universal Scalability Law: X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1))."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import curve_fit

FloatArray = NDArray[np.float64]
_KAPPA_ZERO = 1e-9


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


def fit_usl(n: FloatArray, throughput_per_s: FloatArray) -> UslFit:
    """Non-linear least squares with lambda, sigma, kappa >= 0."""
    n = np.asarray(n, dtype=np.float64)
    x = np.asarray(throughput_per_s, dtype=np.float64)
    keep = (n > 0) & np.isfinite(x)
    n, x = n[keep], x[keep]
    if n.size < 3:
        raise ValueError(f"the USL fit needs at least 3 concurrency levels, got {n.size}")
    lam0 = float(np.max(x / n))
    (lam, sigma, kappa), _ = curve_fit(
        usl_throughput,
        n,
        x,
        p0=(lam0, 0.05, 0.001),
        bounds=([0.0, 0.0, 0.0], [np.inf, np.inf, np.inf]),
        maxfev=20_000,
    )
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
