"""Every run but the FCFS fast path's: the runner around the compiled loop (loop.py). A
multi-tier cluster (``cluster.tiers``) runs as its chain, a single-tier cluster as the
chain of one tier (:func:`one_tier_chain`).

The loop runs one decision period at a time; before a period the
runner draws its arrivals and every request's demand at every tier (a tier's own
``service_s``, else the request class's), after it the autoscaling policy resizes the
scaled tier (``autoscaling.tier``, default the first tier whose vms.min < vms.max) and,
with the concurrency-aware policy, the downstream pools (sct.py). Any autoscaling
policy can drive the scaled tier (its Observation is that tier's utilisation); the
other tiers keep vms.start VMs. Within a tier, the dispatcher picks an active VM by the
tier's dispatch policy (sim/dispatch.py). The scenario document gives a chain's tiers
least connections only (ties in round robin) and no admission stage; a single-tier
cluster runs with its own policy and stage, and the runner takes a policy per tier
(``dispatch``) and a stage (``admission``), which tests use on chains. Pages run in the
loop (their requests dispatched by the first tier's policy, sticking to their page's VM
unless ``per: request``), though the scenario document keeps them off written chains.

Modelling choices: a request's time at a tier counts from its arrival there (accept
queue included) to the release of its slot, i.e. including the tiers below; the
response returns up at once. A per-request trace (``trace=True``) gives each completed
request's service start, demand and VM at the first tier; ``series.waiting`` counts
the requests waiting for a pool slot (in every accept queue) or, at an FCFS tier, for a
core.

Results: the usual SimulationResult (a single-tier cluster's has no per-tier figures and
adds the p50 and p99 per SLA window to its series), where the VM figures (series,
VmStats, box plots, actions) are the scaled tier's and latencies are end to end, plus
- ``tiers`` (in the summary): per tier name, ``vms`` (mean_allocated, mean_active,
  max_allocated, vm_hours, cost), ``utilization_mean`` and ``concurrency_mean`` (mean
  over ticks of the per-active-VM means; concurrency = pool slots in use),
  ``concurrency_peak`` (the most slots in use at once on the whole tier),
  ``residence_s`` (mean time from reaching the tier to giving back its slot, so it
  includes the tiers below), ``own_s`` (residence minus the next tier's: queueing and
  service at this tier) and ``latency_share`` (own_s / mean end-to-end latency), and
  ``pool`` (initial and final pool limit per VM, None = unbounded) and
  ``pool_changes`` (how many times the policy resized a pool of this tier);
- ``tier_series`` (not in the summary; charts and tests): ``t_s`` per tick, and per tier
  ``<name>.allocated|active|utilization|concurrency|waiting|pool`` (pool: mean limit over
  active VMs, inf = unbounded), ``window_t_s`` with ``window_p99_latency_s``
  (end-to-end p99 per SLA window) and ``window_hist`` (the windows' coarse latency
  sketches, for quantiles over any run of windows), and ``pool_changes`` (a list of
  sct.PoolChange).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from headroom.engine.sim import autoscaling as au
from headroom.engine.sim import dispatch as dp
from headroom.engine.sim import partition_stage
from headroom.engine.sim import scenario as sc
from headroom.engine.sim.distributions import Distribution
from headroom.engine.sim.feed import Feeder
from headroom.engine.sim.results import ScalingAction, SimulationResult
from headroom.engine.sim.rows import count_states, run_to, segment_bounds
from headroom.engine.sim.scenario import Scenario, build_distribution
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.loop import run_loop_bare
from headroom.engine.sim.tiers.periods import PeriodDraws, as_rows, joined
from headroom.engine.sim.tiers.pools import ClassDemands, PagePools
from headroom.engine.sim.tiers.results import tiered_result
from headroom.engine.sim.tiers.sct import FixedPools, PoolChange, PoolSizer, SctPoolSizer
from headroom.engine.sim.tiers.vms import allocate, drain_least_loaded
from headroom.engine.sim.waiting_room import NullStage, build_stage

_JOINED_ARRIVALS = 65_536  # periods join one loop call until they hold this many arrivals
_NO_CUTS = np.zeros(0)


def scaled_tier(s: Scenario) -> int:
    """Index of the tier the autoscaling policy resizes."""
    tiers = s.cluster.tiers or []
    name = getattr(s.autoscaling, "tier", None)
    if name is not None:
        return [t.name for t in tiers].index(name)
    return next((i for i, t in enumerate(tiers) if t.vms.min < t.vms.max), 0)


def _tier_params(
    tiers: list[sc.Tier], dispatch: Sequence[sc.Dispatch], dispatch_start: int
) -> tuple[S.I64, S.F64]:
    tp = np.zeros((len(tiers), S.N_TP), dtype=np.int64)
    tp[:, S.TP_RR] = dispatch_start
    tf = np.zeros((len(tiers), S.N_TF))
    first = 0
    for i, (t, d) in enumerate(zip(tiers, dispatch, strict=True)):
        pool = t.pool_limit if t.pool_limit is not None else S.UNBOUNDED
        wait = t.accept_queue if t.accept_queue is not None else S.UNBOUNDED
        q_upper = t.overhead.q_upper if t.overhead else S.UNBOUNDED
        tp[i, [S.TP_FIRST, S.TP_COUNT, S.TP_CORES, S.TP_FCFS]] = (
            first, t.vms.max, t.cores, t.discipline == "fcfs",
        )  # fmt: skip
        tp[i, [S.TP_WAIT_BOUND, S.TP_Q_UPPER, S.TP_POOL]] = (wait, q_upper, pool)
        tp[i, S.TP_DISPATCH] = dp.POLICY_CODES[d.policy]
        tp[i, S.TP_OWN_DEMAND] = t.service_s is not None
        tf[i, S.TF_SPEED] = t.speed
        tf[i, S.TF_FACTOR] = t.overhead.factor if t.overhead else 1.0
        first += t.vms.max
    return tp, tf


def _weights(tiers: list[sc.Tier], dispatch: Sequence[sc.Dispatch]) -> S.F64:
    """Each VM row's weight for weighted round robin (a tier's weights, repeated)."""
    per_tier = [
        np.resize(np.asarray(d.weights, np.float64), t.vms.max)
        for t, d in zip(tiers, dispatch, strict=True)
    ]
    return np.concatenate(per_tier)


class TieredSimulation:
    """Builds the tiered state for a scenario and runs it (Simulation.run delegates).
    A single-tier cluster runs as the chain of one tier (:func:`one_tier_chain`) and gives
    the single-tier result (no per-tier figures). ``dispatch``: a dispatch policy per tier
    (default: the scenario's, at every tier); ``trace``: keep every completed request's
    times (tests and small runs only); ``dispatch_start``: the row (within each tier)
    where the dispatchers' first scan starts (default 1 for a single-tier cluster, as its
    results have always had, else 0); ``admission``: the admission stage before the
    first tier (default the scenario's: a chain's document gives it none), class-aware or
    the virtual waiting queue."""

    def __init__(
        self,
        s: Scenario,
        datasets: Mapping[str, np.ndarray],
        seed: int,
        dispatch: Sequence[sc.Dispatch] | None = None,
        trace: bool = False,
        dispatch_start: int | None = None,
        admission: sc.Admission | None = None,
    ) -> None:
        self.source, self.single = s, s.cluster.tiers is None
        s = one_tier_chain(s) if self.single else s
        assert s.cluster.tiers is not None
        self.s, self.seed, self.tiers, self.trace = s, seed, s.cluster.tiers, trace
        self.dispatch_start = int(self.single) if dispatch_start is None else dispatch_start
        self.admission = admission or s.admission
        self.stage = build_stage(s.model_copy(update={"admission": self.admission}), seed)
        self.dispatch = list(dispatch or [s.dispatch] * len(self.tiers))
        self.scaled = scaled_tier(s)
        self.feeder = Feeder(s, datasets, seed)
        n_classes = len(self.feeder.classes)
        seeds = np.random.SeedSequence(seed).spawn(n_classes + 1 + len(self.tiers))
        self.tier_rngs = [np.random.default_rng(x) for x in seeds[n_classes + 1 :]]
        self.tier_dists: list[Distribution | None] = [
            build_distribution(t.service_s, datasets) if t.service_s else None for t in self.tiers
        ]
        self.pages = any(c.pages for c in self.feeder.classes)
        # Periods with nothing to do between them run in one loop call (periods.py); pages'
        # pools are topped up by what the loop read, a stage holds arrivals back.
        self.joins = not self.pages and isinstance(self.stage, NullStage)
        self.pools = PagePools(self.feeder, self.tier_dists, self.tier_rngs)
        self.class_demands = ClassDemands(self.feeder)
        self.periods = PeriodDraws(self.feeder, self.tier_dists, self.tier_rngs, self.class_demands)
        self.policy = self._policy()
        self.sizer: PoolSizer = FixedPools()
        if isinstance(s.autoscaling, sc.ConcurrencyAwarePolicy):
            below = {i: t.name for i, t in enumerate(self.tiers) if i > self.scaled}
            self.sizer = SctPoolSizer(s.autoscaling, below)

    def _policy(self) -> au.ScalingPolicy:
        a, tier = self.s.autoscaling, self.tiers[self.scaled]
        if isinstance(a, sc.PredictivePolicy):
            return au.PredictivePolicy(a, self.mean_demand_s(self.scaled), tier.cores * tier.speed)
        return au.build_policy(self.s, 0.0)

    def mean_demand_s(self, t: int) -> float:
        dist = self.tier_dists[t]
        return dist.mean if dist is not None else self.feeder.mean_service_s

    def new_state(self) -> S.TierState:
        """The state at time 0: every tier's vms.start VMs, the admission stage set up."""
        s = self.s
        tp, tf = _tier_params(self.tiers, self.dispatch, self.dispatch_start)
        sct = isinstance(s.autoscaling, sc.ConcurrencyAwarePolicy)
        random_dispatch = any(d.policy == "random" for d in self.dispatch)
        ip = np.zeros(S.N_IP, dtype=np.int64)
        ip[: S.IP_ADMISSION] = (len(self.tiers), self.scaled, sct, random_dispatch, self.trace)
        ip[S.IP_PAGES], ip[S.IP_PER_REQUEST] = self.pages, self.dispatch[0].per == "request"
        sct_s = getattr(s.autoscaling, "sct_interval_s", 0.05)
        window_s = s.sla.window_s if s.sla else 60.0
        fp = np.zeros(S.N_FP)
        fp[: S.FP_THR] = (
            s.autoscaling.monitor_s, window_s, s.sla.threshold_s if s.sla else math.inf, sct_s,
        )  # fmt: skip
        n_ring = 1
        if ip[S.IP_SCT]:
            n_ring = math.ceil(getattr(s.autoscaling, "sct_window_s", 180.0) / sct_s) + 2
        dims = (
            math.ceil(s.duration_s / fp[S.FP_MONITOR_S] - 1e-9),
            math.ceil(s.duration_s / window_s - 1e-9) + 1,
            n_ring,
            4096 if self.trace else 0,
        )
        weights = _weights(self.tiers, self.dispatch)
        top, dynamic = partition_stage.class_flags(s)
        cls = np.zeros((len(top), S.N_CL), dtype=np.int64)
        cls[:, S.CL_TOP], cls[:, S.CL_DYNAMIC] = top, dynamic
        cls[:, S.CL_EARLY_HINTS] = [c.early_hints for c in self.feeder.classes]
        state = S.new_tier_state(tp, tf, ip, fp, weights, cls, dims)
        for t, tier in enumerate(self.tiers):
            allocate(S.world(state), t, tier.vms.start, 0.0, 0.0)
        return self._install_admission(state)

    def _install_admission(self, state: S.TierState) -> S.TierState:
        """The class-aware admission stage at the first tier (partition_stage.py)."""
        a = self.admission
        if not isinstance(a, sc.PartitionAdmission):
            return state
        rows = partition_stage.StageRows(
            state.ip[S.IP_ADMISSION :], state.fp[S.FP_THR :], _tier_rows(state, 0), state.ic,
            state.et, state.ei,
        )  # fmt: skip
        rates = self.feeder.request_rates_per_s(self.s.duration_s)
        rho_top = partition_stage.top_fraction(rates, list(state.cls[:, S.CL_TOP] == 1))
        field = "cluster.vms.start" if self.single else "cluster.tiers[0].vms.start"
        ks = partition_stage.set_up(a, rows, self.tiers[0].vms.start, field,
                                    self.s.duration_s, rho_top)  # fmt: skip
        return state._replace(ks=ks)

    def _segment(self, state: S.TierState, t0: float, t1: float) -> S.TierState:
        """Install the arrivals of [t0, t1) (those the admission stage releases, in time
        order) with their demands at every tier: a class's in its requests' order, a
        tier's own by class, then time (as drawn before the stage was in the chain). With
        pages, the loop draws every request's demands as it makes it (pools.py). The
        pools are topped up by what the segment drew, before the stage (the requests of
        its pages, their client gaps), as the single-tier runs always drew them: a
        mixture's or an empirical distribution's values depend on how draws are split."""
        parts = [c.arrivals_between(t0, t1) for c in self.feeder.classes]
        times, rows = self.stage.release(*_merged(parts), t1)
        klass = rows[:, 2].copy()
        state.ic[S.IC_ARR_PTR] = 0
        state = state._replace(
            arr_t=times, arr_c=klass, arr_n=rows[:, :2].copy(), arr_cuts=_NO_CUTS
        )
        if self.pages:
            requests = [len(p[0]) + int(p[1].sum()) for p in parts]
            gaps = [int((p[1] - p[2]).sum()) for p in parts]
            state = state._replace(arr_d=np.zeros((len(times), len(self.tiers))))
            return self.pools.segment(state, requests, gaps)
        self.class_demands.top_up([len(p[0]) * self.pools.n_shared for p in parts])
        columns = self.periods.demands(klass, len(parts))
        return state._replace(arr_d=as_rows(columns, len(klass)))

    def run(self, progress: Callable[[float], None] | None = None) -> SimulationResult:
        started = time.perf_counter()
        s, state = self.s, self.new_state()
        actions: list[ScalingAction] = []
        changes: list[PoolChange] = []
        step, duration = s.autoscaling.step_s, s.duration_s
        decisions = {k * step for k in range(1, math.ceil(duration / step - 1e-9))}
        acting = not isinstance(self.policy, au.NullPolicy)
        bounds = segment_bounds(decisions | set(self.stage.boundaries(duration)), duration)
        k = 0
        while k < len(bounds):
            if self.joins:  # a policy decides at every period's end: periods join without one
                todo = bounds[k : k + 1] if acting else bounds[k:]
                periods = self.periods.draw(todo, _JOINED_ARRIVALS)
                ends = periods.ends_s.tolist()
                state = run_to(joined(state, periods), ends[-1], _run_until, self._enlarge)
            else:
                ends = [bounds[k][1]]
                state = self.run_segment(state, *bounds[k])
            k, t1 = k + len(ends), ends[-1]
            self.stage.after_segment(state, t1)
            if acting and t1 in decisions:
                state = self._decide(state, t1, actions, changes)
            if progress is not None:
                for t_end in ends:  # a report per period
                    progress(t_end / duration)
        wall = time.perf_counter() - started
        return self.stage.finish(tiered_result(self, state, tuple(actions), changes, wall))

    def run_segment(self, state: S.TierState, t0: float, t1: float) -> S.TierState:
        """The loop through [t0, t1), on the arrivals the stage releases in it."""
        return run_to(self._segment(state, t0, t1), t1, _run_until, self._enlarge)

    def _enlarge(self, state: S.TierState, status: int) -> S.TierState:
        """What the loop's ``NEED_*`` status names: more uniforms or pool values drawn, or
        a capacity grown."""
        if status in (S.NEED_DEMAND, S.NEED_GAP):
            return self.pools.refill(state)
        if status != S.NEED_UNIFORM:
            return S.grow(state, status)
        return state._replace(qu=self.feeder.uniforms(state.qu, state.ic, 0))

    def _decide(
        self, state: S.TierState, now: float, log: list[ScalingAction], changes: list[PoolChange]
    ) -> S.TierState:
        t, tier = self.scaled, self.tiers[self.scaled]
        counts = au.VmCounts(*count_states(_tier_rows(state, t)))
        state = S.room(state, heap=tier.vms.max + 1, vm_heap=0)  # room for boots
        world = S.world(state)
        action = au.rescale(
            self.policy,
            tier.vms,
            counts,
            _observe(state, t, now, counts.booting, counts.active),
            boot=lambda k: allocate(world, t, k, now, tier.boot_s),
            drain_one=lambda: drain_least_loaded(world, t, now) >= 0,
        )
        if action is not None:
            log.append(action)
            state, resized = self.sizer.after_action(state, now)
            changes.extend(resized)
        return state


