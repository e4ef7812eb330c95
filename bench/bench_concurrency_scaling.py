"""Concurrency-aware vs hardware-only scaling of a three-tier cluster on six bursty profiles.

The concurrency-aware scaling check (docs/methods/concurrency.md): the app tier scales by
CPU threshold; hardware-only
scaling leaves the db's pool unbounded, so every app VM added lets 10 more concurrent
queries into the db, past its SCT peak (15) into the overhead model's descending stage;
the concurrency-aware policy re-runs SCT on the db after every scaling action and sets
its pool to Q_lower. The scenario and the derivation of its numbers:
headroom.engine.sim.tiers.presets.

Prints, per profile and policy, medians over the seeds of the end-to-end p95 and p99,
the p99 in the minute after each scale-out (median over the scale-outs of a run, then
over seeds), scale-outs, db pool changes and wall time; then the p99 ratio.

    python bench/bench_concurrency_scaling.py            # six profiles, 3 seeds, 1 h each
    python bench/bench_concurrency_scaling.py --quick    # six profiles, 3 seeds, 6x compressed
    python bench/bench_concurrency_scaling.py --profiles big_spike,dual_phase  # some of them
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend"))

from headroom.engine.sim import Simulation  # noqa: E402
from headroom.engine.sim.tiers.presets import concurrency_scenario, scale_out_p99_s  # noqa: E402

PROFILES = (
    "large_variation",
    "quick_varying",
    "slowly_varying",
    "big_spike",
    "dual_phase",
    "steep_tri_phase",
)
POLICIES = ("threshold", "concurrency_aware")


def load_profile(name: str) -> list[tuple[float, float]]:
    with open(ROOT / "data" / "profiles" / f"{name}.csv", newline="") as f:
        return [(float(r["t_s"]), float(r["rate_per_s"])) for r in csv.DictReader(f)]


def run_once(profile: list[tuple[float, float]], policy: str, seed: int, scale: float) -> dict:
    started = time.perf_counter()
    result = Simulation(concurrency_scenario(profile, policy, seed, time_scale=scale)).run()
    after = [x for x in scale_out_p99_s(result, 60 * scale) if x == x]
    return {
        "p95": result.latency.p95_s,
        "p99": result.latency.p99_s,
        "after": statistics.median(after) if after else float("nan"),
        "outs": sum(a.to_vms > a.from_vms for a in result.actions),
        "pools": len(result.tier_series["pool_changes"]) if result.tier_series else 0,
        "wall": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6x compressed hour")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--profiles", default=",".join(PROFILES), help="comma-separated")
    args = parser.parse_args()
    scale = 1 / 6 if args.quick else 1.0
    seeds = range(1, args.seeds + 1)
    print(f"time scale {scale:.3g}, seeds {list(seeds)}; medians over seeds")
    head = f"{'profile':16} {'policy':18} {'p95 s':>8} {'p99 s':>8} {'p99 after':>10}"
    print(head + f" {'outs':>5} {'pools':>5} {'wall s':>7}")
    ratios = []
    for name in args.profiles.split(","):
        profile = load_profile(name)
        p99 = {}
        for policy in POLICIES:
            runs = [run_once(profile, policy, seed, scale) for seed in seeds]
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            p99[policy] = med["p99"]
            print(
                f"{name:16} {policy:18} {med['p95']:8.3f} {med['p99']:8.3f} "
                f"{med['after']:10.3f} {med['outs']:5.0f} {med['pools']:5.0f} {med['wall']:7.1f}"
            )
        ratios.append((name, p99["threshold"] / p99["concurrency_aware"]))
    print("p99 hardware-only / concurrency-aware: " + ", ".join(f"{n} {r:.1f}x" for n, r in ratios))


if __name__ == "__main__":
    main()
