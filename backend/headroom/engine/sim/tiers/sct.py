"""Concurrency-aware pool sizing for tiered runs (docs/methods/concurrency.md, "in the simulator").

The loop keeps, per VM, the SCT interval statistics of the last window (slot releases,
the integral of slots in use, the slot-holding time of the releases); from them this
module forms the (n, mean TP_n, mean RT_n) levels exactly as ``capacity.sct.sct_levels``
does from a latency trace, and fits the three stages with ``capacity.sct.sct_result``.

After every scaling action of the scaled tier, :class:`SctPoolSizer` re-runs SCT on
every active VM of each downstream tier and sets its pool limit (the excess waits in the
VM's accept queue, where it adds no overhead):
1. When the window shows the stable stage, the pool is Q_lower (and the VM's optimum
   counts as found): SCT placed Q_lower, at least ``PLATEAU_LEVELS`` observed levels lie
   above it, and the fitted stage past it rises at most ``FLAT`` x the ascending slope
   (a falling "stable" stage, the overhead model's gradual descent, confirms the peak).
2. Otherwise, while the VM's optimum has not been found, if throughput still rises over
   the top quarter of the observed levels and the window reached the pool limit (or
   there is none), the peak lies above the levels seen: the pool becomes ``EXPLORE`` x
   the top level, room for the next window to see it without letting the concurrency
   run away; never above Q_upper when SCT placed one (throughput falls past it).
3. Otherwise, while the VM's optimum has not been found, Q_lower read off the levels
   directly (its definition: the smallest level reaching TP_max, here within
   ``NEAR_MAX`` of the best level's throughput) when ``PLATEAU_LEVELS`` observed
   levels above it hold that throughput; the optimum then counts as found.
4. Otherwise the pool stays as it is: too few levels, or an optimum already found and a
   window that the pool capped (levels up to the pool cannot show the peak again, and
   SCT reads a capped window's top low; so a pool at Q_lower is not ratcheted down).
No rule sets a pool below the VM's core count (fewer slots than cores leave cores
idle by construction: a quiet window's levels show a plateau the offered load sets).
:class:`FixedPools` is the hardware-only null policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from headroom.engine.sim.scenario import ConcurrencyAwarePolicy
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.vms import flush, set_pool

if TYPE_CHECKING:
    from headroom.engine.capacity.sct import SctLevels, SctResult

PLATEAU_LEVELS = 2
EXPLORE = 2
NEAR_MAX = 0.95  # rule 3: the smallest level within 5% of the best throughput
FLAT = 0.25  # a stable stage rises at most this fraction of the ascending slope
ALPHA = 0.05


@dataclass(frozen=True)
class PoolChange:
    t_s: float
    tier: str
    vm: int
    from_pool: int | None  # None: unbounded
    to_pool: int
    rule: str  # "q_lower", "explore" or "levels" (rules 1, 2, 3)
    q_lower: int | None  # SCT's estimates over the window (None: not placed)
    q_upper: int | None


def levels_from_intervals(
    completions: S.F64, area_s: S.F64, latency_s: S.F64, width_s: float, min_intervals: int
) -> SctLevels:
    """Per rounded concurrency level (>= 1, with at least ``min_intervals`` intervals):
    mean throughput and mean response time of the intervals after one at that level
    (sct.md step 2; capacity.sct.sct_levels says why the next interval)."""
    from headroom.engine.capacity.sct import SctLevels  # loads polars: only as SCT runs

    completions, latency_s = completions[1:], latency_s[1:]
    tp = completions / width_s
    level = np.rint(area_s[:-1] / width_s).astype(np.int64)
    per = np.bincount(level)
    tp_mean = np.bincount(level, weights=tp) / np.maximum(per, 1)
    done = completions > 0
    rt_sum = np.bincount(
        level[done], weights=latency_s[done] / completions[done], minlength=per.size
    )
    rt_n = np.bincount(level[done], minlength=per.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        rt_mean = np.where(rt_n > 0, rt_sum / rt_n, np.nan)
    keep = np.flatnonzero((per >= min_intervals) & (np.arange(per.size) > 0))
    return SctLevels(
        keep.astype(np.int64), tp_mean[keep], rt_mean[keep], per[keep].astype(np.int64)
    )


def window_intervals(state: S.TierState, v: int, n_window: int) -> S.F64:
    """VM v's complete intervals of the last window, oldest first: rows of R_*."""
    ring = state.ring[v]
    k_now = int(state.vi[v, S.VI_SCT_K])
    ks = np.arange(max(k_now - min(n_window, len(ring) - 1), 0), k_now)
    return ring[ks % len(ring)]


def vm_sct(state: S.TierState, v: int, n_window: int, min_intervals: int) -> SctResult:
    """SCT of VM v over its last window (flush the state to the decision time first)."""
    # Loaded here, as SCT runs: it loads polars, which other runs lack.
    from headroom.engine.capacity.sct import sct_result

    rows = window_intervals(state, v, n_window)
    width = float(state.fp[S.FP_SCT_S])
    levels = levels_from_intervals(
        rows[:, S.R_COMPLETIONS], rows[:, S.R_AREA], rows[:, S.R_LATENCY], width, min_intervals
    )
    return sct_result(str(v), levels, ALPHA)


