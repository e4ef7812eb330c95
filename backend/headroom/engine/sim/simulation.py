"""The one runner: ``Simulation(scenario).run()``.

The compiled core runs one decision period (``autoscaling.step_s``) at a time. Before a
period the runner draws that period's arrivals (with each page's object and push
counts) and tops up the pools of i.i.d. service demands, client gaps and uniforms the
core consumes; after it, the policy decides in Python and the runner boots or drains
VMs. Decisions are rare, so the Python side costs little.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from headroom.engine.sim import dispatch, partition_stage
from headroom.engine.sim.autoscaling import (
    NullPolicy,
    Observation,
    ScalingPolicy,
    VmCounts,
    build_policy,
    rescale,
)
from headroom.engine.sim.budget import DEFAULT_MAX_EVENTS, check_budget
from headroom.engine.sim.feed import Feeder
from headroom.engine.sim.kernel import fcfs
from headroom.engine.sim.kernel import state as st
from headroom.engine.sim.kernel.core import run_until
from headroom.engine.sim.kernel.vm import allocate_vms, drain_least_loaded
from headroom.engine.sim.results import (
    ClassStats,
    LatencyStats,
    LittleCheck,
    RequestTrace,
    ScalingAction,
    SimulationResult,
    TimeSeries,
    VmStats,
    utilization_boxes,
)
from headroom.engine.sim.rows import count_states, run_to, segment_bounds
from headroom.engine.sim.scenario import (
    PartitionAdmission,
    Scenario,
    ScenarioError,
    load_scenario,
)
from headroom.engine.sim.sketch import COARSE_ALPHA, window_quantile
from headroom.engine.sim.version import ENGINE_VERSION
from headroom.engine.sim.waiting_room import AdmissionStage, build_stage


def _params(s: Scenario, trace: bool) -> tuple[st.I64, st.F64]:
    c = s.cluster
    pages = any(k.page is not None for k in s.workload.class_list())
    fcfs = c.discipline == "fcfs"
    pool = c.pool_limit if c.pool_limit is not None else st.UNBOUNDED
    slots = min(c.cores, pool) if fcfs else pool
    wait_bound = st.UNBOUNDED
    if c.accept_queue is not None:
        wait_bound = c.accept_queue + (max(pool - c.cores, 0) if fcfs and c.pool_limit else 0)
    q_upper = c.overhead.q_upper if c.overhead else st.UNBOUNDED
    ip = np.zeros(st.N_IP, dtype=np.int64)
    ip[[st.IP_FCFS, st.IP_CORES, st.IP_SLOTS, st.IP_WAIT_BOUND, st.IP_Q_UPPER]] = (
        fcfs,
        c.cores,
        slots,
        wait_bound,
        q_upper,
    )
    ip[st.IP_DISPATCH] = dispatch.POLICY_CODES[s.dispatch.policy]
    ip[st.IP_PER_REQUEST] = s.dispatch.per == "request"
    ip[st.IP_PAGES] = pages
    ip[st.IP_TRACE] = trace
    fp = np.zeros(st.N_FP)
    fp[st.FP_SPEED] = c.speed
    fp[st.FP_OVERHEAD] = c.overhead.factor if c.overhead else 1.0
    fp[st.FP_MONITOR_S] = s.autoscaling.monitor_s
    fp[st.FP_SLA_THRESHOLD_S] = s.sla.threshold_s if s.sla else math.inf
    fp[st.FP_WINDOW_S] = s.sla.window_s if s.sla else 60.0
    return ip, fp


_BUILT_STAGES = ("none", "virtual_queue", "switch_adm", "static_part", "dynamic_part")


class Simulation:
    """Builds the core state for a scenario and runs it to ``duration_s``.

    ``datasets`` resolves the names a scenario refers to (``arrivals: {dataset: x}``:
    arrival times in seconds; ``{dist: empirical, dataset: y}``: values to resample).
    ``trace=True`` also keeps every request's times (tests and small runs only).
    ``fast_paths=False`` runs the general event loop even where a specialised one
    applies (fcfs.py); results agree either way (tests and benchmarks compare them).
    """

    def __init__(
        self,
        scenario: Scenario | str | Mapping[str, Any],
        datasets: Mapping[str, np.ndarray] | None = None,
        trace: bool = False,
        fast_paths: bool = True,
        max_events: float = DEFAULT_MAX_EVENTS,
    ) -> None:
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        if (stage := self.scenario.admission.policy) not in _BUILT_STAGES:
            raise ScenarioError(f"admission.policy: {stage!r} is not built yet")
        self.datasets = datasets or {}
        self.estimate = check_budget(self.scenario, max_events, self.datasets)
        self.trace = trace
        self.fast_paths = fast_paths

    def _new_state(self, early_hints: list[bool]) -> st.CoreState:
        s = self.scenario
        ip, fp = _params(s, self.trace)
        weights = np.asarray(s.dispatch.weights, dtype=np.float64)
        weights = np.resize(weights, s.cluster.vms.max)
        n_ticks = math.ceil(s.duration_s / fp[st.FP_MONITOR_S] - 1e-9)
        n_windows = math.ceil(s.duration_s / fp[st.FP_WINDOW_S] - 1e-9) + 1
        hints = np.asarray(early_hints, dtype=np.int64)
        trace_cap = 4096 if self.trace else 0
        state = st.new_state(ip, fp, weights, hints, n_ticks, n_windows, trace_cap)
        allocate_vms(state, s.cluster.vms.start, 0.0, 0.0)
        return state

    def run(
        self, seed: int | None = None, progress: Callable[[float], None] | None = None
    ) -> SimulationResult:
        """Run the whole scenario; ``seed`` overrides the scenario's.

        ``progress`` gets the simulated fraction done after every decision period; an
        exception raised from it stops the run (how a job cancels).
        """
        started = time.perf_counter()
        s = self.scenario
        seed = s.seed if seed is None else seed
        if s.cluster.tiers is not None:  # multi-tier clusters have their own loop
            from headroom.engine.sim.tiers.runner import run_tiered

            return run_tiered(s, self.datasets, seed, progress, self.trace)
        feeder = Feeder(s, self.datasets, seed)
        state = self._new_state([c.early_hints for c in feeder.classes])
        state = prepare_admission(state, s, feeder.request_rates_per_s(s.duration_s))
        policy = build_policy(s, feeder.mean_service_s)
        actions: list[ScalingAction] = []
        step, duration = s.autoscaling.step_s, s.duration_s
        queue = fcfs.FcfsQueue(state, duration) if self.fast_paths and fcfs.applies(s) else None
        run = queue.run_until if queue else run_until
        stage = build_stage(s, seed)

        # Decision periods cut the segments (and so the arrival draws) even where the
        # policy keeps the cluster fixed; then nothing is decided at their ends.
        decisions = {k * step for k in range(1, math.ceil(duration / step - 1e-9))}
        for t0, t1 in segment_bounds(decisions | set(stage.boundaries(duration)), duration):
            state = feeder.segment(state, t0, t1)
            state = _released(stage, state, t1)
            state = run_to(state, t1, run, feeder.enlarge)
            stage.after_segment(state, t1)
            if t1 in decisions and not isinstance(policy, NullPolicy):
                state = self._decide(state, policy, t1, actions)
            if progress is not None:
                progress(t1 / duration)
        if queue:
            queue.finish(state)
            state.cls[:, st.CL_ARRIVED] = feeder.arrived  # the fast path refuses nothing
        result = _result(s, seed, state, tuple(actions), time.perf_counter() - started)
        return stage.finish(result)

    def _decide(
        self, state: st.CoreState, policy: ScalingPolicy, now: float, log: list[ScalingAction]
    ) -> st.CoreState:
        cluster = self.scenario.cluster
        counts = VmCounts(*count_states(state.vi))
        while state.ic[st.IC_HEAP_N] + cluster.vms.max > len(state.et):  # room for boots
            state = st.grow(state, st.NEED_HEAP)
        action = rescale(
            policy,
            cluster.vms,
            counts,
            _observe(state, now, counts.booting, counts.active),
            boot=lambda k: allocate_vms(state, k, now, cluster.boot_s),
            drain_one=lambda: drain_least_loaded(state.vf, state.vi, state.sc, now) >= 0,
        )
        if action is not None:
            log.append(action)
        return state


def prepare_admission(
    state: st.CoreState, s: Scenario, rates_per_s: Sequence[float]
) -> st.CoreState:
    """Every run: each class's kind and user in the core (connection accounting); with a
    partition policy, its parameters too (``rates_per_s``: the classes' offered request
    rates, for rho_T)."""
    top, dynamic = partition_stage.class_flags(s)
    state.cls[:, st.CL_DYNAMIC] = dynamic
    state.cls[:, st.CL_TOP] = top
    a = s.admission
    if not isinstance(a, PartitionAdmission):
        return state
    rows = partition_stage.StageRows(
        state.ip[st.IP_ADMISSION :], state.fp[st.FP_THR :], state.vi, state.ic, state.et, state.ei
    )
    rho_top = partition_stage.top_fraction(rates_per_s, top)
    ks = partition_stage.set_up(
        a, rows, s.cluster.vms.start, "cluster.vms.start", s.duration_s, rho_top
    )
    return state._replace(k_series=ks)


def _released(stage: AdmissionStage, state: st.CoreState, t1: float) -> st.CoreState:
    """The segment's drawn arrivals through the admission stage: the releases due before t1."""
    times, rows = stage.release(state.arr_t, state.arr_n, t1)
    state.ic[st.IC_ARR_PTR] = 0
    return state._replace(arr_t=times, arr_n=rows)


