"""Arrival processes, drawn one segment [t0, t1) at a time as sorted time arrays.

Poisson at a constant rate; non-homogeneous Poisson following a step or piecewise-linear
profile by thinning (Lewis-Shedler: candidates at the segment's peak rate, each kept with
probability rate(t) / peak); replay of given times scaled by a factor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from headroom.engine.sim.poisson import poisson_periods

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


class ArrivalProcess(Protocol):
    def between(self, rng: np.random.Generator, t0_s: float, t1_s: float) -> F64: ...

    def mean_rate_per_s(self, duration_s: float) -> float: ...


def _uniform_points(rng: np.random.Generator, rate: float, t0: float, t1: float) -> F64:
    n = rng.poisson(rate * (t1 - t0)) if rate > 0 else 0
    points = rng.uniform(t0, t1, n)
    points.sort()  # in place: np.sort would copy first
    return points


@dataclass(frozen=True)
class PoissonArrivals:
    rate_per_s: float

    def between(self, rng: np.random.Generator, t0_s: float, t1_s: float) -> F64:
        return _uniform_points(rng, self.rate_per_s, t0_s, t1_s)

    def mean_rate_per_s(self, duration_s: float) -> float:
        return self.rate_per_s


@dataclass(frozen=True)
class ProfileArrivals:
    """Rate follows a profile of points ``(starts_s[i], rates_per_s[i])``: a step function
    (each rate holds until the next point) or, with ``linear``, straight lines between the
    points. The rate is 0 before the first point and holds at the last rate after it."""

    starts_s: tuple[float, ...]
    rates_per_s: tuple[float, ...]
    linear: bool = False

    def rate_at(self, t_s: F64) -> F64:
        starts, rates = np.asarray(self.starts_s), np.asarray(self.rates_per_s)
        if self.linear:
            return np.interp(t_s, starts, rates, left=0.0)
        idx = np.searchsorted(starts, t_s, side="right") - 1
        return np.where(idx >= 0, rates[np.maximum(idx, 0)], 0.0)

    def _peak(self, t0: float, t1: float) -> float:
        """The rate's supremum on [t0, t1): it is reached at t0, at a point inside, or (a
        linear profile rising to t1) at t1."""
        starts = np.asarray(self.starts_s)
        inside = np.asarray(self.rates_per_s)[(starts > t0) & (starts < t1)]
        ends = self.rate_at(np.array([t0, t1]))[: 2 if self.linear else 1]
        return float(max(*ends, *inside, 0.0))

    def between(self, rng: np.random.Generator, t0_s: float, t1_s: float) -> F64:
        peak = self._peak(t0_s, t1_s)
        candidates = _uniform_points(rng, peak, t0_s, t1_s)
        keep = rng.uniform(0.0, peak, len(candidates)) < self.rate_at(candidates)
        return candidates[keep]

    def integral(self, t0_s: float, t1_s: float) -> float:
        """Expected arrivals in [t0, t1): the integral of the rate (exact for both shapes:
        the rate is piecewise constant or piecewise linear between the knots)."""
        starts = np.asarray(self.starts_s)
        t0_s = max(t0_s, float(starts[0]))  # the rate is 0 before the first point
        if t1_s <= t0_s:
            return 0.0
        inner = starts[(starts > t0_s) & (starts < t1_s)]
        knots = np.concatenate(([t0_s], inner, [t1_s]))
        if not self.linear:
            return float(np.sum(np.diff(knots) * self.rate_at(knots[:-1])))
        rates = self.rate_at(knots)  # continuous from the first point on: trapezoids are exact
        return float(np.sum(np.diff(knots) * (rates[:-1] + rates[1:]) / 2.0))

    def mean_rate_per_s(self, duration_s: float) -> float:
        if not self.linear:
            edges = np.append(np.minimum(self.starts_s, duration_s), duration_s)
            return float(np.sum(np.diff(edges) * np.asarray(self.rates_per_s)) / duration_s)
        return self.integral(0.0, duration_s) / duration_s


@dataclass(frozen=True)
class ReplayArrivals:
    """Logged arrival times (sorted, seconds from the start) multiplied by ``time_scale``."""

    times_s: F64
    time_scale: float = 1.0

    def between(self, rng: np.random.Generator, t0_s: float, t1_s: float) -> F64:
        lo, hi = self.window(t0_s, t1_s)
        return self.times_s[lo:hi] * self.time_scale

    def window(self, t0_s: float, t1_s: float) -> tuple[int, int]:
        """Index range of the (sorted) logged arrivals that fall in [t0, t1) once scaled."""
        bounds = np.array([t0_s, t1_s]) / self.time_scale
        lo, hi = np.searchsorted(self.times_s, bounds, side="left")
        return int(lo), int(hi)

    def mean_rate_per_s(self, duration_s: float) -> float:
        return float(np.sum(self.times_s * self.time_scale < duration_s) / duration_s)


def periods_between(
    process: ArrivalProcess, rng: np.random.Generator, edges: F64, limit: int
) -> tuple[F64, I64]:
    """The arrivals of the periods between consecutive ``edges`` as ``process.between``
    draws them, period after period, until they number ``limit`` or more: their times, in
    time order, and each drawn period's count. Poisson arrivals are drawn in one compiled
    call (poisson.py)."""
    starts, ends = edges[:-1], edges[1:]
    if isinstance(process, PoissonArrivals):
        return poisson_periods(rng, process.rate_per_s, starts, ends, limit)
    parts: list[F64] = []
    total = 0
    for t0, t1 in zip(starts.tolist(), ends.tolist(), strict=True):
        parts.append(process.between(rng, t0, t1))
        total += len(parts[-1])
        if total >= limit:
            break
    return np.concatenate(parts), np.array([len(p) for p in parts], dtype=np.int64)
