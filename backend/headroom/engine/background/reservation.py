"""Background work next to a latency-sensitive foreground (docs/methods/concurrency.md): the
adaptive reservation controller and the do-nothing, suspend and static-cap baselines, run over a
foreground CPU-demand series (busy fraction of the machine per scheduling round).

Machine model per round (two scheduling groups, the background always has work):
demand d = new foreground demand + the foreground backlog; the background gets
bg = min(quota, max(1/2, 1 - d)) (fair share between the groups, the background capped
by its quota), the foreground fg = min(d, 1 - bg); the rest of d is carried over (FIFO)
and the machine idles 1 - fg - bg. Every policy sets the quota before the round from what
it saw in earlier rounds: "none" never caps (quota 1), "suspend" drops to 0 after a round
with foreground use at or above its threshold, "static" is a constant, "adaptive" is the
controller below, fed only the machine's idle fraction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
POLICIES = ("none", "suspend", "static", "adaptive")
NONE, SUSPEND, STATIC, ADAPTIVE = 0, 1, 2, 3
IDLE_ZERO = 1e-9  # idle at or below this is "no idle time at all" (float rounding)


@dataclass(frozen=True)
class ReservationParams:
    min_reserve_band: float = 0.02  # fraction of the machine kept idle per multiplier unit
    min_multiplier: float = 1.0
    max_multiplier: float = 16.0
    overload_threshold: int = 4  # consecutive zero-idle rounds tolerated
    suspend_threshold: float = 0.25  # foreground use from which "suspend" stops background
    static_quota: float | None = None  # None: 1 - the foreground's worst-case demand

    def __post_init__(self) -> None:
        if not 0 <= self.min_reserve_band < 1:
            raise ValueError(f"min_reserve_band must be in [0, 1), got {self.min_reserve_band}")
        if not 1 <= self.min_multiplier <= self.max_multiplier:
            raise ValueError("need 1 <= min_multiplier <= max_multiplier")
        if self.overload_threshold < 0:
            raise ValueError(f"overload_threshold must be >= 0, got {self.overload_threshold}")
        if self.static_quota is not None and not 0 <= self.static_quota <= 1:
            raise ValueError(f"static_quota must be in [0, 1], got {self.static_quota}")


@dataclass(frozen=True)
class Rounds:
    """Per scheduling round, fractions of the whole machine."""

    quota: FloatArray
    background: FloatArray
    foreground: FloatArray  # foreground CPU served
    idle: FloatArray
    backlog: FloatArray  # foreground demand carried to the next round


@njit(cache=True)
def adaptive_step(ctl: FloatArray, idle: float, params: FloatArray) -> float:
    """The spec's controller; ctl = [quota, multiplier, overload]; params = [band,
    min_multiplier, max_multiplier, overload_threshold]. Returns the new quota."""
    quota, multiplier, overload = ctl[0], ctl[1], ctl[2]
    if idle <= IDLE_ZERO:
        overload += 1.0
        multiplier = min(2.0 * multiplier, params[2])
    else:
        overload = 0.0
        multiplier = max(multiplier - 1.0, params[1])
    if overload > params[3]:
        overload, quota, multiplier = 0.0, 0.0, params[2]
    else:
        quota = quota + (idle - multiplier * params[0])
    ctl[0], ctl[1], ctl[2] = min(max(quota, 0.0), 1.0), multiplier, overload
    return ctl[0]


@njit(cache=True)
def _next_quota(policy: int, ctl: FloatArray, cfg: FloatArray, idle: float, fg: float) -> float:
    if policy == NONE:
        return 1.0
    if policy == SUSPEND:
        return 0.0 if fg >= cfg[5] else 1.0
    if policy == STATIC:
        return cfg[4]
    return adaptive_step(ctl, idle, cfg)


@njit(cache=True)
def run_rounds(demand: FloatArray, policy: int, cfg: FloatArray) -> FloatArray:
    """Rows: quota, background, foreground, idle, backlog; one column per round.
    cfg = [band, min_multiplier, max_multiplier, overload_threshold, static_quota,
    suspend_threshold]."""
    out = np.empty((5, demand.size))
    ctl = np.array([0.0, cfg[1], 0.0])
    quota = 0.0 if policy == ADAPTIVE else _next_quota(policy, ctl, cfg, 1.0, 0.0)
    backlog = 0.0
    for t in range(demand.size):
        d = demand[t] + backlog
        bg = min(quota, max(0.5, 1.0 - d))
        fg = min(d, 1.0 - bg)
        backlog = d - fg
        idle = max(0.0, 1.0 - fg - bg)
        out[0, t], out[1, t], out[2, t], out[3, t], out[4, t] = quota, bg, fg, idle, backlog
        quota = _next_quota(policy, ctl, cfg, idle, fg)
    return out


def simulate(demand: FloatArray, policy: str, params: ReservationParams) -> Rounds:
    """Run one policy over a foreground demand series (values in [0, 1])."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    demand = np.ascontiguousarray(demand, dtype=np.float64)
    static = params.static_quota
    if static is None:
        static = max(0.0, 1.0 - float(demand.max(initial=0.0)))
    cfg = np.array(
        [
            params.min_reserve_band,
            params.min_multiplier,
            params.max_multiplier,
            params.overload_threshold,
            static,
            params.suspend_threshold,
        ]
    )
    rows = run_rounds(demand, POLICIES.index(policy), cfg)
    return Rounds(*rows)
