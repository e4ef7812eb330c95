"""A simulator scenario from a forecast: its peak week as a linear arrival profile on the
reference cluster (docs/methods/forecast.md)."""

from __future__ import annotations

from typing import Any

import numpy as np

from headroom.engine.forecast.model import Fit
from headroom.engine.forecast.series import HOUR_S
from headroom.engine.sim.presets import DEFAULT_SERVICE_S, reference

WEEK_H = 168


def peak_week(ahead: Fit) -> tuple[int, int]:
    """The hours [first, last) of the forecast's peak week: the 7 days from the UTC
    midnight before its busiest hour (earlier when the horizon ends sooner); the whole
    horizon when it is shorter than a week."""
    hours = len(ahead.log_median)
    if hours <= WEEK_H:
        return 0, hours
    busiest = int(np.argmax(ahead.rate_per_s))
    midnight = busiest - int(((ahead.start_s / HOUR_S) + busiest) % 24)
    first = min(max(midnight, 0), hours - WEEK_H)
    return first, first + WEEK_H


def peak_week_scenario(ahead: Fit, name: str) -> dict[str, Any]:
    """Single requests (the forecast counts requests) arriving at the forecast's median
    rate, hour points joined by straight lines, for the peak week; the predictive policy
    scales on the same forecast."""
    first, last = peak_week(ahead)
    rates = ahead.rate_per_s[first:last]
    profile = [[i * HOUR_S, round(float(r), 6)] for i, r in enumerate(rates)]
    scenario = reference()
    scenario["name"] = name
    scenario["duration_s"] = len(rates) * HOUR_S
    scenario["workload"] = {
        "arrivals": {"profile": profile, "interpolation": "linear"},
        "service_s": DEFAULT_SERVICE_S,
    }
    scenario["autoscaling"] = predictive_from(profile, scenario["autoscaling"])
    return scenario


def predictive_from(profile: list[list[float]], reactive: dict[str, Any]) -> dict[str, Any]:
    """The predictive policy fed the forecast itself: VMs for the next hour's forecast peak
    at 60% utilisation, booted ahead of it, the reference's threshold rules on top."""
    return {**reactive, "policy": "predictive", "horizon_s": HOUR_S, "forecast": profile}