def _merged(parts: list[tuple[S.F64, S.I64, S.I64]]) -> tuple[S.F64, S.I64]:
    """The classes' arrivals (times, objects, pushed objects) in time order: their times
    and rows of (objects, pushed objects, class)."""
    counts = [len(p[0]) for p in parts]
    rows = np.empty((sum(counts), 3), dtype=np.int64)
    if len(parts) == 1:  # drawn in time order
        rows[:, 0], rows[:, 1], rows[:, 2] = parts[0][1], parts[0][2], 0
        return parts[0][0], rows
    rows[:, 0] = np.concatenate([p[1] for p in parts])
    rows[:, 1] = np.concatenate([p[2] for p in parts])
    rows[:, 2] = np.repeat(np.arange(len(parts)), counts)
    drawn = np.concatenate([p[0] for p in parts])
    order = np.argsort(drawn, kind="stable")
    return drawn[order], rows[order]


def _tier_rows(state: S.TierState, t: int) -> S.I64:
    first, count = int(state.tp[t, S.TP_FIRST]), int(state.tp[t, S.TP_COUNT])
    return state.vi[first : first + count]


def _run_until(state: S.TierState, t_end: float) -> int:
    status: int = run_loop_bare(S.world(state), S.arrivals(state), S.monitor(state), t_end)
    return status


