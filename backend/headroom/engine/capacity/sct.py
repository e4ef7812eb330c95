"""Scatter-Concurrency-Throughput model of a latency trace (concurrency.md): the best
thread/connection-pool size of each server, and the USL as a second estimate."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray
from scipy import stats

from headroom.engine.capacity.usl import UslFit, fit_usl
from headroom.engine.capacity.windows import interval_counts

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
DISAGREEMENT = 0.30
MATERIAL = 0.10  # a significant middle slope is only reported when it moves TP this much
SITE = "site"


@dataclass(frozen=True)
class SctParams:
    interval_ms: float = 50.0
    window_s: float | None = 180.0  # the most recent window; None = the whole trace
    min_intervals: int = 10  # per concurrency level
    alpha: float = 0.05  # level of the slope tests

    def validate(self) -> None:
        if not self.interval_ms > 0:
            raise ValueError(f"interval_ms must be > 0, got {self.interval_ms}")
        if self.window_s is not None and not self.window_s > 0:
            raise ValueError(f"window_s must be > 0, got {self.window_s}")


@dataclass(frozen=True)
class SctLevels:
    """Per integer concurrency level: mean throughput and response time of its intervals."""

    n: IntArray
    throughput_per_s: FloatArray
    response_s: FloatArray
    intervals: IntArray


@dataclass(frozen=True)
class PiecewiseFit:
    """Continuous three-segment fit of throughput against concurrency."""

    q_lower: int  # first breakpoint
    q_upper: int  # second breakpoint (a descent only when descent_significant)
    tp_max_per_s: float
    middle_slope_per_s: float
    middle_p_value: float
    last_slope_per_s: float
    last_p_value: float
    sse: float


@dataclass(frozen=True)
class SctResult:
    server: str
    levels: SctLevels
    fit: PiecewiseFit | None
    usl: UslFit | None
    q_lower: int | None
    q_upper: int | None  # None: no descent seen, the upper bound is above the observed levels
    tp_max_per_s: float | None
    warnings: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        usl = self.usl
        return {
            "q_lower": self.q_lower,
            "q_upper": self.q_upper,
            "q_max_observed": int(self.levels.n.max()) if self.levels.n.size else None,
            "tp_max_per_s": self.tp_max_per_s,
            "usl": None
            if usl is None
            else {"sigma": usl.sigma, "kappa": usl.kappa, "n_star": usl.n_star},
            "warnings": list(self.warnings),
            "levels": [
                {
                    "n": int(n),
                    "throughput_per_s": float(tp),
                    "response_s": float(rt),
                    "intervals": int(k),
                }
                for n, tp, rt, k in zip(
                    self.levels.n,
                    self.levels.throughput_per_s,
                    self.levels.response_s,
                    self.levels.intervals,
                    strict=True,
                )
            ],
        }


@dataclass(frozen=True)
class SctReport:
    params: SctParams
    servers: dict[str, SctResult]

    def to_dict(self) -> dict[str, Any]:
        return {"servers": {name: r.to_dict() for name, r in self.servers.items()}}


def sct_levels(arrive_s: FloatArray, depart_s: FloatArray, params: SctParams) -> SctLevels:
    """Per-interval TP, Q, RT over the recent window, averaged per rounded level of Q.

    Times are seconds >= 0 from an origin shared by all servers, so intervals line up."""
    width = params.interval_ms / 1000.0
    n_all = math.floor(float(arrive_s.max()) / width)
    counts = interval_counts(arrive_s, depart_s, width, n_all)
    first = 0 if params.window_s is None else max(0, n_all - math.ceil(params.window_s / width))
    done = counts.completions[first:]
    tp = done / width
    with np.errstate(invalid="ignore", divide="ignore"):
        rt = counts.completed_latency_s[first:] / done
    level = np.rint(counts.concurrency[first:]).astype(np.int64)
    per = np.bincount(level)
    tp_mean = np.bincount(level, weights=tp) / np.maximum(per, 1)
    has_rt = ~np.isnan(rt)
    rt_n = np.bincount(level[has_rt], weights=rt[has_rt], minlength=per.size)
    rt_mean = rt_n / np.maximum(np.bincount(level[has_rt], minlength=per.size), 1)
    keep = np.flatnonzero((per >= params.min_intervals) & (np.arange(per.size) > 0))
    return SctLevels(
        keep.astype(np.int64), tp_mean[keep], rt_mean[keep], per[keep].astype(np.int64)
    )


def _design(x: FloatArray, b1: FloatArray, b2: FloatArray) -> FloatArray:
    """(pairs, m, 4) design matrices [1, x, (x - b1)+, (x - b2)+]."""
    ones = np.ones((b1.size, x.size))
    xs = np.broadcast_to(x, (b1.size, x.size))
    h1 = np.maximum(x[None, :] - b1[:, None], 0.0)
    h2 = np.maximum(x[None, :] - b2[:, None], 0.0)
    return np.stack((ones, xs, h1, h2), axis=2)


def _slope_test(
    beta: FloatArray, cov: FloatArray, weights: FloatArray, df: int
) -> tuple[float, float]:
    """Slope (weights . beta) and its two-sided t-test p-value against zero."""
    slope = float(weights @ beta)
    se = math.sqrt(max(float(weights @ cov @ weights), 0.0))
    if se == 0.0:
        return slope, 0.0 if slope != 0.0 else 1.0
    return slope, float(2.0 * stats.t.sf(abs(slope / se), df))


def piecewise_fit(
    n: FloatArray, tp: FloatArray, weights: FloatArray | None = None
) -> PiecewiseFit | None:
    """Weighted least squares over every pair of candidate breakpoints (each segment has
    >= 2 levels). The weights (intervals per level) make a level's mean count as much as
    the intervals behind it, so sparsely visited edge levels cannot pull a breakpoint."""
    m = n.size
    if m < 6:
        return None
    w = np.ones(m) if weights is None else np.asarray(weights, dtype=np.float64)
    w = w * m / w.sum()
    i, j = np.triu_indices(m, k=1)
    ok = (i >= 1) & (j <= m - 2)
    i, j = i[ok], j[ok]
    x = n.astype(np.float64)
    design = _design(x, x[i], x[j])
    gram = np.einsum("pmk,m,pml->pkl", design, w, design)
    rhs = np.einsum("pmk,m,m->pk", design, w, tp)
    beta = np.linalg.solve(gram + 1e-12 * np.eye(4), rhs[..., None])[..., 0]
    resid = tp[None, :] - np.einsum("pmk,pk->pm", design, beta)
    sse = np.sum(w * resid**2, axis=1)
    best = int(np.argmin(sse))
    df = m - 4
    cov = sse[best] / df * np.linalg.inv(gram[best])
    mid, p_mid = _slope_test(beta[best], cov, np.array([0.0, 1.0, 1.0, 0.0]), df)
    last, p_last = _slope_test(beta[best], cov, np.array([0.0, 1.0, 1.0, 1.0]), df)
    fitted = design[best] @ beta[best]
    return PiecewiseFit(
        q_lower=int(x[i[best]]),
        q_upper=int(x[j[best]]),
        tp_max_per_s=float(fitted.max()),
        middle_slope_per_s=mid,
        middle_p_value=p_mid,
        last_slope_per_s=last,
        last_p_value=p_last,
        sse=float(sse[best]),
    )


def _disagrees(usl: UslFit | None, q_lower: int, q_high: int) -> bool:
    """USL's N* farther than 30% of Q_lower from the SCT range [Q_lower, Q_upper]."""
    if usl is None:
        return False
    if usl.n_star is None:
        return True
    distance = max(q_lower - usl.n_star, usl.n_star - q_high, 0.0)
    return distance > DISAGREEMENT * q_lower


