"""Scale benchmark: ingest and characterization of generated Combined + %D logs of 2, 10
and 30 million lines, with 1 and 2 workers, against GoAccess on the same file.

    python bench/bench_scale.py [--sizes 2,10,30] [--json out.json] [--no-goaccess]
                                [--steps ingest,char]

Per size: `ingest` (byte ranges planned as the ingest job plans them, each parsed into its
zstd Parquet part by a worker process, then the traffic summary of the parts, as the
chord's merge does), `char` (the characterization job's work on those parts as the
worker's chords spread it: the plan, the spill of shares of the table and then the maps
over partitions of clients on the workers, the reduce; the table, classes, sessions,
pages, fits, the workload model, chart data; each step also reported on its own) and
their sum, the pipeline a user waits for after an upload. Workers are spawned
processes with the parser loaded before the clock starts, as long-running workers are.
Every step reports its wall time, the CPU time and the peak RSS of each process taking
part (summed, and the largest), and the cost per million lines, whose ratio between the
largest and the smallest size shows whether the cost is flat. Logs are generated once
under bench/out (2 M lines a day, one day after another).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_combined import generate, render

OUT = Path(__file__).resolve().parent / "out"
LINES_PER_DAY = 2_000_000
DATASET_ID = 1
CHUNK_BYTES = 32 << 20  # Settings.ingest_chunk_bytes
RSS_GOAL_BYTES = 1 << 30
PIPELINE_GOAL = (10_000_000, 2, 60.0)  # lines, workers, seconds
GOACCESS_FORMAT = '%h %^ %^ [%d:%t %^] "%r" %s %b "%R" "%u" %D'


def write_log(lines: int, out: Path) -> Path:
    """A log of `lines` lines: LINES_PER_DAY a day, each day drawn with its own seed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".partial")
    with partial.open("wb") as f:
        for day, start in enumerate(range(0, lines, LINES_PER_DAY)):
            df = generate(min(LINES_PER_DAY, lines - start), seed=7 + day)
            df = df.with_columns(pl.col("ts") + pl.duration(days=day))
            for block in range(0, df.height, 500_000):
                f.write(("\n".join(render(df.slice(block, 500_000)).to_list()) + "\n").encode())
    partial.rename(out)
    return out


def peak_rss_bytes() -> int:
    """This process's own peak RSS (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _store(parts: Path) -> Any:
    from headroom.core.storage import LocalStore

    return LocalStore(parts)


def _warm_up(_: int) -> int:
    """Load the parser's compiled kernels in a worker (outside the timing)."""
    from headroom.engine.logs import parse_chunk

    parse_chunk(b'1.2.3.4 - - [01/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "-" 7\n',
                "combined_latency_us")  # fmt: skip
    return os.getpid()


