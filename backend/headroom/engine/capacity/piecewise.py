"""Continuous piecewise-linear fits with breakpoints chosen by least squares over every
candidate combination (intervention analysis, docs/methods/concurrency.md step 3)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from headroom.engine.linalg import inverse, matvec, solve_each

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class PiecewiseFit:
    """Throughput against concurrency: segments joined at integer breakpoints."""

    breakpoints: tuple[int, ...]
    slopes_per_s: tuple[float, ...]  # per segment, per extra request in the server
    p_values: tuple[float, ...]  # two-sided t-test of each slope against zero
    tp_max_per_s: float  # the fitted curve's maximum over the levels
    sse: float
    knots: tuple[tuple[float, float], ...] = ()  # (n, fitted TP): the ends and the breakpoints

    @property
    def q_lower(self) -> int:
        return self.breakpoints[0]

    @property
    def q_upper(self) -> int:
        return self.breakpoints[-1]

    @property
    def middle_slope_per_s(self) -> float:
        return self.slopes_per_s[1]

    @property
    def middle_p_value(self) -> float:
        return self.p_values[1]

    @property
    def last_slope_per_s(self) -> float:
        return self.slopes_per_s[-1]

    @property
    def last_p_value(self) -> float:
        return self.p_values[-1]


def _candidates(m: int, k: int) -> IntArray:
    """(P, k) level indices of breakpoints, every segment holding >= 2 levels."""
    if k == 1:
        return np.arange(1, m - 1, dtype=np.int64)[:, None]
    i, j = np.triu_indices(m, k=1)
    ok = (i >= 1) & (j <= m - 2)
    return np.stack((i[ok], j[ok]), axis=1).astype(np.int64)


def _design(x: FloatArray, knots: FloatArray) -> FloatArray:
    """(P, m, 2 + k) design matrices [1, x, (x - b_1)+, ..., (x - b_k)+]."""
    p = knots.shape[0]
    base = [np.ones((p, x.size)), np.broadcast_to(x, (p, x.size))]
    hinges = [np.maximum(x[None, :] - knots[:, h, None], 0.0) for h in range(knots.shape[1])]
    return np.stack(base + hinges, axis=2)


def _slope_test(beta: FloatArray, cov: FloatArray, segment: int, df: int) -> tuple[float, float]:
    """Slope of a segment (beta_1 + the hinges before it) and its t-test p-value."""
    slope = float(np.sum(beta[1 : 2 + segment]))
    se = math.sqrt(max(float(np.sum(cov[1 : 2 + segment, 1 : 2 + segment])), 0.0))
    if se == 0.0:
        return slope, 0.0 if slope != 0.0 else 1.0
    return slope, float(2.0 * stats.t.sf(abs(slope / se), df))


def fit_segments(
    n: FloatArray, tp: FloatArray, weights: FloatArray | None = None, segments: int = 3
) -> PiecewiseFit | None:
    """Weighted least squares over every combination of breakpoints; None if too few
    levels (2 per segment). The weights (intervals per level) make a level's mean count
    as much as the intervals behind it."""
    k = segments - 1
    m = n.size
    if k not in (1, 2) or m < 2 * segments:
        return None
    w = np.ones(m) if weights is None else np.asarray(weights, dtype=np.float64)
    w = w * m / w.sum()
    x = n.astype(np.float64)
    idx = _candidates(m, k)
    design = _design(x, x[idx])
    gram = np.einsum("pmk,m,pml->pkl", design, w, design)
    rhs = np.einsum("pmk,m,m->pk", design, w, tp)
    beta = solve_each(gram + 1e-12 * np.eye(2 + k), rhs)
    sse = np.sum(w * (tp[None, :] - np.einsum("pmk,pk->pm", design, beta)) ** 2, axis=1)
    best = int(np.argmin(sse))
    df = m - (2 + k)
    cov = sse[best] / df * inverse(gram[best])
    tests = [_slope_test(beta[best], cov, s, df) for s in range(segments)]
    fitted = matvec(np.ascontiguousarray(design[best]), beta[best])
    at = [0, *idx[best].tolist(), m - 1]
    return PiecewiseFit(
        breakpoints=tuple(int(x[i]) for i in idx[best]),
        slopes_per_s=tuple(t[0] for t in tests),
        p_values=tuple(t[1] for t in tests),
        tp_max_per_s=float(fitted.max()),
        sse=float(sse[best]),
        knots=tuple((float(x[i]), float(fitted[i])) for i in at),
    )
