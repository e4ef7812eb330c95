"""Distribution fitting (docs/methods/workload.md, "Distribution fitting").

Maximum likelihood over lognormal, Pareto (type I), exponential, Weibull, gamma and
inverse Gaussian (all with location 0); the choice by AIC; the Kolmogorov-Smirnov
distance of each fit; 95% confidence intervals from the observed information (the
numerical Hessian of the log-likelihood at the MLE), except the Pareto scale, whose MLE
is the sample minimum (min/scale ~ Pareto(n alpha), an exact interval). Bootstrap
intervals with an explicit Generator: :func:`bootstrap_ci`. Zeros (e.g. gaps at a log's
1 s resolution) are split off as ``zero_fraction`` and the positive values are fitted.

Every family is fitted to the values divided by their median (maximum likelihood is
scale-equivariant), so sums and powers stay finite at any magnitude; its parameters are
then rescaled. Each family is fitted on its own: one that fails or gives a non-finite
parameter is left out with its reason in ``not_fitted``. A quantity that cannot be fitted
at all (too few values, too few distinct values, all within 2% of each other) gets an
empirical or constant form for the simulator and its ``reason`` in words.

Parameters, by family (the simulator's names where it has the family):
lognormal ``mu, sigma`` (of the underlying normal); pareto ``alpha, scale`` (P(X > x) =
(scale/x)^alpha); exponential ``mean``; weibull ``shape, scale``; gamma ``shape, scale``;
inverse_gaussian ``mean, shape`` (the spec's mu and lambda).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, stats

from headroom.engine.linalg import inverse

from .bodytail import BodyTailFit, fit_body_tail

F64 = NDArray[np.float64]
FAMILIES = ("lognormal", "pareto", "exponential", "weibull", "gamma", "inverse_gaussian")
SIM_FAMILIES = ("lognormal", "pareto", "exponential")  # the simulator's parametric dists
MIN_FIT_N = 20
MIN_DISTINCT = 3
MIN_SPREAD = 0.02  # max / min - 1 below this: no shape to fit
# per family, the parameters in the values' unit (multiplied by the scale of the values)
SCALE_PARAMS = {
    "pareto": ("scale",),
    "exponential": ("mean",),
    "weibull": ("scale",),
    "gamma": ("scale",),
    "inverse_gaussian": ("mean", "shape"),
}
MAX_FIT_N = 50_000
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Fit:
    dist: str
    params: dict[str, float]
    se: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    loglik: float
    aic: float
    ks: float
    n: int

    def spec(self) -> dict[str, Any]:
        """The declarative form, ``{dist: lognormal, mu: .., sigma: ..}``."""
        return {"dist": self.dist, **self.params}

    def to_dict(self) -> dict[str, Any]:
        return {
            "dist": self.dist,
            "params": dict(self.params),
            "se": dict(self.se),
            "ci95": {k: list(v) for k, v in self.ci95.items()},
            "aic": self.aic,
            "ks": self.ks,
            "loglik": self.loglik,
            "n": self.n,
        }


@dataclass(frozen=True)
class Bound:
    """A scipy.stats family with its parameters bound: the frozen distribution's
    ``logpdf``, ``pdf``, ``cdf`` and ``rvs`` (the same calls), without the new distribution
    instance (docstring included) scipy builds for each frozen one."""

    family: Any
    kwds: dict[str, float]

    def logpdf(self, x: ArrayLike) -> Any:
        return self.family.logpdf(x, **self.kwds)

    def pdf(self, x: ArrayLike) -> Any:
        return self.family.pdf(x, **self.kwds)

    def cdf(self, x: ArrayLike) -> Any:
        return self.family.cdf(x, **self.kwds)

    def rvs(self, size: Any = 1, random_state: Any = None) -> Any:
        return self.family.rvs(size=size, random_state=random_state, **self.kwds)


def frozen(dist: str, params: dict[str, float]) -> Bound:
    """The scipy.stats distribution of a family in our parameters."""
    p = params
    if dist == "lognormal":
        return Bound(stats.lognorm, {"s": p["sigma"], "scale": math.exp(p["mu"])})
    if dist == "pareto":
        return Bound(stats.pareto, {"b": p["alpha"], "scale": p["scale"]})
    if dist == "exponential":
        return Bound(stats.expon, {"scale": p["mean"]})
    if dist == "weibull":
        return Bound(stats.weibull_min, {"c": p["shape"], "scale": p["scale"]})
    if dist == "gamma":
        return Bound(stats.gamma, {"a": p["shape"], "scale": p["scale"]})
    if dist == "inverse_gaussian":
        return Bound(stats.invgauss, {"mu": p["mean"] / p["shape"], "scale": p["shape"]})
    raise ValueError(f"unknown family {dist!r}; one of {FAMILIES}")


def _mle_lognormal(x: F64) -> dict[str, float]:
    logs = np.log(x)
    return {"mu": float(logs.mean()), "sigma": float(logs.std())}


def _mle_pareto(x: F64) -> dict[str, float]:
    scale = float(x.min())
    total = float(np.log(x / scale).sum())
    return {"alpha": len(x) / total if total > 0 else math.inf, "scale": scale}


def _mle_inverse_gaussian(x: F64) -> dict[str, float]:
    mean = float(x.mean())
    return {"mean": mean, "shape": 1.0 / float(np.mean(1.0 / x - 1.0 / mean))}


def _mle_weibull(x: F64) -> dict[str, float]:
    """The shape solves the profile-likelihood equation (increasing in the shape);
    values are divided by their median first so that y ** shape stays finite."""
    ref = float(np.median(x))
    logs = np.log(x / ref)
    mean_log = float(logs.mean())

    def score(k: float) -> float:
        w = np.exp(k * (logs - logs.max()))
        return float(np.sum(w * logs) / np.sum(w)) - 1.0 / k - mean_log

    lo, hi = 1e-3, 1.0
    while score(hi) < 0 and hi < 1e4:
        hi *= 4
    shape = float(optimize.brentq(score, lo, hi, xtol=1e-12))
    scale = ref * float(np.mean(np.exp(shape * logs))) ** (1 / shape)
    return {"shape": shape, "scale": scale}


def _mle_gamma(x: F64) -> dict[str, float]:
    a, _, scale = stats.gamma.fit(x, floc=0)
    return {"shape": float(a), "scale": float(scale)}


_MLE: dict[str, Callable[[F64], dict[str, float]]] = {
    "lognormal": _mle_lognormal,
    "pareto": _mle_pareto,
    "exponential": lambda x: {"mean": float(x.mean())},
    "weibull": _mle_weibull,
    "gamma": _mle_gamma,
    "inverse_gaussian": _mle_inverse_gaussian,
}


def loglik(dist: str, params: dict[str, float], x: F64) -> float:
    return float(np.sum(frozen(dist, params).logpdf(x)))


def _free(dist: str, params: dict[str, float]) -> list[str]:
    """Parameters with a smooth likelihood (not the Pareto scale, a support bound)."""
    return [k for k in params if not (dist == "pareto" and k == "scale")]


def _hessian(f: Callable[[F64], float], theta: F64, floor: F64 | None = None) -> F64:
    """Central-difference Hessian with relative steps (at least 1e-4 * floor). Each
    distinct point is evaluated once: on the diagonal, theta + h - h and theta - h + h
    are mostly theta itself, bit for bit."""
    f = _memoized(f)
    k = len(theta)
    h = 1e-4 * np.maximum(np.abs(theta), 1e-3 if floor is None else floor)
    out = np.empty((k, k))
    for i in range(k):
        for j in range(i, k):
            ei, ej = np.eye(k)[i] * h[i], np.eye(k)[j] * h[j]
            val = (
                f(theta + ei + ej) - f(theta + ei - ej) - f(theta - ei + ej) + f(theta - ei - ej)
            ) / (4 * h[i] * h[j])
            out[i, j] = out[j, i] = val
    return out


def _memoized(f: Callable[[F64], float]) -> Callable[[F64], float]:
    values: dict[bytes, float] = {}

    def at(point: F64) -> float:
        key = point.tobytes()
        if key not in values:
            values[key] = f(point)
        return values[key]

    return at


def standard_errors(dist: str, params: dict[str, float], x: F64) -> dict[str, float]:
    """From the observed information: the inverse of minus the log-likelihood's Hessian."""
    names = _free(dist, params)
    theta = np.array([params[k] for k in names])

    def ll(t: F64) -> float:
        return loglik(dist, {**params, **dict(zip(names, t.tolist(), strict=True))}, x)

    # a location near 0 (mu of values scaled to their median) has the step of its spread
    floor = np.array([params.get("sigma", 1e-3) if k == "mu" else 1e-3 for k in names])
    try:
        cov = inverse(-_hessian(ll, theta, floor))
        se = {k: math.sqrt(cov[i, i]) if cov[i, i] > 0 else math.nan for i, k in enumerate(names)}
    except ZeroDivisionError:  # a singular Hessian
        se = dict.fromkeys(names, math.nan)
    if dist == "pareto":
        se["scale"] = params["scale"] / (len(x) * params["alpha"])
    return se


