"""Benchmark of headroom.engine.sim against SimPy, and the spec's full-day reference scenario.

    python bench/bench_sim.py [--quick] [--runs 3]

1. M/M/c FCFS (c = 4, utilisation 0.8, 1,000,000 customers): our engine against the
   standard SimPy model (one ``simpy.Resource`` with c slots; exponential gaps and services
   drawn in bulk with numpy before the clock starts, while ours draws inside its timing),
   events/s where an event is an arrival or a departure before the horizon, counted the
   same way on both sides. Ours runs this scenario on its FCFS fast path (kernel/fcfs.py);
   the general event loop (the tier loop, tiers/loop.py) on the same scenario is printed
   too. Both mean waits are printed beside Erlang C as a sanity check.
2. Monitoring cost: M/M/10 with no autoscaling (default 60 s decision steps), the general
   loop monitored every 0.1 s (the default) and every 60 s, CPU seconds and their ratio.
3. The reference university scenario of docs/methods/simulator.md (24 h, diurnal profile, 40
   objects per page, 50% push, threshold autoscaling at 0.1 s monitoring): wall time and
   peak memory (each run in a fresh process), plus the one-off numba compile time (cold
   cache in a temporary directory) reported separately.
Medians of --runs runs (>= 3) and ratios are printed; the M/M/c rates are given per
wall-clock second and per CPU second (the latter is steadier on a shared machine).
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import simpy

from headroom.core import numba_cache

numba_cache.configure()  # before numba loads: its own cache misses changes to inlined helpers

from headroom.engine.sim import Simulation, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "backend" / "tests" / "engine" / "sim" / "reference_scenario.yaml"
C, RHO, MU = 4, 0.8, 1.0


def erlang_c_wait(c: int, lam: float, mu: float) -> float:
    a = lam / mu
    top = a**c / math.factorial(c) * c / (c - a)
    pw = top / (sum(a**k / math.factorial(k) for k in range(c)) + top)
    return pw / (c * mu - lam)


class Timing(NamedTuple):
    events: int
    wall_s: float
    cpu_s: float
    mean_wait_s: float


def ours(n: int, seed: int, fast_paths: bool = True) -> Timing:
    lam = RHO * C * MU
    doc = {
        "duration_s": n / lam,
        "seed": seed,
        "workload": {
            "arrivals": {"rate_per_s": lam},
            "service_s": {"dist": "exponential", "mean": 1 / MU},
        },
        "cluster": {"cores": C, "discipline": "fcfs"},
        "autoscaling": {"policy": "none", "monitor_s": 60.0, "step_s": n / lam / 4},
    }
    start, cpu = time.perf_counter(), time.process_time()
    r = Simulation(load_scenario(doc), fast_paths=fast_paths).run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    mean_wait = r.latency.mean_s - 1 / MU  # FCFS: response = wait + service (mean 1/mu)
    return Timing(r.events, wall, cpu, mean_wait)


def monitored(n: int, monitor_s: float) -> float:
    """CPU seconds of an M/M/10 run of n customers (utilisation 0.8) with the default
    60 s decision steps, monitored every ``monitor_s`` (the general event loop)."""
    lam = 8.0
    doc = {
        "duration_s": n / lam,
        "seed": 1,
        "workload": {
            "arrivals": {"rate_per_s": lam},
            "service_s": {"dist": "exponential", "mean": 1.0},
        },
        "cluster": {"cores": 10, "discipline": "fcfs"},
        "autoscaling": {"policy": "none", "monitor_s": monitor_s},
    }
    cpu = time.process_time()
    Simulation(load_scenario(doc), fast_paths=False).run()
    return time.process_time() - cpu


def simpy_model(n: int, seed: int) -> Timing:
    lam = RHO * C * MU
    rng = np.random.default_rng(seed)
    gaps, services = rng.exponential(1 / lam, n), rng.exponential(1 / MU, n)
    env = simpy.Environment()
    server = simpy.Resource(env, capacity=C)
    waits: list[float] = []
    departures = [0]

    def customer(i: int) -> Any:
        arrived = env.now
        with server.request() as req:
            yield req
            waits.append(env.now - arrived)
            yield env.timeout(services[i])
        departures[0] += 1

    def source() -> Any:
        for i in range(n):
            yield env.timeout(gaps[i])
            env.process(customer(i))

    env.process(source())
    start, cpu = time.perf_counter(), time.process_time()
    env.run(until=float(gaps.sum()))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    events = n + departures[0]  # every customer arrives before the horizon
    return Timing(events, wall, cpu, float(np.mean(waits)))


def reference_run(duration_s: float, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One reference run in a fresh interpreter: wall time, peak RSS, summary."""
    code = f"""
import json, time
from headroom.engine.sim import Simulation, load_scenario
def hwm_kb():  # VmHWM resets at exec, unlike ru_maxrss which a forked child inherits
    line = [x for x in open("/proc/self/status") if x.startswith("VmHWM")][0]
    return int(line.split()[1])
base = hwm_kb()
s = load_scenario(open({str(REFERENCE)!r}).read()).model_copy(update={{"duration_s": {duration_s}}})
t, c = time.perf_counter(), time.process_time()
r = Simulation(s).run()
wall, cpu = time.perf_counter() - t, time.process_time() - c
peak = hwm_kb()
print(json.dumps({{"wall_s": wall, "cpu_s": cpu, "peak_mb": peak / 1024, "base_mb": base / 1024,
                  "summary": r.summary()}}, default=float))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def compile_seconds() -> tuple[float, float]:
    """Cold numba compile with an empty cache directory, each in a fresh process: the
    general loop (a 60 s reference run) and the FCFS fast path (a 1,000-customer M/M/c)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        reference_run(60.0, env)
        general = time.perf_counter() - start
        code = f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench_sim; "
        code += "bench_sim.ours(1000, 0)"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        return general, time.perf_counter() - start


