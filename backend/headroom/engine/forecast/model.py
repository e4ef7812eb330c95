"""Hourly traffic forecast: multiple seasonal-trend decomposition (statsmodels' MSTL) of
the log rate into daily and weekly cycles, a straight-line trend through the rest (OLS,
with its 80% prediction interval), the cycles repeated ahead (docs/methods/forecast.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.stats import norm
from statsmodels.regression._prediction import PredictionResults
from statsmodels.regression.linear_model import OLS
from statsmodels.tsa.seasonal import MSTL

from headroom.engine.forecast.series import F64, HOUR_S, HourlySeries

DAY_H, WEEK_H = 24, 168
TREND_WINDOW_H = 4 * WEEK_H
# STL's seasonal smoother spans 31 cycles (MSTL's default 11 and 15): a day's or a week's
# shape changes slowly, and a shorter smoother passes the last cycles' noise into the
# forecast (the known-truth tests' peaks: 1-2.4% off with the default, under 1% with 31).
SEASONAL_WINDOW = 31
INTERVAL = 0.80
Z = float(norm.ppf(0.5 + INTERVAL / 2))  # 1.2816: the normal quantile of the interval's edges
SEASONS = {DAY_H: "daily", WEEK_H: "weekly"}


@dataclass(frozen=True)
class Fit:
    """Hours ahead of a history, on the log scale: ``log_median`` of rate + ``offset``
    and its standard deviation ``log_sd`` (the line's prediction error, widened by the
    backtest's error when known); rates in req/s come back through the properties."""

    start_s: float
    log_median: F64
    log_sd: F64
    offset: float
    growth_per_week: float
    seasonality: tuple[str, ...]
    warnings: tuple[str, ...]

    def times_s(self) -> F64:
        return self.start_s + HOUR_S * np.arange(len(self.log_median), dtype=np.float64)

    def _rate(self, z: float) -> F64:
        return np.maximum(np.exp(self.log_median + z * self.log_sd) - self.offset, 0.0)

    @property
    def rate_per_s(self) -> F64:
        return self._rate(0.0)

    @property
    def lo_per_s(self) -> F64:
        return self._rate(-Z)

    @property
    def hi_per_s(self) -> F64:
        return self._rate(Z)

    def widened(self, extra_log_sd: float) -> Fit:
        """The same forecast with an independent error of ``extra_log_sd`` added."""
        return replace(self, log_sd=np.hypot(self.log_sd, extra_log_sd))


def periods_for(hours: int) -> tuple[int, ...]:
    """A cycle is fitted only when the history holds two of it: a weekly cycle needs two
    weeks, a daily one two days."""
    return tuple(p for p in (DAY_H, WEEK_H) if hours >= 2 * p)


def _warnings(hours: int) -> tuple[str, ...]:
    days = hours / DAY_H
    if hours < 2 * DAY_H:
        return (
            f"the history covers {days:.1f} days (under two): no trend or cycle can be told "
            "from the time of day; the forecast holds the mean level",
        )
    if hours < 2 * WEEK_H:
        return (f"the history covers {days:.1f} days (under two weeks): no weekly cycle fitted",)
    return ()


def _offset(rates: F64) -> float:
    """Added before the log so that idle hours (rate 0) have one: 1% of the mean rate."""
    return max(0.01 * float(rates.mean()), 1e-6)


def _seasonal(y: F64, periods: tuple[int, ...]) -> F64:
    """The cycles of ``y``, one column per period (none without periods)."""
    if not periods:
        return np.zeros((len(y), 0))
    windows = [SEASONAL_WINDOW] * len(periods)
    found = MSTL(y, periods=list(periods), windows=windows).fit()
    return np.asarray(found.seasonal, np.float64).reshape(len(y), -1)


def _repeat_last_cycle(component: F64, period: int, hours: int) -> F64:
    last = component[-period:]
    return last[np.arange(hours) % period]


def _trend(deseasoned: F64, ahead_h: F64) -> tuple[PredictionResults, float]:
    """A straight line through the last four weeks of the deseasoned log rate (a level
    alone under two days), and its prediction at the hours ``ahead_h``."""
    hours = len(deseasoned)
    t = np.arange(hours, dtype=np.float64)[-TREND_WINDOW_H:]
    sloped = hours >= 2 * DAY_H

    def design(x: F64) -> F64:
        return np.column_stack([np.ones_like(x), x] if sloped else [np.ones_like(x)])

    line = OLS(deseasoned[-TREND_WINDOW_H:], design(t)).fit()
    slope = float(line.params[1]) if sloped else 0.0
    return line.get_prediction(design(np.asarray(ahead_h, np.float64))), slope


def fit(history: HourlySeries, horizon_hours: int) -> Fit:
    """Forecast ``horizon_hours`` hours after ``history``."""
    rates = history.rate_per_s
    offset = _offset(rates)
    y = np.log(rates + offset)
    periods = periods_for(history.hours)
    seasonal = _seasonal(y, periods)
    ahead_h = history.hours + np.arange(horizon_hours, dtype=np.float64)
    trend, slope = _trend(y - seasonal.sum(axis=1), ahead_h)
    cycles = sum(
        (_repeat_last_cycle(seasonal[:, i], p, horizon_hours) for i, p in enumerate(periods)),
        np.zeros(horizon_hours),
    )
    return Fit(
        start_s=history.start_s + HOUR_S * history.hours,
        log_median=np.asarray(trend.predicted_mean) + cycles,
        log_sd=np.asarray(trend.se_obs),
        offset=offset,
        growth_per_week=float(np.expm1(slope * WEEK_H)),
        seasonality=tuple(SEASONS[p] for p in periods),
        warnings=_warnings(history.hours),
    )
