"""Scatter-Concurrency-Throughput model of a latency trace (docs/methods/concurrency.md): the best
thread/connection-pool size of each server, and the USL as a second estimate."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from headroom.engine.capacity.params import SctParams
from headroom.engine.capacity.piecewise import PiecewiseFit, fit_segments
from headroom.engine.capacity.usl import UslFit, fit_usl
from headroom.engine.capacity.windows import interval_counts, row_groups

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
DISAGREEMENT = 0.30
FRINGE = 0.5  # fringe levels: visited less than this fraction of the median level
MATERIAL = 0.10  # a significant slope counts only when it moves TP this much (of TP_max)
SITE = "site"


@dataclass(frozen=True)
class SctLevels:
    """Per integer concurrency level: mean throughput and response time of the intervals
    that follow an interval at that level."""

    n: IntArray
    throughput_per_s: FloatArray
    response_s: FloatArray
    intervals: IntArray
    dropped: IntArray = field(default_factory=lambda: np.empty(0, dtype=np.int64))  # too rare
    skipped_s: float = 0.0  # trace time before the recent window, left out


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
            else {
                "sigma": usl.sigma,
                "kappa": usl.kappa,
                "n_star": usl.n_star,
                "lambda_per_s": usl.lambda_per_s,
                "rmse_per_s": usl.rmse_per_s,
            },
            "trend": []
            if self.fit is None
            else [{"n": n, "throughput_per_s": tp} for n, tp in self.fit.knots],
            "warnings": list(self.warnings),
            "levels": [
                {
                    "n": int(n),
                    "throughput_per_s": float(tp),
                    "response_s": None if math.isnan(rt) else float(rt),
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
        return {
            "servers": {name: r.to_dict() for name, r in self.servers.items()},
            "interval_ms": self.params.interval_ms,
            "window_s": self.params.window_s,
        }


def sct_levels(arrive_s: FloatArray, depart_s: FloatArray, params: SctParams) -> SctLevels:
    """Per-interval TP, Q, RT over the recent window, averaged per rounded level of Q.

    An interval's TP and RT are counted under the Q of the interval before it. Read in
    the same interval, a level selects its own completions: an interval's average Q is
    lower the more requests complete in it, so where a server spends more time at lower
    levels (any open queue), an interval averaging k more often started below k and
    saw fewer completions. On M/M/c logs that read the plateau 5-15% low at small
    levels and right at large ones: the fitted plateau rose, and TP_max read at its top
    came out 6-7% above c mu. The completions after an interval depend on the past only
    through the number then in the server, which leaves each level's mean TP unbiased.

    Times are seconds >= 0 from an origin shared by all servers, so intervals line up."""
    width = params.interval_ms / 1000.0
    n_all = math.floor(float(arrive_s.max()) / width)
    counts = interval_counts(arrive_s, depart_s, width, n_all)
    first = 0 if params.window_s is None else max(0, n_all - math.ceil(params.window_s / width))
    done = counts.completions[first + 1 :]
    tp = done / width
    with np.errstate(invalid="ignore", divide="ignore"):
        rt = counts.completed_latency_s[first + 1 :] / done
    level = np.rint(counts.concurrency[first:-1]).astype(np.int64)
    per = np.bincount(level)
    tp_mean = np.bincount(level, weights=tp) / np.maximum(per, 1)
    has_rt = ~np.isnan(rt)
    rt_n = np.bincount(level[has_rt], weights=rt[has_rt], minlength=per.size)
    rt_count = np.bincount(level[has_rt], minlength=per.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        rt_mean = np.where(rt_count > 0, rt_n / rt_count, np.nan)
    seen = (per > 0) & (np.arange(per.size) > 0)
    keep = np.flatnonzero(seen & (per >= params.min_intervals))
    return SctLevels(
        keep.astype(np.int64), tp_mean[keep], rt_mean[keep], per[keep].astype(np.int64),
        dropped=np.flatnonzero(seen & (per < params.min_intervals)).astype(np.int64),
        skipped_s=first * width,
    )  # fmt: skip


def dropped_warnings(levels: SctLevels, core: slice, min_intervals: int) -> list[str]:
    """What was left out, always said: rare levels, fringe levels, the older trace."""
    out = []
    if levels.dropped.size:
        d = levels.dropped
        which = (
            f"level {d[0]} was" if d.size == 1 else f"{d.size} levels ({d.min()}-{d.max()}) were"
        )
        out.append(f"concurrency {which} seen in fewer than {min_intervals} intervals and left out")
    fringe = np.r_[levels.n[: core.start], levels.n[core.stop :]]
    if fringe.size:
        out.append(
            f"{fringe.size} rarely visited level(s) at the ends ({', '.join(map(str, fringe))}) "
            "are shown but left out of the fits"
        )
    if levels.skipped_s > 0:
        out.append(
            f"only the most recent window was analysed: the first {levels.skipped_s:.0f} s "
            "of the trace were left out"
        )
    return out


def piecewise_fit(
    n: FloatArray, tp: FloatArray, weights: FloatArray | None = None
) -> PiecewiseFit | None:
    """The three-stage fit (ascending, stable, descending)."""
    return fit_segments(n, tp, weights, segments=3)


def _disagrees(usl: UslFit | None, q_lower: int, q_high: int) -> bool:
    """USL's N* farther than 30% of Q_lower from the SCT range [Q_lower, Q_upper]."""
    if usl is None:
        return False
    if usl.n_star is None:
        return True
    distance = max(q_lower - usl.n_star, usl.n_star - q_high, 0.0)
    return distance > DISAGREEMENT * q_lower


