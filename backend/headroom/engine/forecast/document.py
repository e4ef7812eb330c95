"""The forecast as a JSON document: the contract of `headroom forecast --json` and of the
API's dataset forecast (docs/api.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from headroom.engine.forecast.model import INTERVAL

if TYPE_CHECKING:
    from headroom.engine.forecast.result import Forecast


def iso(t_s: float) -> str:
    return datetime.fromtimestamp(t_s, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _points(times_s: np.ndarray, *columns: tuple[str, np.ndarray]) -> list[dict[str, Any]]:
    rows = zip(times_s.tolist(), *(np.round(c, 6).tolist() for _, c in columns), strict=True)
    names = [name for name, _ in columns]
    return [{"t": iso(t), **dict(zip(names, values, strict=True))} for t, *values in rows]


def to_document(result: Forecast, horizon_days: int) -> dict[str, Any]:
    """Keys: ``forecast`` (hourly ``{t, rate_per_s, lo, hi}``), ``history`` (hourly
    ``{t, rate_per_s}``), ``growth``, ``seasonality``, ``runway``, ``backtest``, and the
    horizon, the interval and the warnings."""
    ahead, check = result.fit, result.backtest
    peak = float(ahead.rate_per_s.max()) if len(ahead.rate_per_s) else 0.0
    return {
        "horizon_days": horizon_days,
        "interval": INTERVAL,
        "forecast": _points(
            ahead.times_s(),
            ("rate_per_s", ahead.rate_per_s),
            ("lo", ahead.lo_per_s),
            ("hi", ahead.hi_per_s),
        ),
        "history": _points(result.history.times_s(), ("rate_per_s", result.history.rate_per_s)),
        "peak_per_s": round(peak, 4),
        "growth": {"per_week": round(ahead.growth_per_week, 6)},
        "seasonality": {s: s in ahead.seasonality for s in ("daily", "weekly")},
        "runway": {
            "limit_per_s": result.limit_per_s,
            "date": result.runway.isoformat() if result.runway else None,
        },
        "backtest": None if check is None else {"mape": round(check.mape, 6), "hours": check.hours},
        "warnings": list(ahead.warnings),
    }