def _ingest_range(args: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    """One ingest_range task without the database: the range's part and its counts."""
    from headroom.datasets.ingest_outputs import write_part
    from headroom.datasets.ingest_ranges import format_at
    from headroom.engine.logs import parse_chunk

    cpu0 = time.process_time()
    parts, key, fmt, index, start, end = args
    store = _store(Path(parts))
    data = store.read_range(key, start, end)
    parsed = parse_chunk(data, format_at(store, key, start, fmt))
    part = write_part(store, DATASET_ID, index, parsed.table)
    cpu = time.process_time() - cpu0
    return {"pid": os.getpid(), "key": part, "rows": parsed.table.height, "cpu_s": cpu,
            "peak_rss": peak_rss_bytes()}  # fmt: skip


def run_ingest(path: Path, parts: Path, workers: int) -> dict[str, Any]:
    """The parallel ingest: plan the ranges, parse them on `workers` processes, summarise
    the parts (the merge) here."""
    from headroom.datasets.ingest_ranges import plan_ranges
    from headroom.engine.logs import detect_format
    from headroom.engine.workload.traffic import summarize

    shutil.rmtree(parts, ignore_errors=True)
    store = _store(parts)
    key = "upload.log"
    os.link(path, parts / key)
    context = multiprocessing.get_context("spawn")  # fork with polars threads can deadlock
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        pids = set(pool.map(_warm_up, range(4 * workers)))
        sample = store.read_range(key, 0, 1 << 20)
        detect_format(sample[: sample.rfind(b"\n") + 1])  # kernels loaded, as in a worker
        wall0, cpu0 = time.perf_counter(), time.process_time()
        fmt = detect_format(store.read_range(key, 0, 1 << 20)).format
        ranges = plan_ranges(store, key, path.stat().st_size, CHUNK_BYTES)
        tasks = [(str(parts), key, fmt, r.index, r.start, r.end) for r in ranges]
        results = list(pool.map(_ingest_range, tasks))
        requests = summarize(store.scan_parquet([r["key"] for r in results])).request_count
        wall = time.perf_counter() - wall0
    processes = [{"role": "merge", "cpu_s": time.process_time() - cpu0,
                  "peak_rss": peak_rss_bytes()}]  # fmt: skip
    for pid in sorted(pids):
        mine = [r for r in results if r["pid"] == pid]
        processes.append({"role": "worker", "cpu_s": sum(r["cpu_s"] for r in mine),
                          "peak_rss": max((r["peak_rss"] for r in mine), default=0)})  # fmt: skip
    return {"wall_s": wall, "rows": requests, "processes": processes}


def run_characterize(parts: Path, workers: int, out: Path | None = None) -> dict[str, Any]:
    """The characterization job as the worker's chords run it: the plan here (the table's
    metadata; with a single partition, the scan); the spill on `workers` processes, one
    task per share of the table's rows (each writes its rows of every partition of
    clients to a piece of its own, and its partial of the scan); the scan of the
    partials on one of them, as the spill chord's callback runs; the maps on them (each
    reads its partition's pieces in share order and stores its partial); the reduce of
    the stored partials on one of them, as the chord's callback runs. The result document
    is written to ``out`` as JSON when given (to compare two versions with ``cmp``);
    ``steps`` has each step's wall time and the CPU time and peak RSS of each process
    taking part (a peak is reset at the start of each step, and of each task)."""
    from headroom.characterizations.run import load_table
    from headroom.core.settings import get_settings
    from headroom.engine.workload.scan import plan, scan_from, scan_share
    from headroom.engine.workload.spill import spill_shares

    store = _store(parts)
    keys = sorted(store.list("datasets/"))
    context = multiprocessing.get_context("spawn")
    steps: list[dict[str, Any]] = []
    budget_mb = get_settings().memory_budget_mb
    with (
        ProcessPoolExecutor(workers, mp_context=context) as pool,
        tempfile.TemporaryDirectory(prefix="bench-char-", dir=parts) as folder,
    ):
        pids = sorted(set(pool.map(_warm_up_map, range(4 * workers))))
        wall0, cpu0 = time.perf_counter(), time.process_time()
        with local_step(steps, "plan", "plan"):
            table = load_table(store, keys)
            planned = plan(table, memory_budget_mb=budget_mb)
            if planned.parts == 1:  # the scan in the plan, as the job's plan does
                found = scan_from(planned, [scan_share(table, planned)])
        shares = spill_shares(planned.requests) if planned.parts > 1 else [range(planned.requests)]
        tasks = [(str(parts), keys, folder, planned, share, rows)
                 for share, rows in enumerate(shares)]  # fmt: skip
        spilled = pool_step(steps, "spill", pids, lambda: list(pool.map(_spill_share, tasks)))
        if planned.parts == 1:
            counts = _write_counts(found, folder)  # as the job's plan stores them
            scanned = [{"pid": 0, "found": replace(found, counts={}), "counts": counts}]
        else:
            scan_of = partial(_scan_shares, planned, [s["scan"] for s in spilled], folder)
            scanned = pool_step(steps, "scan", pids, lambda: [pool.submit(scan_of).result()])
        found, counts = scanned[0]["found"], scanned[0]["counts"]
        inputs = [[s["paths"][index] for s in spilled] for index in range(found.parts)]
        mapped = pool_step(
            steps, "maps", pids, lambda: list(pool.map(_map_part, inputs, [found] * len(inputs)))
        )
        reduce = partial(_reduce, [m["frames"] for m in mapped], found, counts)
        reduced = pool_step(steps, "reduce", pids, lambda: [pool.submit(reduce).result()])
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    local = [p for step in steps for p in step["processes"] if p["role"] != "worker"]
    processes = [{"role": "plan", "cpu_s": cpu,
                  "peak_rss": max(p["peak_rss"] for p in local)}]  # fmt: skip
    tasks_done = spilled + [s for s in scanned if s["pid"]] + mapped + reduced
    for pid in pids:
        mine = [t for t in tasks_done if t["pid"] == pid]
        processes.append({"role": "worker", "cpu_s": sum(t["cpu_s"] for t in mine),
                          "peak_rss": max((t["peak_rss"] for t in mine), default=0)})  # fmt: skip
    if out is not None:
        out.write_text(reduced[0]["document"])
    return {"wall_s": wall, "rows": reduced[0]["rows"], "processes": processes, "steps": steps}


def reset_peak_rss() -> None:
    """The peak RSS (VmHWM) starts again from the current RSS (Linux's clear_refs)."""
    Path("/proc/self/clear_refs").write_text("5")


@contextmanager
def local_step(steps: list[dict[str, Any]], name: str, role: str) -> Iterator[None]:
    """A step in this process: its wall and CPU time and its own peak RSS."""
    reset_peak_rss()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    yield
    process = {"role": role, "cpu_s": time.process_time() - cpu0, "peak_rss": peak_rss_bytes()}
    steps.append({"step": name, "wall_s": time.perf_counter() - wall0, "processes": [process]})


def pool_step(
    steps: list[dict[str, Any]], name: str, pids: list[int], run: Callable[[], list[Any]]
) -> list[Any]:
    """A step of tasks on the workers: its wall time, each worker's CPU time and peak."""
    wall0 = time.perf_counter()
    results = run()
    processes = []
    for pid in pids:
        mine = [r for r in results if r["pid"] == pid]
        processes.append({"role": "worker", "cpu_s": sum(r["cpu_s"] for r in mine),
                          "peak_rss": max((r["peak_rss"] for r in mine), default=0)})  # fmt: skip
    steps.append({"step": name, "wall_s": time.perf_counter() - wall0, "processes": processes})
    return results


def _warm_up_map(_: int) -> int:
    """A worker with the characterization's modules imported (outside the timing)."""
    import pyarrow.parquet  # noqa: F401

    import headroom.characterizations.run
    import headroom.engine.workload.mapreduce
    import headroom.engine.workload.spill  # noqa: F401

    return os.getpid()


def _spill_share(args: tuple[str, list[str], str, Any, int, range]) -> dict[str, Any]:
    """One spill task: its share of the table's rows, one piece per partition, and its
    share's partial of the scan (a single partition: the table's rows as they are, the
    map's one input)."""
    from headroom.characterizations.run import load_table
    from headroom.engine.workload.scan import ScanCounter
    from headroom.engine.workload.spill import spill

    reset_peak_rss()
    cpu0 = time.process_time()
    parts, keys, folder, planned, share, rows = args
    table = load_table(_store(Path(parts)), keys)
    scanned = {}
    if planned.parts > 1:
        counter = ScanCounter(planned, table.collect_schema().names())
        paths = spill(table, planned.parts, Path(folder), rows, f"-from-{share:05d}",
                      counter=counter)  # fmt: skip
        for name, frame in counter.partial().items():  # stored, as the job's spill does
            scanned[name] = f"{folder}/share-{share:05d}-scan-{name}.parquet"
            frame.write_parquet(scanned[name])
    else:
        paths = [Path(folder) / "whole.parquet"]
        table.sink_parquet(paths[0])
    return {"pid": os.getpid(), "paths": [str(p) for p in paths], "scan": scanned,
            "cpu_s": time.process_time() - cpu0, "peak_rss": peak_rss_bytes()}  # fmt: skip


def _scan_shares(planned: Any, scanned: list[dict[str, str]], folder: str) -> dict[str, Any]:
    """The spill chord's callback: the scan from the shares' stored partials, its counts
    by time stored for the reduce (the scan returned without them, as the maps load it)."""
    from headroom.engine.workload.scan import scan_from

    reset_peak_rss()
    cpu0 = time.process_time()
    partials = [{name: pl.read_parquet(path) for name, path in s.items()} for s in scanned]
    found = scan_from(planned, partials)
    counts = _write_counts(found, folder)
    return {"pid": os.getpid(), "found": replace(found, counts={}), "counts": counts,
            "cpu_s": time.process_time() - cpu0, "peak_rss": peak_rss_bytes()}  # fmt: skip


def _write_counts(found: Any, folder: str) -> dict[str, str]:
    """The scan's counts by time, stored for the reduce."""
    counts = {}
    for name, frame in found.counts.items():
        counts[name] = f"{folder}/scan-{name}.parquet"
        frame.write_parquet(counts[name])
    return counts


def _map_part(paths: list[str], found: Any) -> dict[str, Any]:
    """One map task: a partition's partial from its pieces (in share order), its frames
    stored beside them."""
    from headroom.engine.workload.mapreduce import map_spilled
    from headroom.engine.workload.spill import TEMPORARY_COMPRESSION

    reset_peak_rss()
    cpu0 = time.process_time()
    partial = map_spilled(pl.scan_parquet(paths), found)
    frames = {}
    for name, frame in partial.frames.items():
        frames[name] = f"{paths[0]}-{name}.parquet"
        frame.write_parquet(frames[name], compression=TEMPORARY_COMPRESSION)
    return {"pid": os.getpid(), "frames": frames, "cpu_s": time.process_time() - cpu0,
            "peak_rss": peak_rss_bytes()}  # fmt: skip


def _reduce(mapped: list[dict[str, str]], found: Any, counts: dict[str, str]) -> dict[str, Any]:
    """The reduce task: the stored partials merged, then the scan's counts by time read
    back (in a worker process that ran spills and maps, as the chord's callback runs),
    the document."""
    from headroom.characterizations.run import result_document
    from headroom.engine.workload.fitting import MAX_FIT_N
    from headroom.engine.workload.mapreduce import finish
    from headroom.engine.workload.partial import merge_stored

    reset_peak_rss()
    cpu0 = time.process_time()
    stored = [{name: pl.scan_parquet(path) for name, path in m.items()} for m in mapped]
    merged = merge_stored(stored, MAX_FIT_N)
    scanned = replace(found, counts={name: pl.read_parquet(path) for name, path in counts.items()})
    document = result_document(finish(merged, scanned))
    return {"pid": os.getpid(), "cpu_s": time.process_time() - cpu0, "peak_rss": peak_rss_bytes(),
            "rows": document.requests,
            "document": json.dumps(document.model_dump(mode="json"), sort_keys=True)}  # fmt: skip


def run_goaccess(path: Path) -> dict[str, Any]:
    report = OUT / "goaccess_scale.html"
    cmd = ["goaccess", str(path), f"--log-format={GOACCESS_FORMAT}", "--date-format=%d/%b/%Y",
           "--time-format=%H:%M:%S", "-o", str(report), "--no-progress"]  # fmt: skip
    wall0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall_s": time.perf_counter() - wall0, "rows": -1,
            "processes": [{"role": "goaccess", "cpu_s": usage.ru_utime + usage.ru_stime,
                           "peak_rss": usage.ru_maxrss * 1024}]}  # fmt: skip


