"""All four background policies over one foreground series, with chart series."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from headroom.engine.background.outcome import outcome
from headroom.engine.background.reservation import POLICIES, ReservationParams, simulate
from headroom.engine.background.series import DemandSeries, demand_from_rates, parse_series

FloatArray = NDArray[np.float64]
MAX_POINTS = 600  # chart points per series


def bucket_means(values: FloatArray, points: int = MAX_POINTS) -> FloatArray:
    """Means over equal buckets: at most `points` values, each a few rounds wide."""
    width = max(1, -(-values.size // points))
    pad = (-values.size) % width
    padded = np.concatenate((values, np.full(pad, np.nan)))
    return np.asarray(np.nanmean(padded.reshape(-1, width), axis=1), dtype=np.float64)


def compare(series: DemandSeries, params: ReservationParams) -> dict[str, Any]:
    demand = series.busy_fraction
    chart: dict[str, list[float]] = {
        "t_s": bucket_means(series.t_s).tolist(),
        "demand": bucket_means(demand).tolist(),
    }
    results = {}
    for policy in POLICIES:
        rounds = simulate(demand, policy, params)
        results[policy] = outcome(demand, rounds, series.round_s).to_dict()
        chart[f"quota_{policy}"] = bucket_means(rounds.quota).tolist()
        chart[f"background_{policy}"] = bucket_means(rounds.background).tolist()
    return {
        "round_s": series.round_s,
        "rounds": int(demand.size),
        "policies": results,
        "series": chart,
    }


def compare_csv(
    text: str, static_quota: float | None, min_multiplier: float, rates: bool = False
) -> dict[str, Any]:
    """Entry point for a spawned process (the API never imports numba itself). `rates`:
    the text is a `t_s, rate_per_s` profile, turned into demand by `demand_from_rates`."""
    series = demand_from_rates(text) if rates else parse_series(text)
    params = ReservationParams(
        static_quota=static_quota,
        min_multiplier=min_multiplier,
        max_multiplier=max(16.0, min_multiplier),
    )
    return compare(series, params)
