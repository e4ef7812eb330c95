"""What a forecast means for planning: the day its peak passes a limit (the runway), and
how well the method forecast the last 20% of the history from the rest (the backtest)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

import numpy as np

from headroom.engine.forecast.model import DAY_H, Fit, fit
from headroom.engine.forecast.series import F64, HourlySeries

DAY_S = 86400.0
BACKTEST_SHARE = 0.2


def daily_peaks(times_s: F64, rate_per_s: F64) -> tuple[F64, F64]:
    """Per UTC day: its start (epoch s) and its highest hourly rate."""
    days = np.floor(times_s / DAY_S)
    starts, index = np.unique(days, return_inverse=True)
    peaks = np.full(len(starts), -np.inf)
    np.maximum.at(peaks, index, rate_per_s)
    return starts * DAY_S, peaks


def runway_date(forecast: Fit, limit_per_s: float) -> date | None:
    """The first UTC day whose forecast peak (the hourly median) passes the limit; None
    when no day of the horizon does."""
    starts, peaks = daily_peaks(forecast.times_s(), forecast.rate_per_s)
    over = np.flatnonzero(peaks > limit_per_s)
    if over.size == 0:
        return None
    return datetime.fromtimestamp(float(starts[over[0]]), UTC).date()


@dataclass(frozen=True)
class Backtest:
    """The last 20% of the history forecast from the rest: the mean absolute percentage
    error over its hours with traffic, and the standard deviation of the log error."""

    hours: int
    mape: float
    log_error_sd: float


def backtest(history: HourlySeries) -> Backtest | None:
    """None when the first 80% holds under a day, or the last 20% no traffic."""
    cut = round(history.hours * (1.0 - BACKTEST_SHARE))
    if cut < DAY_H or cut >= history.hours:
        return None
    ahead = fit(history.head(cut), history.hours - cut)
    actual, predicted = history.rate_per_s[cut:], ahead.rate_per_s
    busy = actual > 0
    if not busy.any():
        return None
    log_error = np.log(actual + ahead.offset) - ahead.log_median
    return Backtest(
        hours=history.hours - cut,
        mape=float(np.mean(np.abs(predicted[busy] - actual[busy]) / actual[busy])),
        log_error_sd=float(np.sqrt(np.mean(log_error**2))),
    )
