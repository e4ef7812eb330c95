"""A tiered run's SimulationResult (keys documented in runner.py)."""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

import numpy as np

from headroom.engine.sim import partition_stage
from headroom.engine.sim.results import (
    ClassStats,
    LatencyStats,
    LittleCheck,
    RequestTrace,
    ScalingAction,
    SimulationResult,
    TimeSeries,
    VmStats,
    sla_windows,
    utilization_boxes,
)
from headroom.engine.sim.scenario import Admission, Scenario, Tier
from headroom.engine.sim.sketch import COARSE_ALPHA, window_quantile
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.sct import PoolChange
from headroom.engine.sim.version import ENGINE_VERSION


class TieredSimulation(Protocol):
    """What a tiered result reads of its run (tiers.TieredSimulation)."""

    s: Scenario  # the chain run
    source: Scenario  # the scenario as given (a single-tier one runs as a one-tier chain)
    single: bool  # whether the scenario has a single-tier cluster
    seed: int
    scaled: int  # the index of the tier the policy scales
    tiers: list[Tier]
    trace: bool
    admission: Admission  # the stage at the first tier


def _series(sim: TieredSimulation, st: S.TierState) -> TimeSeries:
    s, t = sim.s, sim.scaled
    m = float(st.fp[S.FP_MONITOR_S])
    rate = lambda a: (a / m).astype(np.float32)  # noqa: E731
    return TimeSeries(
        monitor_s=m,
        t_s=np.arange(1, len(st.ts) + 1, dtype=np.float64) * m,
        allocated_vms=st.tt[:, t, S.TT_ALLOCATED].astype(np.int32),
        active_vms=st.tt[:, t, S.TT_ACTIVE].astype(np.int32),
        arrivals_per_s=rate(st.ts[:, S.TS_ARRIVALS]),
        completions_per_s=rate(st.ts[:, S.TS_COMPLETIONS]),
        rejected_per_s=rate(st.ts[:, S.TS_REJECTED]),
        utilization=st.tt[:, t, S.TT_UTILIZATION].copy(),
        waiting=st.ts[:, S.TS_WAITING],
        in_system=st.ts[:, S.TS_IN_SYSTEM],
        # a single-tier result has the p50 and p99 per SLA window (a tiered one keeps its
        # p99 in tier_series)
        **sla_windows(s, float(st.fp[S.FP_WINDOW_S]), st.win, st.winh, sim.single),
    )


def _vm_stats(sim: TieredSimulation, st: S.TierState, t: int, n_actions: int) -> VmStats:
    first, count = int(st.tp[t, S.TP_FIRST]), int(st.tp[t, S.TP_COUNT])
    live = st.vi[first : first + count, S.VI_STATE] != S.VM_FREE
    alloc_t = st.vf[first : first + count, S.VF_ALLOC_T][live]
    hours = (float(st.tf[t, S.TF_VM_SECONDS]) + float(np.sum(sim.s.duration_s - alloc_t))) / 3600
    # The counts are whole numbers kept in a float32 series: averaged as integers, not in
    # float32 (2.76, not 2.759999990463257).
    alloc = st.tt[:, t, S.TT_ALLOCATED].astype(np.int64)
    return VmStats(
        mean_allocated=float(alloc.mean()),
        mean_active=float(st.tt[:, t, S.TT_ACTIVE].astype(np.int64).mean()),
        max_allocated=int(alloc.max()),
        vm_hours=hours,
        cost=hours * sim.tiers[t].price_per_vm_hour,
        scaling_actions=n_actions,
    )


def _little(sim: TieredSimulation, st: S.TierState) -> LittleCheck:
    horizon = sim.s.duration_s
    live = st.ji[:, S.JI_TIER] >= 0
    entered = int(st.ic[S.IC_LEFT] + st.ic[S.IC_IN_SYSTEM])
    residual = float(np.sum(horizon - st.jf[live, S.JF_ARRIVAL]))
    return LittleCheck(
        mean_in_system=float(st.sc[S.SC_AREA]) / horizon,
        arrival_rate_per_s=entered / horizon,
        mean_time_in_system_s=(float(st.sc[S.SC_TIME_SUM]) + residual) / max(entered, 1),
    )


def _classes(sim: TieredSimulation, st: S.TierState) -> tuple[ClassStats, ...]:
    out = []
    for c, spec in enumerate(sim.s.workload.class_list()):
        sums, counts = st.csum[c], st.hists[2 * c].copy()
        lat = LatencyStats.from_sketch(counts, sums[S.CS_LAT_SUM], sums[S.CS_LAT_MAX])
        plt, plt_counts = None, None
        if spec.page is not None:
            plt_counts = st.hists[2 * c + 1].copy()
            plt = LatencyStats.from_sketch(plt_counts, sums[S.CS_PLT_SUM], sums[S.CS_PLT_MAX])
        arrived, rejected = int(sums[S.CS_ARRIVED]), int(sums[S.CS_REJECTED])
        out.append(ClassStats(spec.name, lat, plt, counts, plt_counts, arrived, rejected))
    return tuple(out)


def _overall_plt(st: S.TierState, classes: tuple[ClassStats, ...]) -> LatencyStats | None:
    """Page load times over the classes that load pages."""
    paged = [c for c, k in enumerate(classes) if k.plt is not None]
    if not paged:
        return None
    rows = st.hists[[2 * c + 1 for c in paged]].sum(axis=0)
    sums = st.csum[paged]
    return LatencyStats.from_sketch(
        rows, float(sums[:, S.CS_PLT_SUM].sum()), float(sums[:, S.CS_PLT_MAX].max())
    )


