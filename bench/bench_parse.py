"""Parsing benchmark: our parser (1 and 2 workers) vs a plain Python `re` parser, GoAccess
and the raw read speed, on a generated Combined + %D log.

    python bench/bench_parse.py [--quick] [--lines N] [--runs 3]

Each measurement runs in a fresh process (so peak memory is its own), repeated --runs
times; medians are printed with lines/s, MB/s and ratios to the `re` parser. `ingest` is
what the ingest worker does with the file (parse, write zstd Parquet parts, the traffic
summary); `ingest_char` adds the characterization job (classes, sessions, pages, fits, the
workload model, chart data). Both are timed against GoAccess producing its HTML report of
the same file (skipped with a note when `goaccess` is not installed). `cli` is the
command `headroom parse FILE --out DIR --json` timed from outside, start-up included.
Elsewhere numba kernels load from their on-disk cache outside the timings; that load and a
cold compile (empty cache) are printed separately.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_combined import write

OUT = Path(__file__).resolve().parent / "out"
CHUNK = 32 << 20
LINE = re.compile(r'(\S+) \S+ \S+ \[([^\]]+)\] "(.*?)" (\d{3}) (\S+) "(.*?)" "(.*?)" (\S+)')


def run_read(path: Path) -> int:
    lines = 0
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            lines += block.count(b"\n")
    return lines


def run_re(path: Path) -> int:
    """A plain line-by-line `re` parser building one tuple per request (times cached)."""
    rows = []
    times: dict[str, datetime] = {}
    with path.open(encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m is None:
                continue
            client, t, request, status, size, referer, agent, micros = m.groups()
            ts = times.get(t)
            if ts is None:
                ts = times[t] = datetime.strptime(t, "%d/%b/%Y:%H:%M:%S %z")
            method, _, rest = request.partition(" ")
            target = rest.rpartition(" ")[0] or rest
            path_, _, query = target.partition("?")
            size_n = 0 if size == "-" else int(size)
            rows.append((client, ts, method, path_, query, int(status), size_n, referer, agent,
                         int(micros) / 1e6))  # fmt: skip
    return len(rows)


def run_ours(path: Path) -> int:
    from headroom.engine.logs import detect_format, iter_chunks, open_log, parse_chunk

    with open_log(path) as f:
        detection = detect_format(f.read(1 << 20))
    rows = 0
    with open_log(path) as f:
        for chunk in iter_chunks(f, CHUNK):
            rows += parse_chunk(chunk, detection).table.height
    return rows


def _chunk_ranges(path: Path) -> list[tuple[int, int, int]]:
    """(index, start, end) byte ranges ending at newlines, as the ingest job splits files."""
    size = path.stat().st_size
    ranges, start = [], 0
    with path.open("rb") as f:
        while start < size:
            f.seek(min(start + CHUNK, size))
            tail = f.readline()
            end = min(start + CHUNK, size) + len(tail)
            ranges.append((len(ranges), start, end))
            start = end
    return ranges


def peak_rss_bytes() -> int:
    """This process's own peak RSS (VmHWM; ru_maxrss would include what fork inherited)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _parse_range(args: tuple[str, str, int, int, int]) -> tuple[int, int]:
    from headroom.engine.logs import Chunk, parse_chunk

    path, fmt, index, start, end = args
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    return parse_chunk(Chunk(index, 1, data), fmt).table.height, peak_rss_bytes()


_POOL: ProcessPoolExecutor | None = None


def _start_pool(warmup: Path) -> ProcessPoolExecutor:
    """Two spawned workers with compiled kernels loaded (as long-running workers have).

    spawn: forking a process whose polars/numba thread pools run can deadlock."""
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    tasks = [(str(warmup), "combined_latency_us", i, s, e) for i, s, e in _chunk_ranges(warmup)]
    list(pool.map(_parse_range, tasks * 4))
    return pool


_WORKER_PEAK = 0


def run_ours_2(path: Path) -> int:
    from headroom.engine.logs import detect_format

    assert _POOL is not None
    with path.open("rb") as f:
        fmt = detect_format(f.read(1 << 20)).format
    global _WORKER_PEAK
    tasks = [(str(path), fmt, i, s, e) for i, s, e in _chunk_ranges(path)]
    results = list(_POOL.map(_parse_range, tasks))
    _WORKER_PEAK = max(peak for _, peak in results)
    return sum(rows for rows, _ in results)