def core_levels(intervals: IntArray) -> slice:
    """The levels left after trimming the fringe at both ends of the observed range.

    The extreme levels are reached only in brief swings, so their mean TP rests on few
    intervals, all taken at the turn of a swing; such a fringe would tilt the fitted
    stages (a low top would fake a descent). It shows as a tail of rarely visited
    levels: trailing levels visited less than half as often as the median level are left
    out of the fits (they stay in the scatter), at most a quarter of the levels per end,
    so a genuinely sparse region is never dropped whole.
    """
    cut = FRINGE * float(np.median(intervals)) if intervals.size else 0.0
    most = intervals.size // 4
    lo, hi = 0, intervals.size
    while lo < most and intervals[lo] < cut:
        lo += 1
    while intervals.size - hi < most and intervals[hi - 1] < cut:
        hi -= 1
    return slice(lo, hi)


def _has_descent(fit: PiecewiseFit, n_top: float, alpha: float) -> bool:
    """A descent: the last slope is significantly negative and costs TP materially."""
    drop = -fit.last_slope_per_s * (n_top - fit.q_upper)
    significant = fit.last_slope_per_s < 0 and fit.last_p_value < alpha
    return significant and drop > MATERIAL * fit.tp_max_per_s


def _plateau_warning(fit: PiecewiseFit, end: float, alpha: float) -> str | None:
    slope, p = fit.slopes_per_s[1], fit.p_values[1]  # the stable stage is segment 1
    if p < alpha and abs(slope * (end - fit.q_lower)) > MATERIAL * fit.tp_max_per_s:
        return (
            f"no flat stage: throughput still changes by {slope:.3g}/s per request "
            f"past Q_lower (p = {p:.2g})"
        )
    return None


def sct_result(server: str, levels: SctLevels, alpha: float, min_intervals: int = 10) -> SctResult:
    """Q_lower, Q_upper and TP_max from the three-stage fit; when the third stage (a
    material, significant descent) is absent, the rise-and-plateau fit places Q_lower."""
    core = core_levels(levels.intervals)
    left_out = dropped_warnings(levels, core, min_intervals)
    n = levels.n[core].astype(np.float64)
    tp = levels.throughput_per_s[core]
    w = levels.intervals[core].astype(np.float64)
    three = piecewise_fit(n, tp, w)
    try:
        usl: UslFit | None = fit_usl(n, tp)
    except (ValueError, RuntimeError):
        usl = None
    if three is None:
        why = f"only {n.size} concurrency levels with enough intervals (need 6)"
        return SctResult(server, levels, None, usl, None, None, None, (why, *left_out))
    descent = _has_descent(three, float(n.max()), alpha)
    fit = three if descent else (fit_segments(n, tp, w, segments=2) or three)
    q_upper = three.q_upper if descent else None
    q_high = q_upper if q_upper is not None else int(n.max())
    warnings = [_plateau_warning(fit, q_high, alpha)]
    if _disagrees(usl, fit.q_lower, q_high):
        warnings.append("the USL peak and the SCT range disagree by more than 30%")
    kept = tuple(w for w in [*warnings, *left_out] if w)
    return SctResult(server, levels, fit, usl, fit.q_lower, q_upper, fit.tp_max_per_s, kept)


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
    t_s = rows["t_s"].to_numpy()
    lat = rows["latency_s"].to_numpy()
    results = {}
    for (name,), idx in sorted(row_groups(rows, ["server"]).items(), key=lambda kv: str(kv[0])):
        arrive = t_s[idx]
        levels = sct_levels(arrive, arrive + lat[idx], params)
        results[str(name)] = sct_result(str(name), levels, params.alpha, params.min_intervals)
    return SctReport(params=params, servers=results)
