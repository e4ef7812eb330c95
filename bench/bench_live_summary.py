"""Benchmark of a live dataset's summary after an append: the new part's partial summary
merged with the kept parts' (what telemetry.rolling does), against summarizing the whole
kept table again (what an append cost before). Both must give the same request count.

    python bench/bench_live_summary.py [--parts 8,32,64] [--rows 50000] [--runs 3]

Prints, per number of kept parts, the median CPU and wall seconds of each way and their
ratio. Partials of the kept parts are made once, beforehand (each part's was made when it
was written); reading their JSON from the store is left out.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs import REQUEST_SCHEMA
from headroom.engine.workload.summary_partial import merge, partial_of, summary_of
from headroom.engine.workload.traffic import summarize

START_NS = int(datetime(2026, 11, 1, tzinfo=UTC).timestamp()) * 10**9
PART_SPAN_S = 300  # one append: five minutes of requests


def part(rows: int, index: int) -> pl.DataFrame:
    """`rows` requests over the `index`-th five minutes, at whole milliseconds."""
    rng = np.random.default_rng(index)
    offset_ms = np.sort(rng.integers(0, PART_SPAN_S * 1000, rows)) + index * PART_SPAN_S * 1000
    columns: dict[str, Any] = {
        "ts": pl.from_epoch(pl.Series(START_NS + offset_ms * 10**6), "ns").dt.replace_time_zone(
            "UTC"
        ),
        "client": [f"10.0.{i % 7}.{i % 251}" for i in range(rows)],
        "method": ["GET"] * rows,
        "path": [f"/items/{i % 50}" for i in range(rows)],
        "status": rng.choice([200, 200, 200, 200, 302, 404, 500, 503], rows),
        "bytes": rng.integers(200, 20_000, rows),
        "latency_s": rng.lognormal(-2.0, 0.9, rows),
    }
    return (
        pl.DataFrame(columns)
        .with_columns([pl.lit(None).alias(c) for c in REQUEST_SCHEMA if c not in columns])
        .select(pl.col(c).cast(t) for c, t in REQUEST_SCHEMA.items())
    )


def timed(fn: Callable[[], int], runs: int) -> tuple[float, float, int]:
    """Median CPU and wall seconds of `fn` over `runs` runs, and its last answer."""
    cpu, wall, answer = [], [], 0
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        answer = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="8,32,64", help="kept parts, comma-separated")
    parser.add_argument("--rows", type=int, default=50_000, help="requests per part")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    counts = [int(n) for n in args.parts.split(",")]
    tables = [part(args.rows, i) for i in range(max(counts))]
    partials = [partial_of(t) for t in tables]
    print(f"{args.rows} requests per part; median of {args.runs} runs; seconds CPU / wall")
    print(f"{'parts':>6} {'merge partials':>18} {'summarize all':>18} {'CPU ratio':>10}")
    for n in counts:
        kept, new = partials[: n - 1], tables[n - 1]

        def incremental(kept: list = kept, new: pl.DataFrame = new) -> int:
            summary = summary_of(merge([*kept, partial_of(new)]), 2000)
            assert summary is not None
            return summary.request_count

        def whole(n: int = n) -> int:
            return summarize(pl.concat(tables[:n]).lazy()).request_count

        cpu_new, wall_new, count_new = timed(incremental, args.runs)
        cpu_old, wall_old, count_old = timed(whole, args.runs)
        assert count_new == count_old == n * args.rows
        print(
            f"{n:>6} {cpu_new:>8.3f} / {wall_new:<7.3f} {cpu_old:>8.3f} / {wall_old:<7.3f}"
            f" {cpu_old / cpu_new:>9.1f}x"
        )


if __name__ == "__main__":
    main()
