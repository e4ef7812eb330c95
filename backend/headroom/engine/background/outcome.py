"""What a background policy costs and yields over a run (docs/methods/concurrency.md outputs)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import NDArray

from headroom.engine.background.reservation import Rounds

FloatArray = NDArray[np.float64]
_EPS = 1e-12


@dataclass(frozen=True)
class BackgroundOutcome:
    background_cpu_fraction: float  # mean background share of the machine
    idle_fraction: float  # mean idle share
    foreground_delayed_fraction: float  # foreground work not served in the round it arrived
    foreground_delay_p95_s: float  # p95 over rounds with demand of the extra delay

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def delays_s(demand: FloatArray, rounds: Rounds, round_s: float) -> FloatArray:
    """Extra delay of each round's last unit of demand, served FIFO: it is done when the
    cumulative foreground service reaches the cumulative demand (service spread evenly
    within a round; past the end of the series, the whole machine serves the backlog)."""
    arrived = np.cumsum(demand)
    served = np.cumsum(rounds.foreground)
    done_round = np.searchsorted(served, arrived - _EPS, side="left")
    n = demand.size
    inside = done_round < n
    u = np.minimum(done_round, n - 1)
    before = np.where(u > 0, served[np.maximum(u - 1, 0)], 0.0)
    step = np.maximum(rounds.foreground[u], _EPS)
    finish = np.where(
        inside,
        (u + np.clip((arrived - before) / step, 0.0, 1.0)) * round_s,
        (n + np.maximum(arrived - served[-1], 0.0)) * round_s,
    )
    due = (np.arange(n) + 1.0) * round_s
    return np.where(rounds.backlog > _EPS, np.maximum(finish - due, 0.0), 0.0)


def outcome(demand: FloatArray, rounds: Rounds, round_s: float) -> BackgroundOutcome:
    carried = np.concatenate(([0.0], rounds.backlog[:-1]))
    new_served = np.minimum(demand, np.maximum(rounds.foreground - carried, 0.0))
    total = float(demand.sum())
    delayed = float((demand - new_served).sum()) / total if total > 0 else 0.0
    busy = demand > 0
    delays = delays_s(demand, rounds, round_s)[busy]
    return BackgroundOutcome(
        background_cpu_fraction=float(rounds.background.mean()),
        idle_fraction=float(rounds.idle.mean()),
        foreground_delayed_fraction=delayed,
        foreground_delay_p95_s=float(np.percentile(delays, 95)) if delays.size else 0.0,
    )
