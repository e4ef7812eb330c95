"""Numbers with their units, for the exports (the UI has its own formatters)."""

import math
from datetime import UTC, datetime

from headroom.reports.schemas import Unit


def format_value(value: float | None, unit: Unit) -> str:
    if value is None or not math.isfinite(value):
        return "—"
    if unit == "time":
        return datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%d %H:%M UTC")
    if unit == "fraction":
        return f"{100 * value:.3g} %"
    if unit == "s":
        return f"{1000 * value:.3g} ms" if abs(value) < 1 else f"{value:.4g} s"
    if unit in ("count", "bytes") and float(value).is_integer():
        return f"{int(value):,}{' B' if unit == 'bytes' else ''}"
    suffix = "" if unit in ("count", "ratio", "cost") else f" {unit}"
    return f"{value:.4g}{suffix}"


def unit_label(unit: Unit) -> str:
    """The unit as an axis title shows it."""
    return {"time": "UTC", "cost": "price x VM-hours"}.get(unit, unit)


def format_tick(value: float, unit: Unit) -> str:
    """Short axis labels: no unit (the axis title carries it), times as HH:MM."""
    if unit == "time":
        return datetime.fromtimestamp(value, UTC).strftime("%H:%M")
    if unit == "fraction":
        return f"{100 * value:.3g}%"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round ticks (1, 2, 2.5 or 5 x 10^k apart) covering [low, high]."""
    if not high > low:
        return [low] if math.isfinite(low) else [0.0]
    raw = (high - low) / count
    base = 10 ** math.floor(math.log10(raw))
    step = next(m * base for m in (1, 2, 2.5, 5, 10) if m * base >= raw * (1 - 1e-9))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(i * step, 12) for i in range(first, last + 1)]


def time_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Ticks on round UTC minutes, hours or days covering [low, high] (epoch seconds)."""
    steps = [60 * m for m in (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440)]
    step = next((s for s in steps if (high - low) / s <= count), 86400 * 7)
    return [float(t) for t in range(math.ceil(low / step) * step, int(high) + 1, step)]