class Work(NamedTuple):
    requests: int
    cpu_s: float
    mean_response_s: float


def ours_ps(n: int, seed: int) -> Work:
    """M/M/c processor sharing on one VM of c cores: n customers, the general event loop."""
    lam = RHO * C * MU
    doc = {
        "duration_s": n / lam,
        "seed": seed,
        "workload": {
            "arrivals": {"rate_per_s": lam},
            "service_s": {"dist": "exponential", "mean": 1 / MU},
        },
        "cluster": {"cores": C, "discipline": "ps"},
        "autoscaling": {"policy": "none", "monitor_s": 60.0},
    }
    cpu = time.process_time()
    r = Simulation(load_scenario(doc)).run()
    return Work(r.requests, time.process_time() - cpu, r.latency.mean_s)


def simpy_ps(n: int, seed: int) -> Work:
    """The same queue in SimPy: each of the k requests in service runs at min(1, c / k).
    A virtual clock advancing at that rate and a heap of finish tags make each event
    O(log k), as in ours; the server process sleeps until the next finish and an
    arrival interrupts it."""
    lam = RHO * C * MU
    rng = np.random.default_rng(seed)
    gaps, services = rng.exponential(1 / lam, n), rng.exponential(1 / MU, n)
    env = simpy.Environment()
    tags: list[tuple[float, float]] = []  # (virtual finish tag, arrival time)
    clock = {"v": 0.0, "t": 0.0}
    responses: list[float] = []

    def advance() -> None:
        if tags:
            clock["v"] += (env.now - clock["t"]) * min(1.0, C / len(tags))
        clock["t"] = env.now

    def server() -> Any:
        while True:
            try:
                if tags:
                    yield env.timeout((tags[0][0] - clock["v"]) / min(1.0, C / len(tags)))
                    advance()
                    _, arrived = heapq.heappop(tags)
                    responses.append(env.now - arrived)
                else:
                    yield env.timeout(math.inf)
            except simpy.Interrupt:
                pass

    def source(proc: Any) -> Any:
        for i in range(n):
            yield env.timeout(gaps[i])
            advance()
            heapq.heappush(tags, (clock["v"] + services[i], env.now))
            proc.interrupt()

    proc = env.process(server())
    env.process(source(proc))
    cpu = time.process_time()
    env.run(until=float(gaps.sum()))
    return Work(n, time.process_time() - cpu, float(np.mean(responses)))