def run_ingest(path: Path) -> int:
    """The ingest worker's work without the database: parse, Parquet parts, summary."""
    import polars as pl

    from headroom.engine.logs import detect_format, iter_chunks, open_log, parse_chunk
    from headroom.engine.workload.traffic import summarize

    parts = OUT / "ingest_parts"
    shutil.rmtree(parts, ignore_errors=True)
    parts.mkdir(parents=True)
    with open_log(path) as f:
        detection = detect_format(f.read(1 << 20))
    keys = []
    with open_log(path) as f:
        for chunk in iter_chunks(f, CHUNK):
            keys.append(parts / f"part-{chunk.index:05d}.parquet")
            table = parse_chunk(chunk, detection).table
            table.write_parquet(keys[-1], compression="zstd", statistics=True)
    return summarize(pl.scan_parquet(keys)).request_count


def run_ingest_characterize(path: Path) -> int:
    """The ingest, then the characterization job's work on its table (classes, sessions,
    pages, fits, the workload model and the dataset page's chart data)."""
    from headroom.characterizations.run import load_table, result_document
    from headroom.core.settings import get_settings
    from headroom.core.storage import LocalStore
    from headroom.engine.workload import characterize

    run_ingest(path)
    table = load_table(
        LocalStore(OUT / "ingest_parts"),
        sorted(p.name for p in (OUT / "ingest_parts").glob("*.parquet")),
    )
    budget_mb = get_settings().memory_budget_mb
    return result_document(characterize(table, memory_budget_mb=budget_mb)).requests


# Combined + %D (microseconds), as GoAccess spells it
GOACCESS_FORMAT = '%h %^ %^ [%d:%t %^] "%r" %s %b "%R" "%u" %D'


def run_cli(path: Path) -> int:
    """`headroom parse FILE --out DIR --json` as a user runs it: a whole process, start-up
    (imports, compiled kernels from their cache) and the Parquet file included."""
    out = OUT / "cli_parse"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [str(Path(sys.executable).parent / "headroom"), "parse", str(path), "--out", str(out)]
    proc = subprocess.run([*cmd, "--json"], check=True, capture_output=True, text=True)
    return int(json.loads(proc.stdout)["lines_parsed"])


def run_goaccess(path: Path) -> int:
    report = OUT / "goaccess.html"
    cmd = ["goaccess", str(path), f"--log-format={GOACCESS_FORMAT}", "--date-format=%d/%b/%Y",
           "--time-format=%H:%M:%S", "-o", str(report), "--no-progress"]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    return -1


def run_load(path: Path) -> int:
    """Import the parser and run it on the small warm-up file (kernels load or compile)."""
    return run_ours(path.parent / "warmup.log")


RUNNERS = {"read": run_read, "re": run_re, "ours": run_ours, "ours_2": run_ours_2,
           "cli": run_cli, "ingest": run_ingest, "ingest_char": run_ingest_characterize,
           "goaccess": run_goaccess, "load": run_load}  # fmt: skip


