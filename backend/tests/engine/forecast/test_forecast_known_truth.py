"""Known truth: per-minute traffic generated with a set weekly growth, daily and weekly
cycles and noise; the forecast's daily peaks, growth and runway are checked against the
generating function (docs/methods/forecast.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import numpy as np
import pytest

from headroom.engine.forecast import daily_peaks, forecast, hourly
from headroom.engine.forecast.series import HOUR_S

WEEK_S, DAY_S = 7 * 86400.0, 86400.0
START_S = datetime(2026, 1, 5, tzinfo=UTC).timestamp()  # a Monday
GROWTH = 0.05  # per week: 0.7% a day, so 3 days of runway are 2% of peak


def true_rate(t_s: np.ndarray, weekly: bool = True) -> np.ndarray:
    """100 req/s growing 5% a week; a daily cycle peaking at 14:00 UTC (x1.5 at the peak,
    x0.5 at 02:00); weekends at 70% of weekdays."""
    age = t_s - START_S
    day = 1.0 + 0.5 * np.cos(2 * np.pi * ((t_s % DAY_S) / DAY_S - 14 / 24))
    weekday = np.floor(((t_s / DAY_S) + 3) % 7)  # 0 = Monday
    week = np.where((weekday >= 5) & weekly, 0.7, 1.0)
    return 100.0 * (1 + GROWTH) ** (age / WEEK_S) * day * week


def minutes(days: int, seed: int, weekly: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Per-minute rates: Poisson counts of the true rate times lognormal noise (5%)."""
    rng = np.random.default_rng(seed)
    t = START_S + 60.0 * np.arange(days * 1440)
    noisy = true_rate(t + 30.0, weekly) * rng.lognormal(0.0, 0.05, len(t))
    return t, rng.poisson(noisy * 60.0) / 60.0


def true_hourly(t0_s: float, hours: int, weekly: bool = True) -> np.ndarray:
    t = t0_s + 60.0 * np.arange(hours * 60) + 30.0
    return true_rate(t, weekly).reshape(hours, 60).mean(axis=1)


def first_day_over(times_s: np.ndarray, rates: np.ndarray, limit: float) -> date | None:
    starts, peaks = daily_peaks(times_s, rates)
    over = np.flatnonzero(peaks > limit)
    return datetime.fromtimestamp(starts[over[0]], UTC).date() if over.size else None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_six_weeks_forecast_eight(seed: int) -> None:
    """Six weeks of history, eight ahead: each forecast day's peak within 10% of the true
    day's peak, the growth within a percentage point, both cycles found, the runway to a
    limit the true peaks pass in the fifth week ahead within 3 days of the true day."""
    history = hourly(*minutes(42, seed))
    truth = true_hourly(history.start_s + history.hours * HOUR_S, 56 * 24)
    times = history.start_s + HOUR_S * (history.hours + np.arange(56 * 24))
    limit = float(daily_peaks(times, truth)[1][30])  # the true peak of day 31 ahead
    result = forecast(history, 56, limit)
    assert result.fit.seasonality == ("daily", "weekly") and result.fit.warnings == ()
    _, got = daily_peaks(result.fit.times_s(), result.fit.rate_per_s)
    _, want = daily_peaks(times, truth)
    assert np.max(np.abs(got / want - 1)) < 0.10
    assert result.fit.growth_per_week == pytest.approx(GROWTH, abs=0.01)
    expected = first_day_over(times, truth, limit)
    assert expected is not None and result.runway is not None
    assert abs((result.runway - expected).days) <= 3
    assert result.backtest is not None and result.backtest.mape < 0.10


def test_interval_covers_about_eighty_percent() -> None:
    """The 80% interval is for the hourly rates that will be observed: on the two weeks
    that follow six weeks of history (same generator, noise included) it holds between
    65% and 95% of the hours (336 hours, correlated within a day: a loose band)."""
    whole = hourly(*minutes(56, 4))
    history = whole.head(42 * 24)
    result = forecast(history, 14, None)
    actual = whole.rate_per_s[42 * 24 :]
    inside = (result.fit.lo_per_s <= actual) & (actual <= result.fit.hi_per_s)
    assert 0.65 <= inside.mean() <= 0.95
    assert (result.fit.lo_per_s <= result.fit.rate_per_s).all()
    assert (result.fit.rate_per_s <= result.fit.hi_per_s).all()


def test_ten_days_get_no_weekly_cycle() -> None:
    """Under two weeks: a warning, the daily cycle only, never a weekly one; on traffic
    with no weekly cycle the peaks are still within 10%."""
    history = hourly(*minutes(10, 5, weekly=False))
    result = forecast(history, 14, None)
    assert result.fit.seasonality == ("daily",)
    assert "under two weeks" in result.fit.warnings[0]
    truth = true_hourly(history.start_s + history.hours * HOUR_S, 14 * 24, weekly=False)
    times = result.fit.times_s()
    got, want = daily_peaks(times, result.fit.rate_per_s)[1], daily_peaks(times, truth)[1]
    assert np.max(np.abs(got / want - 1)) < 0.10


def test_no_runway_when_the_limit_is_never_passed() -> None:
    result = forecast(hourly(*minutes(21, 6)), 7, 10_000.0)
    assert result.runway is None and result.limit_per_s == 10_000.0
