"""The one runner: ``Simulation(scenario).run()``.

Every scenario runs through the tier loop (tiers/): a single-tier cluster as the chain
of one tier (tiers/runner.one_tier_chain), a multi-tier cluster as its chain. One
specialisation stays: a plain FCFS queue on one fixed VM runs on the FCFS fast path
(kernel/fcfs.py), which gives the loop's results exactly and much faster. Like the tier
runner, it runs one decision period at a time: before a period it draws that period's
arrivals and tops up the pools of service demands.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from headroom.engine.sim.budget import DEFAULT_MAX_EVENTS, check_budget
from headroom.engine.sim.feed import Feeder
from headroom.engine.sim.kernel import fcfs
from headroom.engine.sim.kernel import state as st
from headroom.engine.sim.kernel.results import kernel_result
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.rows import run_to, segment_bounds
from headroom.engine.sim.scenario import Scenario, ScenarioError, load_scenario
from headroom.engine.sim.tiers.runner import run_tiered

_BUILT_STAGES = ("none", "virtual_queue", "switch_adm", "static_part", "dynamic_part")


class Simulation:
    """Runs a scenario to ``duration_s``.

    ``datasets`` resolves the names a scenario refers to (``arrivals: {dataset: x}``:
    arrival times in seconds; ``{dist: empirical, dataset: y}``: values to resample).
    ``trace=True`` also keeps every request's times (tests and small runs only).
    ``fast_paths=False`` runs the tier loop even where the FCFS fast path applies
    (kernel/fcfs.py); results agree either way (tests and benchmarks compare them).
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

    def run(
        self, seed: int | None = None, progress: Callable[[float], None] | None = None
    ) -> SimulationResult:
        """Run the whole scenario; ``seed`` overrides the scenario's.

        ``progress`` gets the simulated fraction done after every decision period; an
        exception raised from it stops the run (how a job cancels).
        """
        s = self.scenario
        seed = s.seed if seed is None else seed
        if s.cluster.tiers is None and self.fast_paths and fcfs.applies(s):
            return self._run_fcfs(seed, progress)
        return run_tiered(s, self.datasets, seed, progress, self.trace)

    def _run_fcfs(self, seed: int, progress: Callable[[float], None] | None) -> SimulationResult:
        """The FCFS fast path. Decision periods cut the segments (and so the arrival draws)
        as in the tier loop, though nothing is decided at their ends."""
        started = time.perf_counter()
        s = self.scenario
        feeder = Feeder(s, self.datasets, seed)
        state = _new_state(s, self.trace, len(feeder.classes))
        queue = fcfs.FcfsQueue(state, s.duration_s)
        step, duration = s.autoscaling.step_s, s.duration_s
        decisions = {k * step for k in range(1, math.ceil(duration / step - 1e-9))}
        for t0, t1 in segment_bounds(decisions, duration):
            state = feeder.segment(state, t0, t1)
            state = run_to(state, t1, queue.run_until, feeder.enlarge)
            if progress is not None:
                progress(t1 / duration)
        queue.finish(state)
        state.cls[:, st.CL_ARRIVED] = feeder.arrived  # the fast path refuses nothing
        return kernel_result(s, seed, state, time.perf_counter() - started)


def _new_state(s: Scenario, trace: bool, n_classes: int) -> st.CoreState:
    """The fast path's state for ``n_classes`` request classes."""
    ip = np.zeros(st.N_IP, dtype=np.int64)
    ip[st.IP_CORES], ip[st.IP_TRACE] = s.cluster.cores, trace
    fp = np.zeros(st.N_FP)
    fp[st.FP_SPEED], fp[st.FP_MONITOR_S] = s.cluster.speed, s.autoscaling.monitor_s
    fp[st.FP_SLA_THRESHOLD_S] = s.sla.threshold_s if s.sla else math.inf
    fp[st.FP_WINDOW_S] = s.sla.window_s if s.sla else 60.0
    n_ticks = math.ceil(s.duration_s / fp[st.FP_MONITOR_S] - 1e-9)
    n_windows = math.ceil(s.duration_s / fp[st.FP_WINDOW_S] - 1e-9) + 1
    return st.new_state(ip, fp, n_classes, n_ticks, n_windows, 4096 if trace else 0)