def _pool_value(slots: float) -> int | None:
    return None if slots >= S.UNBOUNDED else int(slots)


def _tier_summary(
    sim: TieredSimulation, st: S.TierState, t: int, latency: LatencyStats, initial: int
) -> dict[str, Any]:
    completed = max(int(st.ic[S.IC_COMPLETED]), 1)
    residence = float(st.tf[t, S.TF_RES_SUM]) / completed
    below = float(st.tf[t + 1, S.TF_RES_SUM]) / completed if t + 1 < len(sim.tiers) else 0.0
    own = residence - below
    first, count = int(st.tp[t, S.TP_FIRST]), int(st.tp[t, S.TP_COUNT])
    pools = st.vi[first : first + count][
        st.vi[first : first + count, S.VI_STATE] != S.VM_FREE, S.VI_SLOTS
    ]
    tt = st.tt[:, t]
    active = tt[:, S.TT_ACTIVE] > 0
    v = _vm_stats(sim, st, t, 0)
    return {
        "vms": {
            "mean_allocated": v.mean_allocated,
            "mean_active": v.mean_active,
            "max_allocated": v.max_allocated,
            "vm_hours": v.vm_hours,
            "cost": v.cost,
        },
        "utilization_mean": float(tt[active, S.TT_UTILIZATION].mean()) if active.any() else 0.0,
        "concurrency_mean": float(tt[active, S.TT_CONCURRENCY].mean()) if active.any() else 0.0,
        "concurrency_peak": int(st.tp[t, S.TP_PEAK_HELD]),
        "residence_s": residence,
        "own_s": own,
        "latency_share": own / latency.mean_s if latency.count and latency.mean_s > 0 else None,
        "pool": {
            "initial": _pool_value(initial),
            "final": [_pool_value(p) for p in pools],
        },
    }


def _tier_series(
    sim: TieredSimulation, st: S.TierState, series: TimeSeries, changes: list[PoolChange]
) -> dict[str, Any]:
    names = ("allocated", "active", "utilization", "concurrency", "waiting", "pool")
    out: dict[str, Any] = {"t_s": series.t_s}
    for t, tier in enumerate(sim.tiers):
        for col, name in enumerate(names):
            out[f"{tier.name}.{name}"] = st.tt[:, t, col].copy()
    n_windows = len(series.window_p95_latency_s)
    out["window_t_s"] = np.arange(n_windows) * series.window_s
    out["window_p99_latency_s"] = window_quantile(st.winh[:n_windows], COARSE_ALPHA, 0.99)
    out["window_hist"] = st.winh[:n_windows].copy()
    out["pool_changes"] = list(changes)
    return out


def tiered_result(
    sim: TieredSimulation,
    st: S.TierState,
    actions: tuple[ScalingAction, ...],
    changes: list[PoolChange],
    wall_s: float,
) -> SimulationResult:
    s, ic = sim.s, st.ic
    classes = _classes(sim, st)
    rows = st.hists[0::2].sum(axis=0)
    latency = LatencyStats.from_sketch(
        rows, float(st.csum[:, S.CS_LAT_SUM].sum()), float(st.csum[:, S.CS_LAT_MAX].max())
    )
    series = _series(sim, st)
    windows = series.window_violated[~np.isnan(series.window_p95_latency_s)]
    initial = [t.pool_limit or S.UNBOUNDED for t in sim.tiers]
    admission, admission_series = _admission(sim, st)
    tiers = (
        None
        if sim.single
        else {
            tier.name: {
                **_tier_summary(sim, st, t, latency, initial[t]),
                "pool_changes": sum(c.tier == tier.name for c in changes),
            }
            for t, tier in enumerate(sim.tiers)
        }
    )
    return SimulationResult(
        scenario=sim.source,
        seed=sim.seed,
        engine_version=ENGINE_VERSION,
        duration_s=s.duration_s,
        requests=int(ic[S.IC_ARRIVED]),
        completed=int(ic[S.IC_COMPLETED]),
        rejected=int(ic[S.IC_REJECTED]),
        in_system_at_end=int(ic[S.IC_IN_SYSTEM]),
        pages=int(ic[S.IC_PAGES_ARRIVED]),
        pages_completed=int(ic[S.IC_PAGES_DONE] - ic[S.IC_PAGES_FAILED]),
        pages_failed=int(ic[S.IC_PAGES_FAILED]),
        latency=latency,
        plt=_overall_plt(st, classes),
        classes=classes,
        sla_violation_fraction=float(windows.mean()) if s.sla and len(windows) else None,
        vms=_vm_stats(sim, st, sim.scaled, len(actions)),
        actions=actions,
        utilization_boxes=utilization_boxes(st.box),
        series=series,
        little=_little(sim, st),
        events=int(ic[S.IC_EVENTS]),
        wall_s=wall_s,
        trace=RequestTrace.from_rows(st.trace[: int(ic[S.IC_TRACE_N])]) if sim.trace else None,
        admission=admission,
        admission_series=admission_series,
        tiers=tiers,
        tier_series=None if sim.single else _tier_series(sim, st, series, changes),
    )


def _admission(
    sim: TieredSimulation, st: S.TierState
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The result's ``admission`` and ``admission_series``."""
    if sim.admission.policy not in ("static_part", "dynamic_part"):
        return None, None
    return partition_stage.k_results(st.ks, int(st.ic[S.IC_K_N]), sim.s.duration_s)


def change_dict(change: PoolChange) -> dict[str, Any]:
    """A pool change as plain JSON-ready values."""
    return dataclasses.asdict(change)
