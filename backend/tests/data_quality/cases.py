"""The cases of the data-quality suite: every log and trace in data/logs, and synthetic
request tables whose true figures are known in closed form.

A case is a parsed request table with what is known about it: the parse report (for the
logs) and the truth (for the synthetic ones). To add a case, append a builder to
SYNTHETIC (or a file to data/logs); every stage's tests run over all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs import REQUEST_SCHEMA

LOGS = Path(__file__).parents[3] / "data" / "logs"
START_NS = int(datetime(2024, 5, 1, 12, 0, tzinfo=UTC).timestamp()) * 1_000_000_000


@dataclass(frozen=True)
class Case:
    name: str
    table: pl.DataFrame | None  # None: the file is not a log the parser reads
    report: dict[str, Any] | None = None  # `headroom parse --json` of a log
    truth: dict[str, Any] = field(default_factory=dict)
    refusal: str | None = None


def request_table(ts_ns: np.ndarray, **columns: Any) -> pl.DataFrame:
    """A request table at the given epoch-ns times: every request a page ("/") of its
    own client (so pages = requests), status 200, 1,000 bytes, columns overridable."""
    n = ts_ns.size
    data: dict[str, Any] = {
        "ts": pl.Series(np.sort(ts_ns).astype("datetime64[ns]")).dt.replace_time_zone("UTC"),
        "client": [f"10.0.{i // 250 % 250}.{i % 250}" for i in range(n)],
        "method": ["GET"] * n,
        "path": ["/"] * n,
        "status": [200] * n,
        "bytes": [1000] * n,
        "user_agent": ["ua"] * n,
    }
    data.update(columns)
    frame = {k: data.get(k, [None] * n) for k in REQUEST_SCHEMA}
    return pl.DataFrame(frame, schema=REQUEST_SCHEMA)


def partial_hour() -> Case:
    """20 minutes at 50 req/s, stamped to the millisecond: 50 req/s over 1,200 s."""
    ts = START_NS + np.arange(60_000, dtype=np.int64) * 20_000_000
    truth = {"mean_per_s": 50.0, "span_s": 1200.0, "profile_step_s": 60, "rel": 1e-4}
    return Case("synthetic: 20 min at 50 req/s", request_table(ts), truth=truth)


def high_rate_trace() -> Case:
    """A 2-minute trace at 1,050 req/s (no status or bytes, latencies), to the ms."""
    ts = START_NS + (np.arange(126_000, dtype=np.int64) * 1_000_000_000) // 1050
    ts = (ts // 1_000_000) * 1_000_000
    latency = np.random.default_rng(13).lognormal(-4.0, 0.5, ts.size).tolist()
    table = request_table(ts, status=[None] * ts.size, bytes=[None] * ts.size, latency_s=latency)
    truth = {"mean_per_s": 1050.0, "span_s": 120.0, "profile_step_s": 60, "rel": 1e-3}
    return Case("synthetic: 2 min trace at 1,050 req/s", table, truth=truth)


def hour_rounded() -> Case:
    """48 hours, every request stamped within minute :05 of its hour (120 an hour, one
    hour of 180): the timestamps hold the hour only."""
    per_hour = np.full(48, 120)
    per_hour[30] = 180
    hours = np.repeat(np.arange(48), per_hour)
    seconds = np.arange(hours.size) % 60
    ts = START_NS + (hours * 3600 + 300 + seconds).astype(np.int64) * 1_000_000_000
    truth = {
        "granularity_s": 3600.0,
        "span_s": 48 * 3600.0,
        "mean_per_s": per_hour.sum() / (48 * 3600),
        "peak_per_min": 180 / 60,
        "peak_to_mean": 180 / per_hour.mean(),
        "profile_step_s": 3600,
        "rel": 1e-9,
    }
    return Case("synthetic: hour-rounded timestamps", request_table(ts), truth=truth)


def ramp() -> Case:
    """20 minutes whose rate ramps linearly from 5 to 96 req/s: N(t) = 5t + 45.5t^2/T."""
    total_s, lo, hi = 1200.0, 5.0, 96.0
    slope = (hi - lo) / total_s
    k = np.arange(int(lo * total_s + slope * total_s**2 / 2))
    t = (-lo + np.sqrt(lo**2 + 2 * slope * k)) / slope  # N(t) = k
    ts = START_NS + np.round(t * 1e3).astype(np.int64) * 1_000_000
    truth = {"ramp": (lo, hi, total_s), "span_s": total_s, "profile_step_s": 60, "rel": 2e-3}
    return Case("synthetic: ramp 5 -> 96 req/s", request_table(ts), truth=truth)


SYNTHETIC: tuple[Callable[[], Case], ...] = (partial_hour, high_rate_trace, hour_rounded, ramp)


def log_names() -> list[str]:
    return sorted(p.name for p in LOGS.iterdir() if p.is_file())


def case_names() -> list[str]:
    return log_names() + [f.__name__ for f in SYNTHETIC]


@cache
def load_case(name: str) -> Case:
    """A case by name, parsed once per session."""
    builders = {f.__name__: f for f in SYNTHETIC}
    if name in builders:
        return builders[name]()
    from headroom.cli.workload import parse_log, parse_report
    from headroom.engine.logs import LogInputError

    try:
        parsed = parse_log(LOGS / name)
    except (LogInputError, ValueError) as error:
        return Case(name, None, refusal=str(error))
    return Case(name, parsed.table, report=parse_report(parsed))


# Latency cases of the capacity and concurrency stages (c mu = 100/s): M/M/c logs whose
# p95 and MaxRate(T) are known from Erlang C, and a closed loop whose latency does not
# rise with load. Kept apart from SYNTHETIC: the other stages check rates, not latencies.
MM_CAPACITY_PER_S = 100.0
MM_RATES_PER_S = tuple(float(r) for r in np.linspace(10.0, 100.0, 10))


def _mm(c: int) -> Case:
    from headroom.engine.capacity import synth

    rng = np.random.default_rng(100 + c)
    table = synth.queue_log(MM_RATES_PER_S, 120.0, MM_CAPACITY_PER_S / c, c, rng)
    return Case(f"synthetic: M/M/{c}", table, truth={"servers_c": c})


def mm1() -> Case:
    return _mm(1)


def mm4() -> Case:
    return _mm(4)


def mm16() -> Case:
    return _mm(16)


def closed_loop() -> Case:
    """One server behind users who wait for every answer (the demo's app-1 pool trace)."""
    from headroom.engine.capacity import synth

    ramp = list(range(1, 46)) + list(range(45, 0, -1))
    rates = synth.plateau_rates(50.0, 10, 20, 0.02, 100)
    table = synth.pool_trace(ramp, 1.5, 0.005, rates, np.random.default_rng(1), server="app-1")
    return Case("synthetic: closed loop", table, truth={"closed_loop": True})


QUEUEING: tuple[Callable[[], Case], ...] = (mm1, mm4, mm16, closed_loop)


def latency_case_names() -> list[str]:
    """Every case the latency stages run: the logs (refused without latencies) and QUEUEING."""
    return log_names() + [f.__name__ for f in QUEUEING]


@cache
def load_latency_case(name: str) -> Case:
    builders = {f.__name__: f for f in QUEUEING}
    return builders[name]() if name in builders else load_case(name)