PAGE_OBJECTS, PAGE_GAP_S, PAGE_SERVICE_S = 10, 0.05, 0.01


def ours_pages(n_pages: int, seed: int) -> Work:
    """Pages of a base request and 10 objects, each requested at max(base response, base
    arrival + its gaps), on one FCFS VM of c cores at utilisation 0.8 (the general loop)."""
    lam = RHO * C / PAGE_SERVICE_S / (PAGE_OBJECTS + 1)
    doc = {
        "duration_s": n_pages / lam,
        "seed": seed,
        "workload": {
            "arrivals": {"rate_per_s": lam},
            "page": {
                "objects": {"dist": "constant", "value": PAGE_OBJECTS},
                "gap_s": {"dist": "exponential", "mean": PAGE_GAP_S},
            },
            "service_s": {"dist": "exponential", "mean": PAGE_SERVICE_S},
        },
        "cluster": {"cores": C, "discipline": "fcfs"},
        "autoscaling": {"policy": "none", "monitor_s": 60.0},
    }
    cpu = time.process_time()
    r = Simulation(load_scenario(doc)).run()
    assert r.plt is not None
    return Work(r.requests, time.process_time() - cpu, r.plt.mean_s)


def simpy_pages(n_pages: int, seed: int) -> Work:
    """The same pages in SimPy: a process per page serves its base request, then starts a
    process per object at max(base response, arrival + its gaps); the page load time
    runs from the page's arrival to its last object's response."""
    lam = RHO * C / PAGE_SERVICE_S / (PAGE_OBJECTS + 1)
    rng = np.random.default_rng(seed)
    arrivals = np.cumsum(rng.exponential(1 / lam, n_pages))
    starts = np.cumsum(rng.exponential(PAGE_GAP_S, (n_pages, PAGE_OBJECTS)), axis=1)
    services = rng.exponential(PAGE_SERVICE_S, (n_pages, PAGE_OBJECTS + 1))
    env = simpy.Environment()
    server = simpy.Resource(env, capacity=C)
    plts: list[float] = []
    served = [0]

    def request(service_s: float) -> Any:
        with server.request() as req:
            yield req
            yield env.timeout(service_s)
        served[0] += 1

    def obj(page: int, k: int, base_done: float) -> Any:
        yield env.timeout(max(base_done, arrivals[page] + starts[page, k]) - env.now)
        yield env.process(request(services[page, k + 1]))

    def page(i: int) -> Any:
        yield env.process(request(services[i, 0]))
        base_done = env.now
        yield env.all_of([env.process(obj(i, k, base_done)) for k in range(PAGE_OBJECTS)])
        plts.append(env.now - arrivals[i])

    def source() -> Any:
        for i in range(n_pages):
            yield env.timeout(arrivals[i] - env.now)
            env.process(page(i))

    env.process(source())
    cpu = time.process_time()
    env.run(until=float(arrivals[-1]))
    return Work(served[0], time.process_time() - cpu, float(np.mean(plts)))


