"""A lognormal body with a Pareto tail, for sizes (docs/methods/workload.md, "Distribution
fitting").

Density: (1 - p) * lognormal(mu, sigma) truncated to (0, k) below the split k, and
p * Pareto(alpha, k) above it. For a given k the MLE is p = share above k, alpha =
n_tail / sum(log(x / k)) and (mu, sigma) of the truncated lognormal (numerical); k is
the candidate (a sample quantile between the 50th and 98th percentile) with the highest
likelihood. AIC counts five parameters (mu, sigma, alpha, p, k).

The simulator's form is the mixture ``[[1 - p, lognormal], [p, pareto]]``, whose
lognormal part is not truncated: it puts ``(1 - p) * P(LN > k)`` of extra mass above k,
small when the split sits in the lognormal's upper tail. :attr:`BodyTailFit.simulable`
holds when that extra mass is at most ``MAX_BODY_EXCESS``; on light-tailed values the
truncated body's density rises up to k and the untruncated form would draw mostly far
above the data (uniform 100..90,000 bytes: 99.8% of the body above the split).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, special, stats

F64 = NDArray[np.float64]
SPLIT_QUANTILES = np.linspace(0.5, 0.98, 25)
MIN_SIDE = 10
MAX_BODY_EXCESS = 0.25  # the spec's HTML sizes: 5.5%


@dataclass(frozen=True)
class BodyTailFit:
    mu: float
    sigma: float
    alpha: float
    split: float
    tail_fraction: float
    loglik: float
    aic: float
    ks: float
    n: int

    @property
    def body_excess(self) -> float:
        """P(LN > split) of the untruncated body: mass the simulator's form misplaces."""
        return float(stats.lognorm(s=self.sigma, scale=math.exp(self.mu)).sf(self.split))

    @property
    def simulable(self) -> bool:
        return self.body_excess <= MAX_BODY_EXCESS

    def spec(self) -> dict[str, Any]:
        p = self.tail_fraction
        body = {"dist": "lognormal", "mu": self.mu, "sigma": self.sigma}
        tail = {"dist": "pareto", "alpha": self.alpha, "scale": self.split}
        return {"dist": "mixture", "parts": [[1 - p, body], [p, tail]]}

    def cdf(self, x: F64) -> F64:
        body = stats.lognorm(s=self.sigma, scale=math.exp(self.mu))
        p, k = self.tail_fraction, self.split
        below = (1 - p) * body.cdf(np.minimum(x, k)) / body.cdf(k)
        above = (1 - p) + p * (1 - (k / np.maximum(x, k)) ** self.alpha)
        return np.where(x < k, below, above)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "sim": self.spec()}


def _truncated_lognormal(body: F64, k: float) -> tuple[float, float, float]:
    """(mu, sigma, loglik) of a lognormal truncated to (0, k); the likelihood depends on
    the data only through n, sum(log x) and sum(log x ** 2)."""
    logs = np.log(body)
    n, s1, s2, lk = len(logs), float(logs.sum()), float(np.square(logs).sum()), math.log(k)

    def nll(t: F64) -> float:
        mu, sigma = float(t[0]), math.exp(float(t[1]))
        squares = s2 - 2 * mu * s1 + n * mu * mu
        ll = -n * (0.5 * math.log(2 * math.pi) + math.log(sigma)) - squares / (2 * sigma**2)
        # special.log_ndtr is what stats.norm.logcdf computes, without its per-call checks
        return -(ll - s1 - n * float(special.log_ndtr((lk - mu) / sigma)))

    lo = float(logs.min())
    # bounded: a body whose log-density rises up to k would push mu to +inf
    bounds = [(lo - 10.0, lk + 10.0), (math.log(1e-3), math.log(19.0))]
    sd = min(max(float(logs.std()), 2e-3), 18.0)
    start = np.array([min(max(s1 / n, lo - 9.0), lk + 9.0), math.log(sd)])
    res = optimize.minimize(
        nll, start, method="Nelder-Mead", bounds=bounds, options={"xatol": 1e-9, "fatol": 1e-10}
    )
    return float(res.x[0]), math.exp(float(res.x[1])), -float(res.fun)


def _at_split(x: F64, k: float) -> tuple[float, ...] | None:
    body, tail = x[x < k], x[x >= k]
    total = float(np.log(tail / k).sum())
    if len(body) < MIN_SIDE or len(tail) < MIN_SIDE or total <= 0 or np.ptp(body) == 0:
        return None
    n, p = len(x), len(tail) / len(x)
    alpha = len(tail) / total
    mu, sigma, ll_body = _truncated_lognormal(body, k)
    # in log space: k ** alpha overflows for the large alpha of a light tail
    log_k = math.log(k)
    ll_tail = len(tail) * (math.log(alpha) + alpha * log_k) - (alpha + 1) * float(
        np.log(tail).sum()
    )
    ll = ll_body + ll_tail + len(body) * math.log(1 - p) + len(tail) * math.log(p)
    return mu, sigma, alpha, k, p, ll, float(n)


def fit_body_tail(values: F64) -> BodyTailFit | None:
    """The splice with the split of highest likelihood; None when no split qualifies.

    Fitted on values divided by their median (so sums and powers stay finite at any
    magnitude), then rescaled: mu + log(ref), split * ref, loglik - n log(ref)."""
    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x) & (x > 0)]
    if len(x) < 2 * MIN_SIDE:
        return None
    ref = float(np.median(x))
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        y = x / ref
        y = y[np.isfinite(y) & (y > 0)]
        if len(y) < 2 * MIN_SIDE:
            return None
        splits = np.unique(np.quantile(y, SPLIT_QUANTILES))
        results = [r for k in splits if (r := _at_split(y, float(k))) is not None]
        results = [r for r in results if all(math.isfinite(v) for v in r)]
        if not results:
            return None
        mu, sigma, alpha, k, p, ll, n = max(results, key=lambda r: r[5])
        fit = BodyTailFit(mu, sigma, alpha, k, p, ll, 0.0, 0.0, int(n))
        xs = np.sort(y)
        f = fit.cdf(xs)
    i = np.arange(1, len(xs) + 1)
    ks = float(max(np.max(i / len(xs) - f), np.max(f - (i - 1) / len(xs))))
    log_ref = math.log(ref)
    ll = ll - n * log_ref
    out = (mu + log_ref, sigma, alpha, k * ref, p, ll, 10 - 2 * ll, ks)
    if not all(math.isfinite(v) for v in out):
        return None
    return BodyTailFit(*out, int(n))
