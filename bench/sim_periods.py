"""What the runner's decision periods cost on bench_sim.py's PS workload.

    python bench/sim_periods.py [--runs 5]

M/M/4 processor sharing on one VM, 200,000 customers, no autoscaling, monitored every
60 s: the default 60 s decision periods against one period for the whole run. CPU
seconds, medians of ``--runs`` runs, the cases interleaved in one process after a
warm-up run each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from headroom.core import numba_cache

numba_cache.configure()  # before numba loads: its own cache misses changes to inlined helpers

from headroom.engine.sim import Scenario, Simulation, load_scenario  # noqa: E402

RATE_PER_S, CUSTOMERS = 0.8 * 4, 200_000
DURATION_S = CUSTOMERS / RATE_PER_S


def scenario(step_s: float = 60.0) -> Scenario:
    return load_scenario(
        {
            "duration_s": DURATION_S,
            "seed": 1,
            "workload": {
                "arrivals": {"rate_per_s": RATE_PER_S},
                "service_s": {"dist": "exponential", "mean": 1.0},
            },
            "cluster": {"cores": 4, "discipline": "ps"},
            "autoscaling": {"policy": "none", "monitor_s": 60.0, "step_s": step_s},
        }
    )


def cpu_s(s: Scenario) -> tuple[float, int]:
    start = time.process_time()
    result = Simulation(s).run()
    return time.process_time() - start, result.events


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases = {"60 s periods": scenario(), "one period": scenario(step_s=DURATION_S)}
    for s in cases.values():
        cpu_s(s)
    runs: dict[str, list[float]] = {name: [] for name in cases}
    events: dict[str, int] = {}
    for _ in range(args.runs):
        for name, s in cases.items():
            seconds, events[name] = cpu_s(s)
            runs[name].append(seconds)
    for name, times in runs.items():
        each = " ".join(f"{x:.3f}" for x in times)
        median = statistics.median(times)
        print(f"{name}: median {median:.3f} CPU s ({each}), {events[name]} events")
    first, second = (statistics.median(v) for v in runs.values())
    print(f"ratio {first / second:.2f}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
