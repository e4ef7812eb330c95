"""The hourly grid, the runway rule and the backtest on hand-worked inputs, and the real
rate series of data/rates (see NOTICE) forecast without error."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import pytest

from headroom.engine.forecast import ForecastInputError, forecast, hourly
from headroom.engine.forecast.model import Fit
from headroom.engine.forecast.runway import runway_date
from headroom.engine.logs.rates import read_rate_series

RATES = Path(__file__).resolve().parents[4] / "data" / "rates"
T0 = datetime(2026, 3, 1, tzinfo=UTC).timestamp()


def test_hourly_means_and_filled_hours() -> None:
    """Minutes at 2 and 4 req/s in the first hour (mean 3), none in the second (filled
    halfway between its neighbours), 7 req/s in the third."""
    starts = np.array([T0, T0 + 60, T0 + 7200 + 120])
    series = hourly(starts, np.array([2.0, 4.0, 7.0]))
    assert series.start_s == T0 and series.filled == 1
    assert series.rate_per_s.tolist() == [3.0, 5.0, 7.0]


def test_hourly_refuses_what_it_cannot_forecast() -> None:
    with pytest.raises(ForecastInputError, match="empty"):
        hourly(np.array([]), np.array([]))
    with pytest.raises(ForecastInputError, match="two hours"):
        hourly(np.array([T0, T0 + 60]), np.array([1.0, 2.0]))
    with pytest.raises(ForecastInputError, match="non-negative"):
        hourly(np.array([T0, T0 + 3600]), np.array([1.0, -2.0]))


def test_runway_is_the_first_day_whose_peak_passes() -> None:
    """Three days of hourly medians: day 1 peaks at 90, day 2 at 99 (not past a limit
    of 100), day 3 at 101: the runway to 100 is day 3, to 95 day 2, to 200 none."""
    rates = np.full(72, 50.0)
    rates[[13, 24 + 13, 48 + 13]] = [90.0, 99.0, 101.0]
    ahead = Fit(T0, np.log(rates + 1.0), np.zeros(72), 1.0, 0.0, (), ())
    assert np.allclose(ahead.rate_per_s, rates)
    assert runway_date(ahead, 100.0) == date(2026, 3, 3)
    assert runway_date(ahead, 95.0) == date(2026, 3, 2)
    assert runway_date(ahead, 200.0) is None


def test_backtest_of_a_constant_series_is_exact() -> None:
    """A constant rate has nothing to get wrong: a backtest error of 0."""
    t = T0 + 60.0 * np.arange(3 * 1440)
    result = forecast(hourly(t, np.full(len(t), 20.0)), 2, 19.0)
    assert result.backtest is not None and result.backtest.mape == pytest.approx(0, abs=1e-9)
    assert np.allclose(result.fit.rate_per_s, 20.0) and result.runway == date(2026, 3, 4)


@pytest.mark.parametrize(
    ("name", "seasons"),
    [
        ("worldcup98_requests_per_minute_utc.csv.gz", ("daily", "weekly")),
        ("sdsc_http_requests_per_minute.tsv", ()),
        ("nginxplus_request_rate_derived.csv", ()),
    ],
)
def test_real_rate_series(name: str, seasons: tuple[str, ...]) -> None:
    """The 88 days of the 1998 World Cup site show both cycles; the one-day SDSC trace and
    the 42-minute counter series are too short for any and say so."""
    rates = read_rate_series(RATES / name)
    result = forecast(hourly(rates.start_s, rates.rate_per_s), 14, None)
    assert result.fit.seasonality == seasons
    assert bool(result.fit.warnings) == (seasons == ())
    assert len(result.fit.rate_per_s) == 14 * 24
    assert np.isfinite(result.fit.hi_per_s).all() and (result.fit.lo_per_s >= 0).all()


def test_peak_week_starts_the_midnight_before_the_busiest_hour() -> None:
    """20 days from 05:00 UTC, flat but for hour 243 (day 10, 08:00): the week starts 8
    hours before it, at index 235; the scenario replays those 168 hours at their rates,
    linearly, and validates as a scenario."""
    from headroom.engine.forecast.scenario import peak_week, peak_week_scenario
    from headroom.engine.sim.scenario import Scenario

    rates = np.ones(24 * 20)
    rates[243] = 9.0
    ahead = Fit(T0 + 5 * 3600, np.log(rates + 1.0), np.zeros(len(rates)), 1.0, 0.0, (), ())
    assert peak_week(ahead) == (235, 235 + 168)
    scenario = peak_week_scenario(ahead, "peak week")
    profile = scenario["workload"]["arrivals"]["profile"]
    assert len(profile) == 168 and profile[8] == [8 * 3600.0, pytest.approx(9.0)]
    assert scenario["duration_s"] == 168 * 3600
    valid = Scenario.model_validate(scenario)
    assert valid.workload.arrivals.interpolation == "linear"
    assert valid.autoscaling.policy == "predictive" and valid.autoscaling.forecast == [
        tuple(point) for point in profile
    ]
