"""Vectorised pre-draws that feed the core: arrivals per segment and i.i.d. pools.

Every class has its own generators spawned from the run's seed (arrivals, pages,
service demands, gaps), and dispatch uniforms have one more, so changing one setting
(say the push fraction) leaves the other streams' draws unchanged: common random
numbers across runs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from headroom.engine.sim.arrivals import (
    ArrivalProcess,
    PoissonArrivals,
    ProfileArrivals,
    ReplayArrivals,
)
from headroom.engine.sim.distributions import Constant, Distribution
from headroom.engine.sim.kernel import state as st
from headroom.engine.sim.scenario import (
    Arrivals,
    Scenario,
    ScenarioError,
    WorkloadClass,
    build_distribution,
)

MIN_POOL = 1024


def build_arrivals(spec: Arrivals, datasets: Mapping[str, np.ndarray]) -> ArrivalProcess:
    if spec.profile is not None:
        starts = tuple(t for t, _ in spec.profile)
        rates = tuple(r for _, r in spec.profile)
        return ProfileArrivals(starts, rates, linear=spec.interpolation == "linear")
    if spec.times_s is not None:
        return ReplayArrivals(np.sort(np.asarray(spec.times_s, np.float64)), spec.time_scale)
    if spec.dataset is not None:
        if spec.dataset not in datasets:
            raise ScenarioError(f"workload.arrivals.dataset: unknown dataset {spec.dataset!r}")
        times = np.sort(np.asarray(datasets[spec.dataset], np.float64))
        return ReplayArrivals(times, spec.time_scale)
    return PoissonArrivals(spec.rate_per_s or 0.0)


class ClassFeed:
    """The draws of one request class."""

    def __init__(
        self, spec: WorkloadClass, datasets: Mapping[str, np.ndarray], seed: np.random.SeedSequence
    ):
        rngs = [np.random.default_rng(c) for c in seed.spawn(4)]
        self.arrival_rng, self.page_rng, self.demand_rng, self.gap_rng = rngs
        assert spec.arrivals is not None, "Workload.class_list() gives every class arrivals"
        self.arrivals = build_arrivals(spec.arrivals, datasets)
        self.service: Distribution = build_distribution(spec.service_s, datasets)
        page = spec.page
        self.objects = build_distribution(page.objects, datasets) if page else Constant(0)
        self.gap = build_distribution(page.gap_s, datasets) if page else Constant(0)
        self.push = page.push_fraction if page else 0.0
        self.early_hints = bool(page and page.early_hints)
        self.pages = page is not None

    def arrivals_between(self, t0: float, t1: float) -> tuple[st.F64, st.I64, st.I64]:
        times = self.arrivals.between(self.arrival_rng, t0, t1)
        n = len(times)
        if not self.pages:
            none = np.zeros(n, dtype=np.int64)
            return times, none, none
        nobj = np.maximum(np.rint(self.objects.sample(self.page_rng, n)), 0).astype(np.int64)
        npush = np.floor(self.push * nobj + self.page_rng.uniform(size=n)).astype(np.int64)
        return times, nobj, np.minimum(npush, nobj)


def topped_up(left: st.F64, need: int, dist: Distribution, rng: object) -> st.F64:
    """``left`` (a class's unread values) followed by fresh draws of what ``need`` and a
    spare ``MIN_POOL`` lack."""
    fresh = dist.sample(rng, fresh_count(len(left), need))  # type: ignore[arg-type]
    return np.concatenate([left, fresh])


def fresh_count(unread: int, need: int) -> int:
    """How many values a pool holding ``unread`` draws for ``need``: what it lacks and a
    spare ``MIN_POOL``."""
    return max(need + MIN_POOL - unread, 0)


def top_up_rows(
    pool: st.F64, cursor: st.I64, need: list[int], draws: list[tuple[Distribution, object]]
) -> st.F64:
    """Per class: keep the unread values, draw what ``need`` and a spare ``MIN_POOL``
    lack, reset the cursor. The pool stays near that size however long the run: values
    are consumed in drawn order, so how the draws are split does not change them."""
    ptr, length = cursor[:, 0], cursor[:, 1]
    rows = [
        topped_up(pool[c, ptr[c] : length[c]], need[c], dist, rng)
        for c, (dist, rng) in enumerate(draws)
    ]
    width = max(len(r) for r in rows)
    out = np.zeros((len(rows), width))
    for c, row in enumerate(rows):
        out[c, : len(row)] = row
        cursor[c] = (0, len(row))
    return out


class Feeder:
    def __init__(self, s: Scenario, datasets: Mapping[str, np.ndarray], seed: int) -> None:
        specs = s.workload.class_list()
        seeds = np.random.SeedSequence(seed).spawn(len(specs) + 1)
        self.classes = [ClassFeed(c, datasets, sd) for c, sd in zip(specs, seeds, strict=False)]
        self.uniform_rng = np.random.default_rng(seeds[-1])
        self.random_dispatch = s.dispatch.policy == "random"
        self.arrived = np.zeros(len(specs), dtype=np.int64)  # base arrivals fed, per class

    def request_rates_per_s(self, duration_s: float) -> list[float]:
        """Each class's mean offered request rate over the run (pages count 1 + objects)."""
        return [
            c.arrivals.mean_rate_per_s(duration_s) * (1.0 + c.objects.mean) for c in self.classes
        ]

    @property
    def mean_service_s(self) -> float:
        """Mean demand per request over all classes (weighted by their request rates)."""
        weights = np.array([1 + c.objects.mean for c in self.classes], dtype=np.float64)
        return float(np.average([c.service.mean for c in self.classes], weights=weights))

    def segment(self, state: st.CoreState, t0: float, t1: float) -> st.CoreState:
        """Install the arrivals of [t0, t1) (all classes, merged) and top up the pools."""
        parts = [c.arrivals_between(t0, t1) for c in self.classes]
        self.arrived += [len(p[0]) for p in parts]
        times = np.concatenate([p[0] for p in parts])
        arr_n = np.empty((len(times), 3), dtype=np.int64)
        for col in (0, 1):
            arr_n[:, col] = np.concatenate([p[col + 1] for p in parts])
        arr_n[:, 2] = np.repeat(np.arange(len(parts)), [len(p[0]) for p in parts])
        if len(parts) > 1:
            order = np.argsort(times, kind="stable")
            times, arr_n = times[order], arr_n[order]
        state.ic[st.IC_ARR_PTR] = 0
        state = state._replace(arr_t=times, arr_n=arr_n)
        demands = [int(len(p[0]) + p[1].sum()) for p in parts]
        gaps = [int((p[1] - p[2]).sum()) for p in parts]
        return self._top_up(state, demands, gaps, sum(demands))

    def enlarge(self, state: st.CoreState, status: int) -> st.CoreState:
        """What the loop's ``NEED_*`` status names: the pools of draws refilled, or the
        capacity grown."""
        if status in (st.NEED_DEMAND, st.NEED_GAP, st.NEED_UNIFORM):
            return self._refill(state)
        return st.grow(state, status)

    def _refill(self, state: st.CoreState) -> st.CoreState:
        """The core ran short mid-segment: enlarge every class's pools (and the uniforms)."""
        demands = [int(n) for n in state.cls[:, st.CL_DEM_LEN] + MIN_POOL]
        gaps = [int(n) for n in state.cls[:, st.CL_GAP_LEN] + MIN_POOL]
        return self._top_up(state, demands, gaps, len(state.pool_uniform) + MIN_POOL)

    def _top_up(
        self, state: st.CoreState, demands: list[int], gaps: list[int], uniforms: int
    ) -> st.CoreState:
        cls = state.cls
        dem_cursor = cls[:, [st.CL_DEM_PTR, st.CL_DEM_LEN]]
        gap_cursor = cls[:, [st.CL_GAP_PTR, st.CL_GAP_LEN]]
        pool_demand = top_up_rows(
            state.pool_demand,
            dem_cursor,
            demands,
            [(c.service, c.demand_rng) for c in self.classes],
        )
        pool_gap = top_up_rows(
            state.pool_gap, gap_cursor, gaps, [(c.gap, c.gap_rng) for c in self.classes]
        )
        cls[:, [st.CL_DEM_PTR, st.CL_DEM_LEN]] = dem_cursor
        cls[:, [st.CL_GAP_PTR, st.CL_GAP_LEN]] = gap_cursor
        state = state._replace(pool_demand=pool_demand, pool_gap=pool_gap)
        if not self.random_dispatch:
            return state
        return state._replace(pool_uniform=self.uniforms(state.pool_uniform, state.ic, uniforms))

    def uniforms(self, pool: np.ndarray, ic: np.ndarray, need: int) -> np.ndarray:
        """Random dispatch's pool: its unread uniforms, then fresh draws up to ``need``
        and a spare ``MIN_POOL`` (the read pointer ``ic[IC_UNI_PTR]`` goes back to 0)."""
        left = pool[ic[st.IC_UNI_PTR] :]
        ic[st.IC_UNI_PTR] = 0
        fresh = self.uniform_rng.uniform(size=max(need - len(left), 0) + MIN_POOL)
        return np.concatenate([left, fresh])
