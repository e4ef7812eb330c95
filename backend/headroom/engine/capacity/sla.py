"""SLA thresholds by stance, MaxRate(T), MaxConn(T) and MaxConn (docs/methods/capacity.md, "Choosing
the threshold"), read off a piecewise-linear curve of measured points optionally continued by model
points."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from headroom.engine.capacity.params import STANCES, Stance

FloatArray = NDArray[np.float64]
STRICT_KNEE_FRACTION = 0.8


@dataclass(frozen=True)
class LoadCurve:
    """Latency (non-decreasing), throughput and concurrency against load, with provenance."""

    load_per_s: FloatArray
    latency_s: FloatArray
    throughput_per_s: FloatArray
    concurrency: FloatArray
    is_model: NDArray[np.bool_]

    def latency_at(self, load_per_s: float) -> float:
        return float(np.interp(load_per_s, self.load_per_s, self.latency_s))

    def concurrency_at(self, load_per_s: float) -> float:
        return float(np.interp(load_per_s, self.load_per_s, self.concurrency))

    def source_at(self, load_per_s: float) -> str:
        """ "model" once the load passes the last measured point."""
        measured = self.load_per_s[~self.is_model]
        return "model" if measured.size == 0 or load_per_s > measured.max() + 1e-12 else "measured"


@dataclass(frozen=True)
class SlaTarget:
    stance: str  # strict, balanced, loose, or "user"
    percentile: float
    threshold_s: float
    max_rate_per_s: float  # MaxRate(T): the largest load whose percentile <= T
    max_conn: float  # MaxConn(T): the concurrency at MaxRate(T)
    source: str  # "measured" or "model"
    capped: bool  # T is above the whole curve: MaxRate is only a lower bound


def threshold_for_stance(
    curve: LoadCurve, stance: Stance, knee_per_s: float, breaking_per_s: float
) -> float:
    """strict: latency at 0.8 x knee load; balanced: at the knee; loose: at the breaking point."""
    loads = {
        "strict": STRICT_KNEE_FRACTION * knee_per_s,
        "balanced": knee_per_s,
        "loose": breaking_per_s,
    }
    if stance not in loads:
        raise ValueError(f"stance must be one of {STANCES}, got {stance!r}")
    return curve.latency_at(loads[stance])


def max_rate_per_s(curve: LoadCurve, threshold_s: float) -> tuple[float, bool]:
    """The largest load with latency <= T, interpolated; (rate, capped)."""
    lat, load = curve.latency_s, curve.load_per_s
    ok = lat <= threshold_s
    if not ok[0]:
        return 0.0, False
    if ok.all():
        return float(load[-1]), True
    i = int(np.argmin(ok))  # first point above T; the curve is non-decreasing
    l0, l1, y0, y1 = load[i - 1], load[i], lat[i - 1], lat[i]
    return float(l0 + (threshold_s - y0) / (y1 - y0) * (l1 - l0)), False


def sla_target(curve: LoadCurve, stance: str, percentile: float, threshold_s: float) -> SlaTarget:
    """MaxRate(T) and MaxConn(T) for a threshold T."""
    if not threshold_s > 0:
        raise ValueError(f"threshold_s must be > 0, got {threshold_s}")
    rate, capped = max_rate_per_s(curve, threshold_s)
    return SlaTarget(
        stance=stance,
        percentile=percentile,
        threshold_s=float(threshold_s),
        max_rate_per_s=rate,
        max_conn=curve.concurrency_at(rate) if rate > 0 else 0.0,
        source=curve.source_at(rate),
        capped=capped,
    )
