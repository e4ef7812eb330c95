"""Benchmark of headroom.engine.capacity on 10 million requests.

    python bench/bench_capacity.py [--quick] [--runs 3]

1. SCT (`analyze_trace`) on a 10M-request latency trace of 4 simulated servers, against a
   reference event sweep (sort all +1/-1 events, integrate N(t) between events, cut at
   interval edges), the textbook way to get time-averaged concurrency. Both must give the
   same per-level figures.
2. Knee curves (`analyze`) on a 10M-request M/M/1 log, against a polars group-by of the
   window percentiles (the per-window figures only, which is the heavy part).
Medians of --runs runs (>= 3) and ratios are printed. Inputs are cached under bench/out/.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

from headroom.engine.capacity import CapacityParams, SctParams, analyze, analyze_trace, synth
from headroom.engine.capacity.sct import sct_levels
from headroom.engine.capacity.windows import window_stats

OUT = Path(__file__).resolve().parent / "out"


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sct_trace(n_requests: int) -> pl.DataFrame:
    path = OUT / f"sct_trace_{n_requests}.parquet"
    if path.exists():
        return pl.read_parquet(path)
    rng = np.random.default_rng(1)
    rates = synth.plateau_rates(100.0, 10, 20, 0.02, 80)
    per_server = n_requests // 4
    ramp = list(range(1, 51)) + list(range(50, 0, -1))
    cycles = max(1, round(per_server / 355_000))  # one ramp cycle is about 355k requests
    parts = [
        synth.pool_trace(ramp * cycles, 5.0, 0.005, rates, rng, server=f"app-{i}") for i in range(4)
    ]
    table = pl.concat(parts).sort("ts")
    OUT.mkdir(parents=True, exist_ok=True)
    table.write_parquet(path)
    return table


def queue_log(n_requests: int) -> pl.DataFrame:
    path = OUT / f"mm1_log_{n_requests}.parquet"
    if path.exists():
        return pl.read_parquet(path)
    mu = 2000.0
    rates = np.linspace(0.05, 0.9, 18) * mu
    segment_s = n_requests / float(rates.sum())
    table = synth.queue_log(list(rates), segment_s, mu, 1, np.random.default_rng(2))
    OUT.mkdir(parents=True, exist_ok=True)
    table.write_parquet(path)
    return table


def reference_levels(arrive: np.ndarray, depart: np.ndarray, width: float) -> dict[int, float]:
    """Event sweep: N(t) between sorted events, integrated and cut at interval edges."""
    n_int = int(np.floor(arrive.max() / width))
    edges = np.arange(n_int + 1) * width
    times = np.concatenate((arrive, depart, edges))
    steps = np.concatenate((np.ones(arrive.size), -np.ones(depart.size), np.zeros(edges.size)))
    order = np.argsort(times, kind="stable")
    times, steps = times[order], steps[order]
    level = np.cumsum(steps)
    area = np.concatenate(([0.0], np.cumsum(level[:-1] * np.diff(times))))
    at_edges = np.interp(edges, times, area)
    q = np.diff(at_edges) / width
    done = np.bincount(np.floor(depart / width).astype(np.int64), minlength=n_int + 1)[:n_int]
    rounded = np.rint(q).astype(np.int64)
    per = np.bincount(rounded)
    tp = np.bincount(rounded, weights=done / width) / np.maximum(per, 1)
    return {n: float(tp[n]) for n in range(1, per.size) if per[n] >= 10}


def reference_sct(table: pl.DataFrame, width: float) -> dict[str, dict[int, float]]:
    rows = table.select(
        "server",
        t=(pl.col("ts") - pl.col("ts").min()).dt.total_nanoseconds().cast(pl.Float64) / 1e9,
        lat="latency_s",
    )
    out = {}
    for (name,), part in rows.partition_by("server", as_dict=True).items():
        a = part["t"].to_numpy()
        out[str(name)] = reference_levels(a, a + part["lat"].to_numpy(), width)
    return out


def reference_windows(table: pl.DataFrame, window_s: float) -> pl.DataFrame:
    return (
        table.with_columns(win=pl.col("ts").dt.truncate(f"{int(window_s)}s"))
        .group_by("win")
        .agg(
            n=pl.len(),
            p95=pl.col("latency_s").quantile(0.95, "linear"),
            mean=pl.col("latency_s").mean(),
        )
    )


def check_same(table: pl.DataFrame) -> None:
    ours = analyze_trace(table, SctParams(window_s=None))
    ref = reference_sct(table, 0.05)
    for name, res in ours.servers.items():
        tp = dict(zip(res.levels.n.tolist(), res.levels.throughput_per_s.tolist(), strict=True))
        common = set(tp) & set(ref[name])
        assert len(common) >= 0.9 * len(tp), f"{name}: levels differ"
        worst = max(abs(tp[n] / ref[name][n] - 1) for n in common)
        assert worst < 0.02, f"{name}: level throughput differs by {worst:.3%}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="1M requests instead of 10M")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = max(3, args.runs)
    n = 1_000_000 if args.quick else 10_000_000

    trace = sct_trace(n)
    check_same(trace)
    t_ours = median_time(lambda: analyze_trace(trace, SctParams(window_s=None)), runs)
    t_ref = median_time(lambda: reference_sct(trace, 0.05), runs)
    print(f"SCT, {trace.height:,} requests, 4 servers, 50 ms intervals (median of {runs})")
    print(f"  analyze_trace (interval sums):   {t_ours:7.2f} s")
    print(
        f"  reference event sweep (levels):  {t_ref:7.2f} s   ratio ref/ours {t_ref / t_ours:5.2f}"
    )
    a = trace["ts"].dt.epoch("ns").to_numpy()
    a = (a - a.min()) / 1e9
    t_lv = median_time(
        lambda: sct_levels(a, a + trace["latency_s"].to_numpy(), SctParams(window_s=None)), runs
    )
    print(f"  sct_levels alone, all servers as one stream: {t_lv:.2f} s")

    log = queue_log(n)
    t_an = median_time(lambda: analyze(log, CapacityParams()), runs)
    t_pw = median_time(lambda: reference_windows(log, 10.0), runs)
    a = log["ts"].dt.epoch("ns").to_numpy()
    a = (a - a.min()) / 1e9
    lat = log["latency_s"].to_numpy()
    ok = np.ones(a.size, dtype=bool)
    n_win = int(a.max() // 10.0)
    t_ws = median_time(lambda: window_stats(a, lat, ok, 10.0, n_win, 95.0), runs)
    print(f"Knee curves, {log.height:,} requests, 10 s windows (median of {runs})")
    print(f"  analyze (windows, bins, bootstrap, fits): {t_an:7.2f} s")
    ratio = t_ws / t_pw
    print(f"  window_stats alone (numba + polars):      {t_ws:7.2f} s")
    print(
        f"  polars group-by p95 per window (ref):     {t_pw:7.2f} s   ratio ours/ref {ratio:5.2f}"
    )


if __name__ == "__main__":
    main()