def one(name: str, path: Path) -> None:
    """Child process: run one measurement, print JSON (seconds, rows, peak RSS)."""
    global _POOL
    if name.startswith(("ours", "ingest")):
        run_ours(path.parent / "warmup.log")  # load compiled kernels outside the timing
    if name == "ours_2":
        _POOL = _start_pool(path.parent / "warmup.log")
    t0, cpu0 = time.perf_counter(), cpu_seconds()
    rows = RUNNERS[name](path)
    seconds, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    peak = max(peak_rss_bytes(), _WORKER_PEAK)  # for 2 workers: the larger process
    if name in ("cli", "goaccess"):  # the command's own process
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    if _POOL is not None:
        _POOL.shutdown()
        cpu = float("nan")  # the pool's CPU time is not visible to this process
    print(json.dumps({"seconds": seconds, "cpu_s": cpu, "rows": rows, "peak_rss": peak}))


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (GoAccess): a measure that other
    work on a busy machine distorts far less than wall time."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(
    name: str, path: Path, runs: int, env: dict[str, str] | None = None
) -> dict[str, float]:
    results = []
    for _ in range(runs):
        cmd = [sys.executable, __file__, "--one", name, "--file", str(path)]
        proc = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {
        "seconds": statistics.median(r["seconds"] for r in results),
        "cpu_s": statistics.median(r["cpu_s"] for r in results),
        "rows": results[0]["rows"],
        "peak_rss": max(r["peak_rss"] for r in results),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="200,000 lines instead of 2,000,000")
    ap.add_argument("--lines", type=int)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-goaccess", action="store_true", help="skip GoAccess (minutes)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold compile (minutes)")
    ap.add_argument("--one", choices=sorted(RUNNERS))
    ap.add_argument("--file", type=Path)
    args = ap.parse_args()
    if args.one:
        return one(args.one, args.file)
    lines = args.lines or (200_000 if args.quick else 2_000_000)
    path = OUT / f"combined_d_{lines}.log"
    if not path.exists():
        write(lines, path)
    if not (OUT / "warmup.log").exists():
        write(2_000, OUT / "warmup.log", seed=1)
    report(path, lines, max(args.runs, 3), not args.no_goaccess)
    _report_kernels(path, max(args.runs, 3), not args.no_compile)


def report(path: Path, lines: int, runs: int, goaccess: bool) -> None:
    size_mb = path.stat().st_size / 1e6
    print(f"file: {path} ({lines:,} lines, {size_mb:.1f} MB), {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}, median of {runs} runs, each in a fresh "
          "process")  # fmt: skip
    names = ["read", "re", "ours", "ours_2", "cli", "ingest", "ingest_char"]
    if goaccess and shutil.which("goaccess"):
        names.append("goaccess")
    results = {n: measure(n, path, runs) for n in names}
    base, base_cpu = results["re"]["seconds"], results["re"]["cpu_s"]
    print(f"{'measurement':<14}{'median s':>10}{'lines/s':>12}{'MB/s':>8}{'x re':>7}"
          f"{'CPU s':>9}{'x re CPU':>10}{'peak MB':>9}")  # fmt: skip
    for n, r in results.items():
        s, cpu = r["seconds"], r["cpu_s"]
        print(f"{n:<14}{s:>10.3f}{lines / s:>12,.0f}{size_mb / s:>8.1f}{base / s:>7.2f}"
              f"{cpu:>9.2f}{base_cpu / cpu:>10.2f}{r['peak_rss'] / 1e6:>9.0f}")  # fmt: skip
    print(
        f"ours (1 worker) / re = {base / results['ours']['seconds']:.2f}x wall, "
        f"{base_cpu / results['ours']['cpu_s']:.2f}x CPU; ours (2 workers) / re = "
        f"{base / results['ours_2']['seconds']:.2f}x wall (goal >= 5x)"
    )
    cli = results["cli"]
    print(
        f"`headroom parse --out --json`, whole process / re = {base / cli['seconds']:.2f}x wall, "
        f"{base_cpu / cli['cpu_s']:.2f}x CPU (goal >= 5x; re timed in its process, start-up "
        "not counted)"
    )
    if "goaccess" in results:
        for name, what in (("ingest", "ingest"), ("ingest_char", "ingest + characterization")):
            ratio = results["goaccess"]["seconds"] / results[name]["seconds"]
            ratio_cpu = results["goaccess"]["cpu_s"] / results[name]["cpu_s"]
            print(f"GoAccess report / our {what} = {ratio:.2f}x wall, {ratio_cpu:.2f}x CPU "
                  "(goal >= 5x)")  # fmt: skip
    elif goaccess:
        print("goaccess: not installed (Debian package `goaccess`); skipped")


def _report_kernels(path: Path, runs: int, cold: bool) -> None:
    """Kernel load from the on-disk cache (every worker start) and a cold compile."""
    cached = measure("load", path, runs)["seconds"]
    print(f"numba kernels: {cached:.2f} s to import and run on 2,000 lines from the cache "
          f"(median of {runs})")  # fmt: skip
    if cold:
        with tempfile.TemporaryDirectory() as cache_dir:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
            seconds = measure("load", path, 1, env)["seconds"]
        print(f"numba kernels: {seconds:.1f} s with an empty cache (compile, once)")


if __name__ == "__main__":
    main()
