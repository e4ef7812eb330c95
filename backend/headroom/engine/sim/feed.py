"""Vectorised pre-draws that feed the core: arrivals per segment and i.i.d. pools.

Each stream has its own generator spawned from the run's seed (arrivals, pages,
service demands, gaps, uniforms), so changing one setting (say the push fraction)
leaves the other streams' draws unchanged: common random numbers across runs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from headroom.engine.sim import state as st
from headroom.engine.sim.arrivals import (
    ArrivalProcess,
    PoissonArrivals,
    ProfileArrivals,
    ReplayArrivals,
)
from headroom.engine.sim.distributions import Constant, Distribution
from headroom.engine.sim.scenario import Arrivals, Scenario, ScenarioError, build_distribution

_MIN_POOL = 1024


def build_arrivals(spec: Arrivals, datasets: Mapping[str, np.ndarray]) -> ArrivalProcess:
    if spec.profile is not None:
        return ProfileArrivals(tuple(t for t, _ in spec.profile), tuple(r for _, r in spec.profile))
    if spec.times_s is not None:
        return ReplayArrivals(np.sort(np.asarray(spec.times_s, np.float64)), spec.time_scale)
    if spec.dataset is not None:
        if spec.dataset not in datasets:
            raise ScenarioError(f"workload.arrivals.dataset: unknown dataset {spec.dataset!r}")
        times = np.sort(np.asarray(datasets[spec.dataset], np.float64))
        return ReplayArrivals(times, spec.time_scale)
    return PoissonArrivals(spec.rate_per_s or 0.0)


class Feeder:
    def __init__(self, s: Scenario, datasets: Mapping[str, np.ndarray], seed: int) -> None:
        rngs = [np.random.default_rng(c) for c in np.random.SeedSequence(seed).spawn(5)]
        self.arrival_rng, self.page_rng, self.demand_rng, self.gap_rng, self.uniform_rng = rngs
        self.arrivals = build_arrivals(s.workload.arrivals, datasets)
        self.service: Distribution = build_distribution(s.workload.service_s)
        page = s.workload.page
        self.objects: Distribution = build_distribution(page.objects) if page else Constant(0)
        self.gap: Distribution = build_distribution(page.gap_s) if page else Constant(0)
        self.push = page.push_fraction if page else 0.0
        self.random_dispatch = s.dispatch.policy == "random"

    def _pages(self, n: int) -> tuple[st.I64, st.I64]:
        nobj = np.maximum(np.rint(self.objects.sample(self.page_rng, n)), 0).astype(np.int64)
        npush = np.floor(self.push * nobj + self.page_rng.uniform(size=n)).astype(np.int64)
        return nobj, np.minimum(npush, nobj)

    def segment(self, state: st.CoreState, t0: float, t1: float) -> st.CoreState:
        """Install the arrivals of [t0, t1) and top up the pools for them."""
        times = self.arrivals.between(self.arrival_rng, t0, t1)
        nobj, npush = self._pages(len(times))
        state.ic[st.IC_ARR_PTR] = 0
        state = state._replace(arr_t=times, arr_n=np.stack([nobj, npush], axis=1))
        requests = int(len(times) + nobj.sum())
        state = self._top_up(state, st.NEED_DEMAND, requests)
        state = self._top_up(state, st.NEED_GAP, int((nobj - npush).sum()))
        return self._top_up(state, st.NEED_UNIFORM, requests if self.random_dispatch else 0)

    def refill(self, state: st.CoreState, status: int) -> st.CoreState:
        """The core ran short mid-segment: add a batch to the pool it named."""
        pool = {st.NEED_DEMAND: state.pool_demand, st.NEED_GAP: state.pool_gap}.get(
            status, state.pool_uniform
        )
        return self._top_up(state, status, len(pool) + _MIN_POOL)

    def _top_up(self, state: st.CoreState, status: int, need: int) -> st.CoreState:
        name, ptr_index, draw = {
            st.NEED_DEMAND: ("pool_demand", st.IC_DEM_PTR, self.service.sample),
            st.NEED_GAP: ("pool_gap", st.IC_GAP_PTR, self.gap.sample),
            st.NEED_UNIFORM: ("pool_uniform", st.IC_UNI_PTR, self._uniform),
        }[status]
        pool = getattr(state, name)[state.ic[ptr_index] :]
        if len(pool) >= need:
            return state
        rng = {
            st.NEED_DEMAND: self.demand_rng,
            st.NEED_GAP: self.gap_rng,
            st.NEED_UNIFORM: self.uniform_rng,
        }[status]
        fresh = draw(rng, need - len(pool) + _MIN_POOL)
        state.ic[ptr_index] = 0
        return state._replace(**{name: np.concatenate([pool, fresh])})

    @staticmethod
    def _uniform(rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.uniform(size=n)
