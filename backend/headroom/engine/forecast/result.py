"""A forecast: the history it came from, the fitted model ahead, the runway and the
backtest."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from headroom.engine.forecast.model import Fit
from headroom.engine.forecast.runway import Backtest
from headroom.engine.forecast.series import HourlySeries


@dataclass(frozen=True)
class Forecast:
    history: HourlySeries
    fit: Fit
    limit_per_s: float | None
    runway: date | None
    backtest: Backtest | None