def _ci95(dist: str, params: dict[str, float], se: dict[str, float], n: int) -> dict[str, Any]:
    ci = {k: (params[k] - Z95 * se[k], params[k] + Z95 * se[k]) for k in se}
    if dist == "pareto":  # scale_hat / scale ~ Pareto(n alpha): an exact interval
        m = n * params["alpha"]
        s = params["scale"]
        ci["scale"] = (s * 0.025 ** (1 / m), s * 0.975 ** (1 / m))
    return ci


def ks_distance(cdf: Callable[[F64], F64], x: F64) -> float:
    xs = np.sort(x)
    f = cdf(xs)
    n = len(xs)
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - f), np.max(f - (i - 1) / n)))


class FitError(ValueError):
    """A family that cannot be fitted to these values (the message says why)."""


def fit_family(dist: str, x: ArrayLike) -> Fit:
    """The MLE of one family on positive values, with its AIC, KS distance and CIs;
    computed on the values divided by their median, then rescaled."""
    arr = np.asarray(x, dtype=np.float64)
    n = len(arr)
    ref = float(np.median(arr))
    with np.errstate(all="ignore"):
        y = arr / ref
        if not np.all(np.isfinite(y) & (y > 0)):
            raise FitError("the values span more than the floating-point range")
        params = _MLE[dist](y)
        if not all(math.isfinite(v) for v in params.values()):
            raise FitError(f"the maximum-likelihood {dist} parameters are not finite")
        ll = loglik(dist, params, y) - n * math.log(ref)
        se = standard_errors(dist, params, y)
        ks = ks_distance(frozen(dist, params).cdf, y)
    params, se = _rescaled(dist, params, ref), _rescaled(dist, se, ref, se=True)
    if not all(math.isfinite(v) for v in (*params.values(), ll, ks)):
        raise FitError(f"the {dist} fit overflows at these values' magnitude")
    return Fit(
        dist=dist,
        params=params,
        se=se,
        ci95=_ci95(dist, params, se, n),
        loglik=ll,
        aic=2 * len(params) - 2 * ll,
        ks=ks,
        n=n,
    )