def sct_result(server: str, levels: SctLevels, alpha: float) -> SctResult:
    fit = piecewise_fit(
        levels.n.astype(np.float64), levels.throughput_per_s, levels.intervals.astype(np.float64)
    )
    try:
        usl: UslFit | None = fit_usl(levels.n.astype(np.float64), levels.throughput_per_s)
    except (ValueError, RuntimeError):
        usl = None
    if fit is None:
        why = f"only {levels.n.size} concurrency levels with enough intervals (need 6)"
        return SctResult(server, levels, None, usl, None, None, None, (why,))
    warnings = []
    descent = fit.last_slope_per_s < 0 and fit.last_p_value < alpha
    q_upper = fit.q_upper if descent else None
    span = fit.middle_slope_per_s * (fit.q_upper - fit.q_lower)
    if fit.middle_p_value < alpha and abs(span) > MATERIAL * fit.tp_max_per_s:
        warnings.append(
            f"no flat stage: throughput still changes by {fit.middle_slope_per_s:.3g}/s per "
            f"request between the breakpoints (p = {fit.middle_p_value:.2g})"
        )
    q_high = q_upper if q_upper is not None else int(levels.n.max())
    if _disagrees(usl, fit.q_lower, q_high):
        warnings.append("the USL peak and the SCT range disagree by more than 30%")
    return SctResult(
        server, levels, fit, usl, fit.q_lower, q_upper, fit.tp_max_per_s, tuple(warnings)
    )


def analyze_trace(table: pl.DataFrame, params: SctParams | None = None) -> SctReport:
    """SCT per server of a latency trace (columns ts, latency_s, optional server)."""
    params = params or SctParams()
    params.validate()
    for col in ("ts", "latency_s"):
        if col not in table.columns:
            raise ValueError(f"latency trace has no column {col!r}")
    server = pl.col("server").fill_null(SITE) if "server" in table.columns else pl.lit(SITE)
    rows = table.filter(pl.col("latency_s").is_not_null()).select(
        server=server,
        t_s=(pl.col("ts") - pl.col("ts").min()).dt.total_nanoseconds().cast(pl.Float64) / 1e9,
        latency_s=pl.col("latency_s").cast(pl.Float64),
    )
    if rows.height == 0:
        raise ValueError("latency trace has no rows with a latency_s")
    results = {}
    for (name,), part in sorted(rows.partition_by("server", as_dict=True).items()):
        arrive = part["t_s"].to_numpy()
        levels = sct_levels(arrive, arrive + part["latency_s"].to_numpy(), params)
        results[str(name)] = sct_result(str(name), levels, params.alpha)
    return SctReport(params=params, servers=results)