def usable_q_lower(result: SctResult) -> int | None:
    """Q_lower when the window shows the stable stage past it, else None."""
    q, fit = result.q_lower, result.fit
    if q is None or fit is None or result.levels.n.size == 0:
        return None
    if int(result.levels.n.max()) < q + PLATEAU_LEVELS:
        return None
    rise, stable = fit.slopes_per_s[0], fit.slopes_per_s[1]
    return int(q) if rise > 0 and stable <= FLAT * rise else None


def still_rising(result: SctResult) -> bool:
    """Throughput over the top quarter of the observed levels grows at least half as
    fast as proportionally to the level (the ascending stage continues past them)."""
    n, tp = result.levels.n, result.levels.throughput_per_s
    low = n >= 0.75 * n[-1]
    if low.all() or tp[low][0] <= 0:
        return False
    growth = tp[-1] / tp[low][0] - 1
    return bool(growth >= 0.5 * (n[-1] / n[low][0] - 1))


def levels_q_lower(result: SctResult) -> int | None:
    """Rule 3: the smallest level within ``NEAR_MAX`` of the best throughput, when at
    least ``PLATEAU_LEVELS`` observed levels above it hold that throughput."""
    n, tp = result.levels.n, result.levels.throughput_per_s
    q = int(n[np.argmax(tp >= NEAR_MAX * tp.max())])
    return q if int(n[-1]) >= q + PLATEAU_LEVELS else None


def explore_pool(result: SctResult, pool: int) -> int | None:
    """Rule 2's pool: ``EXPLORE`` x the top level when the window reached the pool (or
    there is none), never above SCT's Q_upper when the window placed one: past Q_upper
    throughput falls, so the peak cannot lie there however the top levels read."""
    top = int(result.levels.n[-1])
    if pool < S.UNBOUNDED and top < pool:
        return None
    if result.q_upper is not None:
        return min(EXPLORE * top, int(result.q_upper))
    return EXPLORE * top


def choose_pool(result: SctResult, pool: int, found: bool) -> tuple[int | None, str]:
    """The new pool limit of a VM (None: keep it) and the rule that set it."""
    if result.levels.n.size == 0:
        return None, "keep"
    if found and int(result.levels.n[-1]) >= pool:
        return None, "keep"  # the pool capped this window: it cannot show a higher peak
    q = usable_q_lower(result)
    if q is not None:
        return q, "q_lower"
    if found or result.levels.n.size < 2:
        return None, "keep"
    if still_rising(result):
        return explore_pool(result, pool), "explore"
    return levels_q_lower(result), "levels"


class PoolSizer(Protocol):
    def after_action(
        self, state: S.TierState, now_s: float
    ) -> tuple[S.TierState, list[PoolChange]]: ...


class FixedPools:
    """Hardware-only scaling: pool limits stay as configured."""

    def after_action(
        self, state: S.TierState, now_s: float
    ) -> tuple[S.TierState, list[PoolChange]]:
        return state, []


class SctPoolSizer:
    """Re-run SCT on the downstream tiers' VMs and set their pools to Q_lower."""

    def __init__(self, cfg: ConcurrencyAwarePolicy, downstream: dict[int, str]) -> None:
        self.cfg, self.downstream = cfg, downstream
        self.n_window = max(1, round(cfg.sct_window_s / cfg.sct_interval_s))
        self.found: set[int] = set()  # VMs whose optimum SCT has located

    def after_action(
        self, state: S.TierState, now_s: float
    ) -> tuple[S.TierState, list[PoolChange]]:
        flush(S.world(state), now_s)
        changes = []
        for t, name in self.downstream.items():
            first, count = int(state.tp[t, S.TP_FIRST]), int(state.tp[t, S.TP_COUNT])
            for v in range(first, first + count):
                if state.vi[v, S.VI_STATE] == S.VM_ACTIVE:
                    state, change = self._resize(state, t, name, v, now_s)
                    if change is not None:
                        changes.append(change)
        return state, changes

    def _resize(
        self, state: S.TierState, t: int, name: str, v: int, now_s: float
    ) -> tuple[S.TierState, PoolChange | None]:
        result = vm_sct(state, v, self.n_window, self.cfg.sct_min_intervals)
        old = int(state.vi[v, S.VI_SLOTS])
        q, rule = choose_pool(result, old, v in self.found)
        if q is not None:
            # Fewer slots than cores leave cores idle by construction: a plateau below the
            # core count is the offered load's (a quiet window), not the server's.
            q = max(q, int(state.tp[t, S.TP_CORES]))
        if rule != "explore" and q is not None:
            self.found.add(v)
        if q is None or q == old:
            return state, None
        state = S.room(state, heap=2, vm_heap=int(state.ic[S.IC_NSRV_PEAK]) + q + 1)
        set_pool(S.world(state), v, q, now_s)
        state.tp[t, S.TP_POOL] = q  # VMs this tier allocates later start with it
        before = None if old >= S.UNBOUNDED else old
        return state, PoolChange(now_s, name, v, before, q, rule, result.q_lower, result.q_upper)