def _rescaled(
    dist: str, values: dict[str, float], ref: float, se: bool = False
) -> dict[str, float]:
    """Parameters (or their standard errors) of values scaled by 1/ref, in the values'
    unit: scale parameters times ref, the lognormal mu plus log(ref) (its se unchanged)."""
    out = {k: v * ref if k in SCALE_PARAMS.get(dist, ()) else v for k, v in values.items()}
    if "mu" in out and not se:
        out["mu"] += math.log(ref)
    return out


def bootstrap_ci(
    dist: str, x: ArrayLike, rng: np.random.Generator, n_boot: int = 200, level: float = 0.95
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of the MLE (resampling x with replacement)."""
    arr = np.asarray(x, dtype=np.float64)
    draws = [_MLE[dist](rng.choice(arr, size=len(arr))) for _ in range(n_boot)]
    lo, hi = (1 - level) / 2 * 100, (1 + level) / 2 * 100
    return {
        k: (float(np.percentile(v, lo)), float(np.percentile(v, hi)))
        for k in draws[0]
        for v in [np.array([d[k] for d in draws])]
    }


def simulable(fit: Fit) -> bool:
    """A family the simulator draws, with parameters its schema accepts."""
    finite = all(math.isfinite(v) for v in fit.params.values())
    sigma_ok = fit.params.get("sigma", 0.0) < 20
    positive = all(v > 0 for k, v in fit.params.items() if k != "mu")
    return fit.dist in SIM_FAMILIES and finite and sigma_ok and positive


@dataclass(frozen=True)
class FitReport:
    """All candidate fits of one quantity, the AIC choice, and the simulator's form."""

    n: int
    zero_fraction: float
    candidates: tuple[Fit, ...]
    body_tail: BodyTailFit | None = None
    fallback: dict[str, Any] | None = field(default=None)
    sample: tuple[float, ...] = field(default=(), repr=False)
    reason: str | None = None  # why no family was fitted, in words
    not_fitted: dict[str, str] = field(default_factory=dict)  # family -> why it was left out

    @property
    def fitted(self) -> bool:
        return bool(self.candidates)

    @property
    def best(self) -> Fit | None:
        return min(self.candidates, key=lambda f: f.aic) if self.candidates else None

    def sim_spec(self) -> dict[str, Any]:
        """The best fit the simulator can draw (lognormal, Pareto, exponential, or the
        body-tail mixture), with zeros as a ``constant 0`` part of a mixture."""
        if self.fallback is not None:
            return self.fallback
        usable: list[tuple[float, dict[str, Any]]] = [
            (f.aic, f.spec()) for f in self.candidates if simulable(f)
        ]
        if self.body_tail is not None and self.body_tail.simulable:
            usable.append((self.body_tail.aic, self.body_tail.spec()))
        fallback = {"dist": "empirical", "values": list(self.sample)}
        spec = min(usable, key=lambda t: t[0])[1] if usable else fallback
        if self.zero_fraction <= 0:
            return spec
        z = self.zero_fraction
        return {
            "dist": "mixture",
            "parts": [[z, {"dist": "constant", "value": 0.0}], [1 - z, spec]],
        }

    def to_dict(self) -> dict[str, Any]:
        """The CLI contract's ``{dist, params, aic, ks}`` plus the details."""
        best = self.best
        head: dict[str, Any] = (
            {"dist": best.dist, "params": best.params, "aic": best.aic, "ks": best.ks}
            if best
            else {"dist": None, "params": {}, "aic": None, "ks": None}
        )
        return {
            **head,
            "n": self.n,
            "zero_fraction": self.zero_fraction,
            "ci95": {k: list(v) for k, v in best.ci95.items()} if best else {},
            "candidates": [f.to_dict() for f in self.candidates],
            "body_tail": self.body_tail.to_dict() if self.body_tail else None,
            "sim": self.sim_spec(),
            "reason": self.reason,
            "not_fitted": dict(self.not_fitted),
        }


def fit_distribution(
    values: ArrayLike,
    *,
    body_tail: bool = False,
    rng: np.random.Generator | None = None,
    max_n: int = MAX_FIT_N,
) -> FitReport:
    """Fit every family to the positive, finite values (a uniform subsample of ``max_n``
    drawn with ``rng`` when there are more); ``body_tail`` adds the lognormal-Pareto
    splice. Values that cannot be fitted give an empirical (or constant) fallback and the
    reason; a family that fails is left out (``not_fitted``) and the others are kept."""
    arr = np.asarray(values, dtype=np.float64)
    arr = arr[np.isfinite(arr) & (arr >= 0)]
    n = len(arr)
    pos = arr[arr > 0]
    zero = _zero_fraction(n, len(pos))
    reason = unfittable(pos, n)
    if reason is not None:
        return FitReport(n, zero, (), None, _fallback(arr), reason=reason)
    if len(pos) > max_n:
        pos = (rng or np.random.default_rng(0)).choice(pos, size=max_n, replace=False)
    return _fit_positive(pos, n, zero, arr, body_tail)


def fit_sample(sample: ArrayLike, n: int, zeros: int, *, body_tail: bool = False) -> FitReport:
    """:func:`fit_distribution` of ``n`` values (``zeros`` of them 0) known by a uniform
    sample of their positive values (all of them when there are at most ``MAX_FIT_N``,
    so the fit is then the one-pass fit): the map/reduce characterization's fits."""
    pos = np.asarray(sample, dtype=np.float64)
    arr = np.concatenate([np.zeros(min(zeros, 1000)), pos])
    zero = _zero_fraction(n, n - zeros)
    reason = unfittable(pos, n)
    if reason is not None:
        return FitReport(n, zero, (), None, _fallback(arr), reason=reason)
    return _fit_positive(pos, n, zero, arr, body_tail)


def _zero_fraction(n: int, positive: int) -> float:
    return 1 - positive / n if n else 0.0


def _fit_positive(pos: F64, n: int, zero: float, arr: F64, body_tail: bool) -> FitReport:
    fits: list[Fit] = []
    failed: dict[str, str] = {}
    for dist in FAMILIES:
        try:
            fits.append(fit_family(dist, pos))
        except (ValueError, ArithmeticError, RuntimeError, np.linalg.LinAlgError) as exc:
            failed[dist] = str(exc) if isinstance(exc, FitError) else _why(dist, exc)
    tail = _body_tail(pos, failed) if body_tail else None
    sample = tuple(float(v) for v in pos[:1000])
    if not fits:
        why = "no family could be fitted (" + "; ".join(f"{d}: {r}" for d, r in failed.items())
        return FitReport(n, zero, (), tail, _fallback(arr), sample, why + ")", failed)
    return FitReport(n, zero, tuple(fits), tail, sample=sample, not_fitted=failed)


def not_fitted(values: ArrayLike, reason: str) -> FitReport:
    """The typed result of a fit that could not be made: the simulator's fallback form."""
    arr = np.asarray(values, dtype=np.float64)
    arr = arr[np.isfinite(arr) & (arr >= 0)]
    zero = float(np.mean(arr == 0)) if len(arr) else 0.0
    return FitReport(len(arr), zero, (), None, _fallback(arr), reason=reason)


def unfittable(pos: F64, n: int) -> str | None:
    """Why these positive values (of n, zeros included) cannot be fitted, or None."""
    if len(pos) == 0:
        return "no values" if n == 0 else f"all {n:,} values are zero"
    if len(pos) < MIN_FIT_N:
        return f"only {_count(len(pos))} (a fit needs at least {MIN_FIT_N})"
    distinct = np.unique(pos)
    if distinct.size == 1:
        return f"{len(pos):,} values, all equal to {float(distinct[0]):g}"
    if distinct.size < MIN_DISTINCT:
        return f"{len(pos):,} values but only {distinct.size} distinct ones"
    lo, hi = float(distinct[0]), float(distinct[-1])
    if hi / lo - 1 < MIN_SPREAD:
        return f"{len(pos):,} values but all within {MIN_SPREAD:.0%} of each other"
    return None


def _count(k: int) -> str:
    return "1 positive value" if k == 1 else f"{k:,} positive values"


def _why(dist: str, exc: BaseException) -> str:
    return f"the {dist} maximum-likelihood search failed on these values ({exc})"


def _body_tail(pos: F64, failed: dict[str, str]) -> BodyTailFit | None:
    try:
        tail = fit_body_tail(pos)
    except (ValueError, ArithmeticError, RuntimeError) as exc:
        failed["body_tail"] = _why("body-tail", exc)
        return None
    if tail is None:
        failed["body_tail"] = "no split leaves 10 values on each side with a spread in both"
    return tail


def _fallback(arr: F64) -> dict[str, Any]:
    if len(arr) == 0:
        return {"dist": "constant", "value": 0.0}
    if np.unique(arr).size == 1:
        return {"dist": "constant", "value": float(arr[0])}
    return {"dist": "empirical", "values": [float(v) for v in arr[:1000]]}
