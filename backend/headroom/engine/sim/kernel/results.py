"""The FCFS fast path's SimulationResult, from the kernel state (state.py): the same
figures and series a one-tier run of the tier loop gives (tiers/results.py)."""

from __future__ import annotations

import numpy as np

from headroom.engine.sim.kernel import state as st
from headroom.engine.sim.results import (
    ClassStats,
    LatencyStats,
    LittleCheck,
    RequestTrace,
    SimulationResult,
    TimeSeries,
    VmStats,
    sla_windows,
    utilization_boxes,
)
from headroom.engine.sim.scenario import Scenario
from headroom.engine.sim.version import ENGINE_VERSION


def _series(s: Scenario, state: st.CoreState) -> TimeSeries:
    m = float(state.fp[st.FP_MONITOR_S])
    n, ts = len(state.ts), state.ts
    rate = lambda a: (a / m).astype(np.float32)  # noqa: E731
    return TimeSeries(
        monitor_s=m,
        t_s=(np.arange(1, n + 1) * m).astype(np.float64),
        allocated_vms=ts[:, st.TS_ALLOCATED],
        active_vms=ts[:, st.TS_ACTIVE],
        arrivals_per_s=rate(ts[:, st.TS_ARRIVALS]),
        completions_per_s=rate(ts[:, st.TS_COMPLETIONS]),
        rejected_per_s=rate(ts[:, st.TS_REJECTED]),
        utilization=state.ts_utilization,
        waiting=ts[:, st.TS_WAITING],
        in_system=ts[:, st.TS_IN_SYSTEM],
        **sla_windows(s, float(state.fp[st.FP_WINDOW_S]), state.win, state.win_hist, True),
    )


def _vm_stats(s: Scenario, state: st.CoreState) -> VmStats:
    """One VM, allocated from time 0 to the horizon."""
    hours = s.duration_s / 3600
    return VmStats(
        mean_allocated=float(state.ts[:, st.TS_ALLOCATED].mean()),
        mean_active=float(state.ts[:, st.TS_ACTIVE].mean()),
        max_allocated=int(state.ts[:, st.TS_ALLOCATED].max()),
        vm_hours=hours,
        cost=hours * s.cluster.price_per_vm_hour,
        scaling_actions=0,
    )


def _little(s: Scenario, state: st.CoreState) -> LittleCheck:
    ic, sc, horizon = state.ic, state.sc, s.duration_s
    live = state.ji[:, st.JI_VM] >= 0
    accepted = int(ic[st.IC_COMPLETED] + ic[st.IC_IN_SYSTEM])
    residual = float(np.sum(horizon - state.jf[live, st.JF_ARRIVAL]))
    return LittleCheck(
        mean_in_system=float(sc[st.SC_AREA]) / horizon,
        arrival_rate_per_s=accepted / horizon,
        mean_time_in_system_s=(float(sc[st.SC_LAT_SUM]) + residual) / max(accepted, 1),
    )


def _class_stats(s: Scenario, state: st.CoreState) -> tuple[ClassStats, ...]:
    out = []
    for c, spec in enumerate(s.workload.class_list()):
        sums = state.csum[c]
        lat = LatencyStats.from_sketch(state.hists[2 * c], sums[st.CS_LAT_SUM], sums[st.CS_LAT_MAX])
        counts = int(state.cls[c, st.CL_ARRIVED]), int(state.cls[c, st.CL_REJECTED])
        out.append(ClassStats(spec.name, lat, None, state.hists[2 * c].copy(), None, *counts))
    return tuple(out)


def _latency(state: st.CoreState) -> LatencyStats:
    """Latency over every class, from their sketches."""
    total, top = state.csum[:, st.CS_LAT_SUM].sum(), state.csum[:, st.CS_LAT_MAX].max()
    return LatencyStats.from_sketch(state.hists[0::2].sum(axis=0), float(total), float(top))


def kernel_result(s: Scenario, seed: int, state: st.CoreState, wall_s: float) -> SimulationResult:
    """The result of a fast-path run (no pages, no scaling, no admission stage)."""
    ic = state.ic
    series = _series(s, state)
    trace = None
    if state.ip[st.IP_TRACE]:
        trace = RequestTrace.from_rows(state.trace[: int(ic[st.IC_TRACE_N])])
    windows = series.window_violated[series.window_p95_latency_s == series.window_p95_latency_s]
    return SimulationResult(
        scenario=s,
        seed=seed,
        engine_version=ENGINE_VERSION,
        duration_s=s.duration_s,
        requests=int(ic[st.IC_ARRIVED]),
        completed=int(ic[st.IC_COMPLETED]),
        rejected=int(ic[st.IC_REJECTED]),
        in_system_at_end=int(ic[st.IC_IN_SYSTEM]),
        pages=0,
        pages_completed=0,
        pages_failed=0,
        latency=_latency(state),
        plt=None,
        classes=_class_stats(s, state),
        sla_violation_fraction=float(windows.mean()) if s.sla and len(windows) else None,
        vms=_vm_stats(s, state),
        actions=(),
        utilization_boxes=utilization_boxes(state.box_hist),
        series=series,
        little=_little(s, state),
        events=int(ic[st.IC_EVENTS]),
        wall_s=wall_s,
        trace=trace,
    )