def compare_workloads(n: int, runs: int) -> None:
    """PS and page workloads, ours (general loop) against SimPy: CPU per simulated request."""
    pairs = {
        f"M/M/{C}-PS, {n:,} customers": (ours_ps, simpy_ps, n),
        f"pages of 1 + {PAGE_OBJECTS}, {n // 11:,} pages": (ours_pages, simpy_pages, n // 11),
    }
    print("\nGeneral loop against SimPy, CPU per request (medians of interleaved runs)")
    print(f"  {'workload':<33} ours µs/req  SimPy µs/req  ratio  mean resp. s ours/SimPy")
    for label, (ours_model, simpy_fn, size) in pairs.items():
        ours_runs, simpy_runs = [], []
        for seed in range(runs):
            ours_runs.append(ours_model(size, seed))
            simpy_runs.append(simpy_fn(size, seed))
        both = (ours_runs, simpy_runs)
        ours_us, simpy_us = (
            1e6 * statistics.median(w.cpu_s / w.requests for w in ws) for ws in both
        )
        ours_resp, simpy_resp = (statistics.median(w.mean_response_s for w in ws) for ws in both)
        print(
            f"  {label:<33} {ours_us:>11.2f} {simpy_us:>13.2f} {simpy_us / ours_us:>5.1f}x"
            f" {ours_resp:>10.4f} / {simpy_resp:.4f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="200k customers, 2 h reference")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = max(3, args.runs)
    n = 200_000 if args.quick else 1_000_000
    ref_s = 7200.0 if args.quick else 86400.0

    ours(10_000, 0)  # load the compiled code from the cache outside the timings
    ours(10_000, 0, fast_paths=False)
    print(f"M/M/{C} FCFS, utilisation {RHO}, {n:,} customers, {runs} runs each, interleaved")
    models: dict[str, Callable[[int, int], Timing]] = {
        "headroom (fast path)": ours,
        "headroom (general)": lambda n, seed: ours(n, seed, fast_paths=False),
        "SimPy": simpy_model,
    }
    timings: dict[str, list[Timing]] = {name: [] for name in models}
    for seed in range(runs):
        for name, model in models.items():
            timings[name].append(model(n, seed))
    print(f"  Erlang C mean wait {erlang_c_wait(C, RHO * C * MU, MU):.4f} s")
    print("  medians               events/s (wall)  events/s (CPU)   wall s   CPU s  mean wait s")
    rates = {}
    for name, ts in timings.items():
        wall, cpu = statistics.median(t.wall_s for t in ts), statistics.median(t.cpu_s for t in ts)
        rates[name] = (
            statistics.median(t.events / t.wall_s for t in ts),
            statistics.median(t.events / t.cpu_s for t in ts),
        )
        wait = statistics.median(t.mean_wait_s for t in ts)
        print(
            f"  {name:<21} {rates[name][0]:>15,.0f} {rates[name][1]:>15,.0f}"
            f" {wall:>8.3f} {cpu:>7.3f} {wait:>12.4f}"
        )
    simpy = rates["SimPy"]
    for name in ("headroom (fast path)", "headroom (general)"):
        ratio = rates[name][0] / simpy[0], rates[name][1] / simpy[1]
        print(f"  ratio to SimPy, {name:<21} {ratio[0]:>6.1f}x wall {ratio[1]:>6.1f}x CPU")
    compare_workloads(n, runs)
    ticks = {m: statistics.median(monitored(n, m) for _ in range(runs)) for m in (0.1, 60.0)}
    print(
        f"\nM/M/10, {n:,} customers, no autoscaling, general loop: monitor_s 0.1 "
        f"{ticks[0.1]:.2f} CPU s, monitor_s 60 {ticks[60.0]:.2f} CPU s "
        f"(ratio {ticks[0.1] / ticks[60.0]:.2f}, medians of {runs})"
    )
    print(f"\nReference scenario ({ref_s / 3600:.0f} h), {runs} runs in fresh processes (medians)")
    refs = [reference_run(ref_s) for _ in range(runs)]
    summary = refs[0]["summary"]
    actions = summary["vms"]["scaling_actions"]
    print(f"  pages {summary['pages']:,}, requests {summary['requests']:,}")
    print(f"  events {summary['events']:,}, scaling actions {actions}")
    wall = statistics.median(r["wall_s"] for r in refs)
    cpu = statistics.median(r["cpu_s"] for r in refs)
    print(f"  wall time            {wall:>10.2f} s (goal < 60 s on one core)")
    print(f"  CPU time             {cpu:>10.2f} s (steadier than wall on a shared machine)")
    print(f"  events/s             {summary['events'] / wall:>10,.0f}")
    peak = statistics.median(r["peak_mb"] for r in refs)
    base = statistics.median(r["base_mb"] for r in refs)
    print(f"  peak memory          {peak:>10.0f} MB (interpreter + imports {base:.0f} MB)")
    if not args.quick:
        general, fast = compile_seconds()
        print("\nnumba compile, cold cache (fresh process, incl. imports and a tiny run)")
        print(f"  general loop {general:.1f} s, then the FCFS fast path {fast:.1f} s")


if __name__ == "__main__":
    main()
