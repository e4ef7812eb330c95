"""The feeder's pools: bounded however many segments a run has, values in drawn order."""

from __future__ import annotations

import numpy as np

from headroom.engine.sim import Simulation, simulation
from headroom.engine.sim.feed import MIN_POOL, Feeder
from headroom.engine.sim.kernel import state as st

DOC = {
    "duration_s": 1000.0,
    "seed": 3,
    "workload": {
        "arrivals": {"rate_per_s": 50.0},
        "service_s": {"dist": "exponential", "mean": 0.1},
    },
    "cluster": {"cores": 4, "discipline": "fcfs"},
}


def test_pools_stay_bounded_and_hand_out_one_stream() -> None:
    """500 one-second segments, each consuming its demands as the core would: the pools
    hold at most a segment's need plus the spare (they grew by the spare per segment,
    unread gaps included, copying ever longer rows), and the demands read across
    segments are one generator's draws in order."""
    sim = Simulation(DOC)
    feeder = Feeder(sim.scenario, {}, 3)
    state = simulation._new_state(sim.scenario, False, 1)
    read = []
    for k in range(500):
        state = feeder.segment(state, float(k), float(k + 1))
        n = len(state.arr_t)
        ptr = int(state.cls[0, st.CL_DEM_PTR])
        read.append(state.pool_demand[0, ptr : ptr + n].copy())
        state.cls[0, st.CL_DEM_PTR] += n
        assert state.pool_demand.shape[1] <= n + 2 * MIN_POOL
        assert state.pool_gap.shape[1] <= 2 * MIN_POOL
    demand_seed = np.random.SeedSequence(3).spawn(2)[0].spawn(4)[2]
    expected = np.random.default_rng(demand_seed).exponential(0.1, sum(map(len, read)))
    np.testing.assert_array_equal(np.concatenate(read), expected)
