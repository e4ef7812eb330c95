"""Numbers in the recommendations' sentences, written as the web UI writes them (en-US,
frontend/src/lib/format.ts): rounding half away from zero on the exact value, thousands
separators, trailing zeros dropped."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal


def decimal(value: float, digits: int = 1) -> str:
    """Up to ``digits`` decimals, trailing zeros dropped: 1234.5 -> "1,234.5", 20.0 -> "20"."""
    if not math.isfinite(value):
        return "—"
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{rounded:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def rate_per_s(per_s: float) -> str:
    return f"{decimal(per_s, 2 if per_s < 10 else 1)} req/s"


def latency(seconds: float) -> str:
    """In the unit that suits it: µs, ms or s."""
    if seconds < 0.001:
        return f"{decimal(seconds * 1e6, 0)} µs"
    if seconds < 1:
        return f"{decimal(seconds * 1000, 2 if seconds < 0.01 else 1)} ms"
    return f"{decimal(seconds, 2)} s"


def percent(fraction: float, digits: int = 1) -> str:
    pct = fraction * 100
    if pct == 0:
        return "0%"
    if abs(pct) < 0.1:
        return f"{pct:#.2g}%"
    return f"{decimal(pct, digits)}%"


def duration(seconds: float) -> str:
    """ "850 ms", "45 s", "3 min 20 s", "2 h 14 min", "3 d 4 h"."""
    s = max(0.0, seconds)
    if s < 1:
        return f"{decimal(s * 1000, 0)} ms"
    if s < 60:
        return f"{decimal(s, 1 if s < 10 else 0)} s"
    parts = [
        (int(s // 86400), "d"),
        (int(s % 86400 // 3600), "h"),
        (int(s % 3600 // 60), "min"),
        (int(s % 60), "s"),
    ]
    first = next(i for i, (n, _) in enumerate(parts) if n > 0)
    return " ".join(f"{n} {unit}" for n, unit in parts[first : first + 2] if n > 0)


def percentile_label(percentile: float) -> str:
    return f"p{decimal(percentile, 1)}"
