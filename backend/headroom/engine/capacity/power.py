"""Capacity from the power ratio gamma = goodput / mean response time (docs/methods/capacity.md):
a cubic least-squares fit of gamma against offered load, maximised inside the observed
range.

When the log passes the peak (the load bins' own power ratio rises to a maximum and then
falls over at least two bins), the peak is read off those measured bins (a least-squares parabola
over the highest bin and two bins each side): with many servers the power curve is
nearly linear up to its peak and drops steeply after it, a shape a cubic cannot follow (on
M/M/16 its maximiser lies ~9% low)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from headroom.engine.linalg import polyfit

FloatArray = NDArray[np.float64]
NOT_REACHED = "capacity not reached in this log"
CHART_POINTS = 400  # windows sent to a chart, evenly spread over the load order
FLAT_LOAD = "the offered load takes fewer than 4 distinct values in this log"


@dataclass(frozen=True)
class PowerCapacity:
    power_peak_load_per_s: float | None
    r2: float | None
    reason: str | None  # why there is no peak, when there is none
    coefficients: tuple[float, ...]  # cubic in load, highest power first (numpy.polyval)
    load_range_per_s: tuple[float, float]
    sample: tuple[tuple[float, float], ...] = ()  # (load_per_s, power_per_s2) for a chart
    source: str = "model"  # "measured": read off the load bins; "model": the cubic's maximiser

    def to_chart(self) -> dict[str, object] | None:
        """The windows' power ratio and the fitted cubic, for the power-ratio chart."""
        if not self.coefficients:
            return None
        return {
            "points": [{"load_per_s": x, "power_per_s2": y} for x, y in self.sample],
            "coefficients": list(self.coefficients),
            "load_range_per_s": list(self.load_range_per_s),
            "peak_load_per_s": self.power_peak_load_per_s,
            "r2": self.r2,
            "source": self.source,
        }


def _r2(y: FloatArray, fitted: FloatArray) -> float:
    total = float(np.sum((y - y.mean()) ** 2))
    return 1.0 - float(np.sum((y - fitted) ** 2)) / total if total > 0 else 0.0


def _interior_max(coef: FloatArray, lo: float, hi: float) -> float | None:
    """The cubic's maximiser on [lo, hi] when it is a critical point strictly inside."""
    crit = np.roots(np.polyder(coef))
    crit = crit[np.isreal(crit)].real
    crit = crit[(crit > lo) & (crit < hi)]
    if crit.size == 0:
        return None
    candidates = np.concatenate((crit, [lo, hi]))
    best = float(candidates[int(np.argmax(np.polyval(coef, candidates)))])
    return best if lo < best < hi else None


def chart_sample(load: FloatArray, gamma: FloatArray) -> tuple[tuple[float, float], ...]:
    """At most CHART_POINTS windows, taken evenly along the load order (ends included)."""
    order = np.argsort(load, kind="stable")
    pick = order[np.unique(np.linspace(0, order.size - 1, CHART_POINTS).round().astype(int))]
    return tuple((float(load[i]), float(gamma[i])) for i in pick)


BEYOND_PEAK_BINS = 2  # bins past the highest one that must fall for a measured peak
SPAN = 1  # bins each side of the highest one that the local parabola goes through


def measured_peak_per_s(load: FloatArray, gamma: FloatArray) -> float | None:
    """The peak of a binned power curve that the data passes, else None: the vertex of the
    parabola through the highest bin and its neighbours, kept between those neighbours."""
    ok = np.isfinite(gamma)
    load, gamma = load[ok], gamma[ok]
    if load.size < 3:
        return None
    i = int(np.argmax(gamma))
    after = gamma[i + 1 : i + 1 + BEYOND_PEAK_BINS]
    if i == 0 or after.size < BEYOND_PEAK_BINS or not np.all(np.diff(np.r_[gamma[i], after]) < 0):
        return None
    x, y = load[max(i - SPAN, 0) : i + SPAN + 1], gamma[max(i - SPAN, 0) : i + SPAN + 1]
    a, b, _ = polyfit(x, y, 2)
    vertex = -b / (2.0 * a) if a < 0 else load[i]
    return float(np.clip(vertex, load[i - 1], load[i + 1]))


TOP = 0.95  # bins within 5% of the highest power ratio form the measured top


def _on_top(peak: float, load: FloatArray, gamma: FloatArray) -> bool:
    """Whether a load lies within the measured top of the binned power curve."""
    ok = np.isfinite(gamma)
    top = load[ok][gamma[ok] >= TOP * gamma[ok].max()]
    return bool(top.min() <= peak <= top.max())


def power_capacity(
    load_per_s: FloatArray,
    goodput_per_s: FloatArray,
    mean_latency_s: FloatArray,
    binned: tuple[FloatArray, FloatArray] | None = None,
) -> PowerCapacity:
    """Fit gamma(load) per window and report the maximiser with the fit's R^2; `binned`
    (load, power ratio per load bin) gives a measured peak when the log passes it."""
    keep = np.isfinite(mean_latency_s) & (mean_latency_s > 0)
    load, gamma = load_per_s[keep], goodput_per_s[keep] / mean_latency_s[keep]
    if load.size < 5:
        return PowerCapacity(
            None, None, "too few windows with latencies for a cubic fit", (), (0.0, 0.0)
        )
    if np.unique(load).size < 4:  # a cubic needs 4 distinct loads
        return PowerCapacity(None, None, FLAT_LOAD, (), (0.0, 0.0))
    lo, hi = float(load.min()), float(load.max())
    scale = hi  # fit on load / hi for conditioning, then convert the coefficients back
    coef_scaled = polyfit(load / scale, gamma, 3)
    coef = coef_scaled / scale ** np.arange(3, -1, -1)
    r2 = _r2(gamma, np.asarray(np.polyval(coef, load), dtype=np.float64))
    peak = _interior_max(coef, lo, hi)
    measured = None if binned is None else measured_peak_per_s(*binned)
    if binned is not None and measured is not None and peak is not None and _on_top(peak, *binned):
        measured = None  # the cubic's peak lies on the measured top: it is the smoother
    return PowerCapacity(
        power_peak_load_per_s=measured if measured is not None else peak,
        r2=r2,
        reason=None if peak is not None or measured is not None else NOT_REACHED,
        coefficients=tuple(float(c) for c in coef),
        load_range_per_s=(lo, hi),
        sample=chart_sample(load, gamma),
        source="measured" if measured is not None else "model",
    )
