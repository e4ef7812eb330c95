"""The CPU of the characterization's maps (`mapreduce.map_spilled`) on a log's partitions.

    python bench/bench_map.py prepare LOG DIR   # parse, scan and spill LOG into DIR, once
    python bench/bench_map.py one DIR           # partition 0 mapped 5 times: the median
    python bench/bench_map.py all DIR           # every partition mapped once: the total

`prepare` does what `headroom characterize` does before its maps (the log's Parquet parts,
`scan.scan` with the settings' memory budget, `spill.spill`) and keeps the scan
as JSON. `one` and `all` map one partition first as a warm-up (numba's cache, polars'
thread pool) and print process CPU seconds (user + sys, every thread).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import polars as pl

from headroom.engine.workload import mapreduce, scan, spill

MAPS_OF_ONE = 5


def prepare(log: Path, folder: Path) -> None:
    from headroom.cli.workload import _read_apart, format_name
    from headroom.core.settings import get_settings

    (folder / "parts").mkdir(parents=True)
    (folder / "spill").mkdir()
    parsed = _read_apart(str(log), format_name("auto", None), folder / "parts")
    found = scan.scan(parsed.table, memory_budget_mb=get_settings().memory_budget_mb)
    (folder / "scan.json").write_text(json.dumps(scan.scan_to_json(found)))
    found.context.quiet.write_parquet(folder / "quiet.parquet")
    spill.spill(parsed.table, found.parts, folder / "spill")
    print(f"{found.requests} requests in {found.parts} partitions")


def measure(which: str, folder: Path) -> None:
    stored = json.loads((folder / "scan.json").read_text())
    found = scan.scan_from_json(stored, pl.read_parquet(folder / "quiet.parquet"), None)
    paths = sorted((folder / "spill").glob("partition-*.parquet"))
    mapreduce.map_spilled(paths[-1], found)
    if which == "one":
        cpu_s = []
        for _ in range(MAPS_OF_ONE):
            start = time.process_time()
            mapreduce.map_spilled(paths[0], found)
            cpu_s.append(time.process_time() - start)
        print(f"{statistics.median(cpu_s):.4f}")
        return
    start = time.process_time()
    for path in paths:
        mapreduce.map_spilled(path, found)
    print(f"{time.process_time() - start:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("step", choices=["prepare", "one", "all"])
    ap.add_argument("paths", nargs="+", type=Path, help="LOG DIR for prepare, else DIR")
    args = ap.parse_args()
    if args.step == "prepare":
        prepare(*args.paths)
    else:
        measure(args.step, args.paths[-1])


if __name__ == "__main__":
    main()
