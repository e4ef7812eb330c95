"""Traffic forecast and runway from a request-rate series (docs/methods/forecast.md)."""

from __future__ import annotations

from headroom.engine.forecast.document import to_document
from headroom.engine.forecast.model import Fit, fit
from headroom.engine.forecast.requests import hourly_from_requests
from headroom.engine.forecast.result import Forecast
from headroom.engine.forecast.runway import Backtest, backtest, daily_peaks, runway_date
from headroom.engine.forecast.series import (
    ForecastInputError,
    HistoryTooShort,
    HourlySeries,
    hourly,
)

__all__ = [
    "Backtest",
    "Fit",
    "Forecast",
    "ForecastInputError",
    "HistoryTooShort",
    "HourlySeries",
    "daily_peaks",
    "forecast",
    "hourly",
    "hourly_from_requests",
    "to_document",
]


def forecast(history: HourlySeries, horizon_days: int, limit_per_s: float | None) -> Forecast:
    """Backtest, fit, forecast ``horizon_days`` days (the interval widened by the
    backtest's log error), find the runway to ``limit_per_s`` when given."""
    if horizon_days < 1:
        raise ForecastInputError("the horizon must be at least one day")
    check = backtest(history)
    ahead = fit(history, horizon_days * 24)
    if check is not None:
        # The line's own error misses the cycles' and the trend's: add the backtest's.
        ahead = ahead.widened(check.log_error_sd)
    runway = runway_date(ahead, limit_per_s) if limit_per_s is not None else None
    return Forecast(history, ahead, limit_per_s, runway, check)
