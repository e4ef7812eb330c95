"""A rate series put on an hourly grid: each hour's mean rate over the intervals observed
in it (docs/methods/forecast.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
HOUR_S = 3600.0


class ForecastInputError(ValueError):
    """The series cannot be forecast (empty, one hour, negative rates)."""


class HistoryTooShort(ForecastInputError):
    """The history holds no rate, or covers less than two hours."""


@dataclass(frozen=True)
class HourlySeries:
    """``rate_per_s[i]``: the mean rate of the hour starting ``start_s + i * 3600``
    (epoch seconds, UTC); hours with no observation are interpolated (``filled`` counts
    them)."""

    start_s: float
    rate_per_s: F64
    filled: int = 0

    @property
    def hours(self) -> int:
        return len(self.rate_per_s)

    def times_s(self) -> F64:
        return self.start_s + HOUR_S * np.arange(self.hours, dtype=np.float64)

    def head(self, hours: int) -> HourlySeries:
        return HourlySeries(self.start_s, self.rate_per_s[:hours], self.filled)

    def busy_share(self) -> float:
        """The share of its hours with traffic (a rate above zero)."""
        return float(np.mean(self.rate_per_s > 0))


def hourly(start_s: F64, rate_per_s: F64) -> HourlySeries:
    """Average interval rates (per minute or coarser, by start time) per UTC hour."""
    start_s, rate_per_s = np.asarray(start_s, np.float64), np.asarray(rate_per_s, np.float64)
    if start_s.size == 0:
        raise HistoryTooShort("the rate series is empty")
    if (rate_per_s < 0).any() or not np.isfinite(rate_per_s).all():
        raise ForecastInputError("rates must be finite and non-negative")
    hour = np.floor(start_s / HOUR_S).astype(np.int64)
    index = hour - hour.min()
    sums = np.bincount(index, weights=rate_per_s)
    counts = np.bincount(index)
    seen = counts > 0
    grid = np.arange(len(counts))
    rates = np.interp(grid, grid[seen], sums[seen] / counts[seen])
    if len(rates) < 2:
        raise HistoryTooShort("the rate series covers less than two hours")
    return HourlySeries(float(hour.min() * HOUR_S), rates, int((~seen).sum()))