def _observe(state: st.CoreState, now: float, booting: int, active: int) -> Observation:
    ticks = int(state.ic[st.IC_TICK])
    window_s = float(state.fp[st.FP_WINDOW_S])
    complete_windows = int(now / window_s + 1e-9)
    return Observation(
        now_s=now,
        monitor_s=float(state.fp[st.FP_MONITOR_S]),
        booting=booting,
        active=active,
        utilization=state.ts_utilization[:ticks],
        active_series=state.ts[:ticks, st.TS_ACTIVE],
        arrivals=state.ts[:ticks, st.TS_ARRIVALS],
        window_s=window_s,
        window_hist=state.win_hist[:complete_windows],
    )


def _series(s: Scenario, state: st.CoreState) -> TimeSeries:
    m = float(state.fp[st.FP_MONITOR_S])
    n, ts = len(state.ts), state.ts
    n_windows = math.ceil(s.duration_s / state.fp[st.FP_WINDOW_S] - 1e-9)
    q = s.sla.percentile / 100 if s.sla else 0.95
    count, over = state.win[:n_windows, 0], state.win[:n_windows, 1]
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
        window_s=float(state.fp[st.FP_WINDOW_S]),
        window_p95_latency_s=window_quantile(state.win_hist[:n_windows], COARSE_ALPHA, q),
        window_violated=(count > 0) & (over > (1 - q) * count),
        window_p50_latency_s=window_quantile(state.win_hist[:n_windows], COARSE_ALPHA, 0.5),
        window_p99_latency_s=window_quantile(state.win_hist[:n_windows], COARSE_ALPHA, 0.99),
    )