def one(step: str, path: Path, parts: Path, workers: int, out: Path | None) -> None:
    """Child process: one measurement, printed as JSON on the last line."""
    if step == "ingest":
        result = run_ingest(path, parts, workers)
    elif step == "char":
        result = run_characterize(parts, workers, out)
    else:
        result = run_goaccess(path)
    print_steps(result)
    print(json.dumps(result))


def measure(step: str, path: Path, parts: Path, workers: int = 1) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--one", step, "--file", str(path), "--parts", str(parts),
           "--workers", str(workers)]  # fmt: skip
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["cpu_s"] = sum(p["cpu_s"] for p in result["processes"])
    result["peak_rss"] = max(p["peak_rss"] for p in result["processes"])
    # as it is measured: a run of an hour keeps what it measured if a later step fails
    peak_mb = result["peak_rss"] / 1e6
    print(f"{path.name} {step} {workers}w: {result['wall_s']:.1f} s wall, "
          f"{result['cpu_s']:.1f} s CPU, {peak_mb:.0f} MB peak", flush=True)  # fmt: skip
    return result


def combined(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two steps one after the other (the characterization job follows the ingest)."""
    return {"wall_s": a["wall_s"] + b["wall_s"], "cpu_s": a["cpu_s"] + b["cpu_s"],
            "peak_rss": max(a["peak_rss"], b["peak_rss"]), "rows": a["rows"],
            "processes": a["processes"] + b["processes"]}  # fmt: skip


def run_size(lines: int, steps: set[str], goaccess: bool) -> dict[str, dict[str, Any]]:
    path = OUT / f"scale_{lines}.log"
    if not path.exists():
        write_log(lines, path)
    parts = OUT / f"scale_parts_{lines}"
    rows: dict[str, dict[str, Any]] = {}
    if "ingest" in steps:
        rows["ingest 2w"] = measure("ingest", path, parts, 2)
        rows["ingest 1w"] = measure("ingest", path, parts, 1)  # its parts stay for `char`
    if "char" in steps:
        for w in (1, 2):
            rows[f"char {w}w"] = measure("char", path, parts, w)
    if {"ingest", "char"} <= steps:
        for w in (1, 2):
            rows[f"ingest+char {w}w"] = combined(rows[f"ingest {w}w"], rows[f"char {w}w"])
    if goaccess and shutil.which("goaccess"):
        rows["goaccess"] = measure("goaccess", path, parts)
    shutil.rmtree(parts, ignore_errors=True)
    return rows


def print_table(results: dict[int, dict[str, dict[str, Any]]]) -> None:
    print(f"{'lines':>11} {'step':<17}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}"
          f"{'wall s/M':>10}{'CPU s/M':>9}{'processes (CPU s / peak MB)':>32}")  # fmt: skip
    for lines, rows in results.items():
        m = lines / 1e6
        for step, r in rows.items():
            procs = ", ".join(f"{p['role']} {p['cpu_s']:.1f}/{p['peak_rss'] / 1e6:.0f}"
                              for p in r["processes"])  # fmt: skip
            print(f"{lines:>11,} {step:<17}{r['wall_s']:>9.1f}{r['cpu_s']:>9.1f}"
                  f"{r['peak_rss'] / 1e6:>9.0f}{r['wall_s'] / m:>10.2f}{r['cpu_s'] / m:>9.2f}"
                  f"  {procs}")  # fmt: skip
            print_steps(r)


def print_steps(result: dict[str, Any]) -> None:
    """A step's parts, one a line: wall s, then CPU s / peak MB per process."""
    for step in result.get("steps", []):
        procs = ", ".join(f"{p['role']} {p['cpu_s']:.1f}/{p['peak_rss'] / 1e6:.0f}"
                          for p in step["processes"])  # fmt: skip
        print(f"  {step['step']:<8}{step['wall_s']:>7.1f} s  {procs}")


def print_goals(results: dict[int, dict[str, dict[str, Any]]]) -> None:
    sizes = sorted(results)
    small, large = sizes[0], sizes[-1]
    if large > small:
        for step in results[small]:
            if step in results[large]:
                per = [results[n][step]["cpu_s"] / n for n in (small, large)]
                print(f"cost per M lines, {step}: {large:,} / {small:,} lines = "
                      f"{per[1] / per[0]:.2f} (CPU; flat = 1)")  # fmt: skip
    else:
        print(f"cost per M lines: one size only ({small:,} lines), no ratio (flat = 1)")
    peak = max(r["peak_rss"] for rows in results.values() for s, r in rows.items()
               if s != "goaccess")  # fmt: skip
    print(
        f"peak RSS of any of our processes: {peak / 1e6:.0f} MB "
        f"({'met' if peak < RSS_GOAL_BYTES else 'NOT met'}: goal < {RSS_GOAL_BYTES >> 20} MB)"
    )
    goal_lines, workers, goal_s = PIPELINE_GOAL
    pipeline = results.get(goal_lines, {}).get(f"ingest+char {workers}w")
    if pipeline is not None:
        met = "met" if pipeline["wall_s"] < goal_s else "NOT met"
        print(
            f"{goal_lines:,} lines ingested and characterized with {workers} workers: "
            f"{pipeline['wall_s']:.1f} s ({met}: goal < {goal_s:.0f} s)"
        )
    else:
        print(
            f"{goal_lines:,} lines ingested and characterized with {workers} workers: not "
            f"measured (add {goal_lines // 1_000_000} to --sizes; goal < {goal_s:.0f} s)"
        )
    for lines, rows in results.items():
        for w in (1, 2):
            if f"char {w}w" in rows and f"ingest {w}w" in rows:
                ratio = rows[f"char {w}w"]["wall_s"] / rows[f"ingest {w}w"]["wall_s"]
                met = "met" if ratio <= 1 else "NOT met"
                print(
                    f"{lines:,} lines: characterization / ingest ({w} worker{'s' * (w > 1)}) "
                    f"= {ratio:.2f}x wall ({met}: goal <= 1)"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="2,10,30", help="millions of lines, comma-separated")
    ap.add_argument("--steps", default="ingest,char", help="ingest, char or both")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--no-goaccess", action="store_true")
    ap.add_argument("--one", choices=["ingest", "char", "goaccess"])
    ap.add_argument("--file", type=Path)
    ap.add_argument("--parts", type=Path)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="--one char: write the result document here")
    args = ap.parse_args()
    if args.one:
        return one(args.one, args.file, args.parts, args.workers, args.out)
    steps = set(args.steps.split(","))
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; each step in a fresh "
          "process, its workers started (parser loaded) before the clock")  # fmt: skip
    results = {}
    for size in args.sizes.split(","):
        lines = round(float(size) * 1e6)
        results[lines] = run_size(lines, steps, not args.no_goaccess)
    print_table(results)
    print_goals(results)
    if not (args.no_goaccess or shutil.which("goaccess")):
        print("goaccess: not installed (Debian package `goaccess`); skipped")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({str(k): v for k, v in results.items()}, indent=2))


if __name__ == "__main__":
    main()
