import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from headroom.datasets.slices_params import SliceIn
from headroom.simulations.scenario_json import ScenarioJson


class ForecastPoint(BaseModel):
    t: dt.datetime = Field(description="start of the hour (UTC)")
    rate_per_s: float = Field(description="median forecast of the hour's mean rate")
    lo: float = Field(description="lower end of the 80% interval (req/s)")
    hi: float = Field(description="upper end of the 80% interval (req/s)")


class HistoryPoint(BaseModel):
    t: dt.datetime
    rate_per_s: float


class Growth(BaseModel):
    per_week: float = Field(description="growth of the trend per week, as a fraction")


class Seasonality(BaseModel):
    daily: bool
    weekly: bool


class Runway(BaseModel):
    limit_per_s: float | None = Field(description="the rate the site holds; null: none known")
    date: dt.date | None = Field(description="first day the forecast peak passes the limit")
    limit_source: str | None = Field(
        default=None, description="where the limit comes from (given, or the analysis)"
    )


class BacktestOut(BaseModel):
    mape: float = Field(description="mean absolute percentage error, as a fraction")
    hours: int = Field(description="hours forecast (the last 20% of the history)")


class NotEnoughHistory(BaseModel):
    """Why no forecast is made, with what the history holds."""

    reason: Literal["too_short", "too_sparse"] = Field(
        description="too_short: under two hours of history; too_sparse: no more than half "
        "of its hours hold traffic (the forecast would read the empty hours as the level)"
    )
    requests: int | None = Field(description="requests in the history; null: a rate series")
    span_s: float = Field(description="seconds the history covers")
    message: str


class ForecastOut(BaseModel):
    dataset_id: int
    horizon_days: int
    interval: float
    forecast: list[ForecastPoint]
    history: list[HistoryPoint]
    peak_per_s: float | None = Field(description="null: not enough history")
    growth: Growth | None = Field(description="null: not enough history")
    seasonality: Seasonality | None = Field(description="null: not enough history")
    runway: Runway | None = Field(description="null: not enough history")
    backtest: BacktestOut | None
    warnings: list[str]
    history_slice: SliceIn | None = Field(
        None,
        description="the range and filters the history was cut to; null: the whole history",
    )
    peak_week_scenario: ScenarioJson | None = Field(
        description="a scenario of the forecast's peak week (linear arrival profile); "
        "null: not enough history"
    )
    not_enough_history: NotEnoughHistory | None = Field(
        None, description="why there is no forecast (every figure null); null: there is one"
    )