def _observe(state: S.TierState, t: int, now: float, booting: int, active: int) -> au.Observation:
    ticks = int(state.ic[S.IC_TICK])
    window_s = float(state.fp[S.FP_WINDOW_S])
    return au.Observation(
        now_s=now,
        monitor_s=float(state.fp[S.FP_MONITOR_S]),
        booting=booting,
        active=active,
        utilization=state.tt[:ticks, t, S.TT_UTILIZATION],
        active_series=state.tt[:ticks, t, S.TT_ACTIVE].astype(np.int32),
        arrivals=state.ts[:ticks, S.TS_ARRIVALS],
        window_s=window_s,
        window_hist=state.winh[: int(now / window_s + 1e-9)],
    )


def one_tier_chain(s: Scenario) -> Scenario:
    """A single-tier scenario with its cluster written as a chain of one tier."""
    c = s.cluster
    fields = {name: getattr(c, name) for name in sc.Cluster.model_fields if name != "tiers"}
    chain = c.model_copy(update={"tiers": [sc.Tier(name="cluster", **fields)]})
    return s.model_copy(update={"cluster": chain})


def run_tiered(
    s: Scenario,
    datasets: Mapping[str, np.ndarray],
    seed: int,
    progress: Callable[[float], None] | None = None,
    trace: bool = False,
) -> SimulationResult:
    """Run a scenario through the tier loop (Simulation.run's entry point)."""
    return TieredSimulation(s, datasets, seed, trace=trace).run(progress)
