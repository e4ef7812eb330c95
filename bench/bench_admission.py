"""Benchmark of the per-event admission and background kernels (headroom.engine.admission,
headroom.engine.background), the code the simulator core will call per arrival / round.

    python bench/bench_admission.py [--quick] [--runs 3]

1. Virtual queue: 1M arrivals at 2x a 1000 req/s capacity (Poisson, seeded), max wait
   3600 s, against a reference scheduler in plain Python (a dict of absolute seconds,
   scanned from the first second with room). Both must give the same waits.
2. Background policies: the adaptive controller over 1M rounds, against the same round
   model and controller in plain Python. Both must give the same quotas.
3. Capacity discovery as the simulator's virtual_queue stage (engine/sim/waiting_room.py)
   on the 100 req/s server of tests/engine/sim/test_sim_waiting_room_discovery.py (4 PS
   cores, 0.04 s demand, pool 16, overhead above 8; demand 260 req/s; max wait 60 s):
   simulated seconds to converge from the start, after the capacity doubles (1 -> 2 VMs
   at 400 s) and after it halves (2 -> 1 VMs at 600 s), medians over seeds, beside the
   power-ratio peak of a sweep of fixed capacities (the reference the estimate aims at)
   and docs/methods/admission.md's expectations (~200 s; "a few hundred seconds").
Medians of --runs runs (>= 3) and ratios are printed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

import numpy as np

from headroom.engine.admission.virtual_queue import vq_assign_all, vq_new
from headroom.engine.background.reservation import ReservationParams, simulate


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def reference_waits(arrival_s: np.ndarray, capacity: float, max_wait_s: int) -> list[int]:
    booked: dict[int, float] = defaultdict(float)
    first_open = 0
    waits = []
    for t in arrival_s.tolist():
        now = int(t)
        start = max(now, first_open)
        wait = -1
        for s in range(start, now + max_wait_s):
            if booked[s] + 1.0 <= capacity:
                booked[s] += 1.0
                wait = s - now
                break
        while booked[first_open] + 1.0 > capacity:
            first_open += 1
        waits.append(wait)
    return waits


def reference_quotas(demand: np.ndarray, band: float = 0.02) -> list[float]:
    quota, multiplier, overload, backlog, out = 0.0, 1.0, 0, 0.0, []
    for f in demand.tolist():
        out.append(quota)
        d = f + backlog
        bg = min(quota, max(0.5, 1.0 - d))
        fg = min(d, 1.0 - bg)
        backlog = d - fg
        idle = max(0.0, 1.0 - fg - bg)
        if idle <= 1e-9:
            overload, multiplier = overload + 1, min(2 * multiplier, 16.0)
        else:
            overload, multiplier = 0, max(multiplier - 1, 1.0)
        if overload > 4:
            overload, quota, multiplier = 0, 0.0, 16.0
        else:
            quota = quota + (idle - multiplier * band)
        quota = min(max(quota, 0.0), 1.0)
    return out


def bench_queue(n: int, runs: int) -> None:
    rng = np.random.default_rng(1)
    capacity = 1000.0
    arrival_s = np.cumsum(rng.exponential(1 / (2 * capacity), n))
    ones = np.ones(n)

    def engine() -> np.ndarray:
        slots, state = vq_new(3600, capacity)
        return vq_assign_all(slots, state, arrival_s, ones)

    assert engine().tolist() == reference_waits(arrival_s, capacity, 3600)
    fast, slow = (
        median_time(engine, runs),
        median_time(lambda: reference_waits(arrival_s, capacity, 3600), runs),
    )
    print(f"virtual queue, {n:,} arrivals at 2x capacity")
    print(f"  engine (njit)     {fast:8.3f} s  {n / fast / 1e6:6.1f} M arrivals/s")
    print(f"  reference (Python){slow:8.3f} s  ratio {slow / fast:6.1f}x")


def bench_background(n: int, runs: int) -> None:
    rng = np.random.default_rng(2)
    t = np.arange(n)
    demand = np.clip(0.35 + 0.25 * np.sin(2 * np.pi * t / 900) + rng.normal(0, 0.05, n), 0, 1)
    params = ReservationParams()
    engine_quota = simulate(demand, "adaptive", params).quota
    assert np.allclose(engine_quota, reference_quotas(demand))
    fast = median_time(lambda: simulate(demand, "adaptive", params), runs)
    slow = median_time(lambda: reference_quotas(demand), runs)
    print(f"adaptive reservation, {n:,} rounds")
    print(f"  engine (njit)     {fast:8.3f} s  {n / fast / 1e6:6.1f} M rounds/s")
    print(f"  reference (Python){slow:8.3f} s  ratio {slow / fast:6.1f}x")


def _discovery_run(schedule: list[list[int]], duration_s: float, seed: int, **adm: object):
    from headroom.engine.sim import Simulation

    doc = {
        "duration_s": duration_s,
        "workload": {
            "arrivals": {"rate_per_s": 260.0},
            "service_s": {"dist": "constant", "value": 0.04},
        },
        "cluster": {
            "cores": 4,
            "pool_limit": 16,
            "overhead": {"q_upper": 8, "factor": 0.98},
            "vms": {"min": 1, "max": 2, "start": schedule[0][1]},
            "boot_s": 0,
        },
        "dispatch": {"policy": "least_connections", "per": "request"},
        "autoscaling": {"policy": "scheduled", "schedule": schedule, "step_s": 8},
        "admission": {"policy": "virtual_queue", "max_wait_s": 60, **adm},
    }
    return Simulation(doc).run(seed)


def _swept_peak(vms: int, rates: np.ndarray) -> float:
    gamma = []
    for rate in rates:
        r = _discovery_run([[0, vms]], 160.0, 0, capacity=float(rate))
        gamma.append(r.completed / r.duration_s / r.latency.mean_s)
    return float(rates[int(np.argmax(gamma))])


def bench_discovery(seeds: int) -> None:
    cases = (
        ("from the start (1 VM)", [[0, 1]], 400.0, 0.0, 1),
        ("after doubling at 400 s", [[0, 1], [400, 2]], 1000.0, 400.0, 2),
        ("after halving at 600 s", [[0, 2], [600, 1]], 1200.0, 600.0, 1),
    )
    peaks = {1: _swept_peak(1, np.arange(40.0, 90.1, 5.0))}
    peaks[2] = _swept_peak(2, np.arange(80.0, 180.1, 10.0))
    print(f"capacity discovery in the simulator, {seeds} seeds (medians)")
    print(f"  swept power-ratio peak: 1 VM {peaks[1]:.0f} req/s, 2 VMs {peaks[2]:.0f} req/s")
    for label, schedule, duration, change, vms in cases:
        took, estimate, wall = [], [], []
        for seed in range(seeds):
            r = _discovery_run(schedule, duration, seed, capacity="discover")
            after = r.admission_series["converged_t_s"]
            after = after[after > change]
            took.append(after[0] - change if after.size else float("nan"))
            estimate.append(r.admission["capacity_estimate_per_s"] or float("nan"))
            wall.append(r.wall_s)
        t, e = statistics.median(took), statistics.median(estimate)
        print(
            f"  {label:24s} converged in {t:5.0f} s  estimate {e:5.1f} req/s "
            f"({e / peaks[vms]:.2f} x peak)  wall {statistics.median(wall):.2f} s/run"
        )
    print("  spec: ~200 s from the start; a few hundred seconds after a doubling or halving")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="100k instead of 1M")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n = 100_000 if args.quick else 1_000_000
    runs = max(3, args.runs)
    bench_queue(n, runs)
    bench_background(n, runs)
    bench_discovery(3 if args.quick else 7)


if __name__ == "__main__":
    main()