def _vm_stats(s: Scenario, state: st.CoreState, n_actions: int) -> VmStats:
    live = state.vi[:, st.VI_STATE] != st.VM_FREE
    alloc_t = state.vf[live, st.VF_ALLOC_T]
    vm_s = state.sc[st.SC_VM_SECONDS] + float(np.sum(s.duration_s - alloc_t))
    hours = vm_s / 3600
    return VmStats(
        mean_allocated=float(state.ts[:, st.TS_ALLOCATED].mean()),
        mean_active=float(state.ts[:, st.TS_ACTIVE].mean()),
        max_allocated=int(state.ts[:, st.TS_ALLOCATED].max()),
        vm_hours=hours,
        cost=hours * s.cluster.price_per_vm_hour,
        scaling_actions=n_actions,
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
        plt, plt_counts = None, None
        if spec.page is not None:
            plt_counts = state.hists[2 * c + 1].copy()
            plt = LatencyStats.from_sketch(plt_counts, sums[st.CS_PLT_SUM], sums[st.CS_PLT_MAX])
        counts = int(state.cls[c, st.CL_ARRIVED]), int(state.cls[c, st.CL_REJECTED])
        out.append(ClassStats(spec.name, lat, plt, state.hists[2 * c].copy(), plt_counts, *counts))
    return tuple(out)


def _overall(state: st.CoreState, kind: int, include: list[bool]) -> LatencyStats:
    """Latency (kind 0) or PLT (kind 1) over the included classes, from their sketches."""
    rows = [2 * c + kind for c, keep in enumerate(include) if keep]
    sums = state.csum[[r // 2 for r in rows]]
    total, top = sums[:, 2 * kind].sum(), sums[:, 2 * kind + 1].max()
    return LatencyStats.from_sketch(state.hists[rows].sum(axis=0), float(total), float(top))


def _result(
    s: Scenario, seed: int, state: st.CoreState, actions: tuple[ScalingAction, ...], wall_s: float
) -> SimulationResult:
    ic = state.ic
    series = _series(s, state)
    classes = _class_stats(s, state)
    trace = None
    if state.ip[st.IP_TRACE]:
        trace = RequestTrace.from_rows(state.trace[: int(ic[st.IC_TRACE_N])])
    windows = series.window_violated[series.window_p95_latency_s == series.window_p95_latency_s]
    admission, admission_series = None, None
    if s.admission.policy in ("static_part", "dynamic_part"):
        k_n = int(state.ic[st.IC_K_N])
        admission, admission_series = partition_stage.k_results(state.k_series, k_n, s.duration_s)
    return SimulationResult(
        scenario=s,
        seed=seed,
        engine_version=ENGINE_VERSION,
        duration_s=s.duration_s,
        requests=int(ic[st.IC_ARRIVED]),
        completed=int(ic[st.IC_COMPLETED]),
        rejected=int(ic[st.IC_REJECTED]),
        in_system_at_end=int(ic[st.IC_IN_SYSTEM]),
        pages=int(ic[st.IC_PAGES_ARRIVED]),
        pages_completed=int(ic[st.IC_PAGES_DONE] - ic[st.IC_PAGES_FAILED]),
        pages_failed=int(ic[st.IC_PAGES_FAILED]),
        latency=_overall(state, 0, [True] * len(classes)),
        plt=_overall(state, 1, [c.plt is not None for c in classes])
        if any(c.plt is not None for c in classes)
        else None,
        classes=classes,
        sla_violation_fraction=float(windows.mean()) if s.sla and len(windows) else None,
        vms=_vm_stats(s, state, len(actions)),
        actions=actions,
        utilization_boxes=utilization_boxes(state.box_hist),
        series=series,
        little=_little(s, state),
        events=int(ic[st.IC_EVENTS]),
        wall_s=wall_s,
        trace=trace,
        admission=admission,
        admission_series=admission_series,
    )
