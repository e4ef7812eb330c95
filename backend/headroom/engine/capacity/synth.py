"""Synthetic request tables with known queueing behaviour, for validation and benchmarks.

- `queue_log`: FCFS M/M/c (c = 1: vectorised Lindley recursion; c > 1: the
  Kiefer-Wolfowitz workload recursion compiled with numba) under a piecewise-constant
  Poisson arrival rate, so windows cover a range of loads.
- `pool_trace`: a closed loop of users in front of one server whose completion rate
  depends on the number of requests inside it (rising, flat, falling): a server with a
  known best pool size, for the SCT model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
import polars as pl
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
_EPOCH = np.datetime64("2026-01-01T00:00:00", "ns")


def poisson_arrivals_s(
    rates_per_s: Sequence[float], segment_s: float, rng: np.random.Generator
) -> FloatArray:
    """Sorted arrival times: rate rates_per_s[k] during [k segment_s, (k + 1) segment_s)."""
    counts = rng.poisson(np.asarray(rates_per_s, dtype=np.float64) * segment_s)
    seg = np.repeat(np.arange(counts.size), counts)
    times = (seg + rng.random(seg.size)) * segment_s
    return np.sort(times)


def lindley_departures_s(arrive_s: FloatArray, service_s: FloatArray) -> FloatArray:
    """FCFS single server: d_i = max(a_i, d_(i-1)) + s_i, as a running maximum."""
    served = np.cumsum(service_s)
    before = served - service_s
    return served + np.maximum.accumulate(arrive_s - before)


@numba.njit(cache=True)
def _multi_server_departures(arrive_s: FloatArray, service_s: FloatArray, c: int) -> FloatArray:
    free = np.zeros(c)
    depart = np.empty_like(arrive_s)
    for i in range(arrive_s.size):
        j = np.argmin(free)
        start = max(arrive_s[i], free[j])
        depart[i] = start + service_s[i]
        free[j] = depart[i]
    return depart


def fcfs_departures_s(arrive_s: FloatArray, service_s: FloatArray, c: int) -> FloatArray:
    """Departures of a FCFS queue with c identical servers (arrivals sorted)."""
    if c == 1:
        return lindley_departures_s(arrive_s, service_s)
    return _multi_server_departures(arrive_s, service_s, c)


def to_table(
    arrive_s: FloatArray, latency_s: FloatArray, server: str | None = None
) -> pl.DataFrame:
    """A request table (ts, latency_s, status, server) from float seconds."""
    ts = _EPOCH + np.round(arrive_s * 1e9).astype("timedelta64[ns]")
    return pl.DataFrame(
        {
            "ts": pl.Series(ts).cast(pl.Datetime("ns", "UTC")),
            "latency_s": latency_s,
            "status": np.full(arrive_s.size, 200, dtype=np.int16),
            "server": pl.Series([server] * arrive_s.size, dtype=pl.Utf8),
        }
    )


def queue_log(
    rates_per_s: Sequence[float],
    segment_s: float,
    mu_per_s: float,
    c: int,
    rng: np.random.Generator,
) -> pl.DataFrame:
    """A request table drawn from an M/M/c FCFS queue with the given arrival-rate steps."""
    arrive = poisson_arrivals_s(rates_per_s, segment_s, rng)
    service = rng.exponential(1.0 / mu_per_s, arrive.size)
    depart = fcfs_departures_s(arrive, service, c)
    return to_table(arrive, depart - arrive)


@numba.njit(cache=True)
def _closed_loop(
    users: NDArray[np.int64],
    step_s: float,
    think_s: float,
    rate_by_n: FloatArray,
    rng: np.random.Generator,
    capacity: int,
) -> tuple[FloatArray, FloatArray, int]:
    arrive = np.empty(capacity)
    depart = np.empty(capacity)
    queue = np.empty(users.max() + 1)  # FCFS ring buffer of arrival times
    head, n, done, t = 0, 0, 0, 0.0
    top = rate_by_n.size - 1
    for k in range(users.size):
        end = (k + 1) * step_s
        while True:
            lam = max(users[k] - n, 0) / think_s
            mu = rate_by_n[min(n, top)]
            total = lam + mu
            if total <= 0.0:
                t = end
                break
            t += rng.exponential(1.0 / total)
            if t >= end:
                t = end  # memoryless: restart the clock at the step boundary
                break
            if rng.random() * total < lam:
                queue[(head + n) % queue.size] = t
                n += 1
            elif done < capacity:
                arrive[done] = queue[head]
                depart[done] = t
                head = (head + 1) % queue.size
                n -= 1
                done += 1
    return arrive, depart, done


def plateau_rates(
    per_request_per_s: float, q_lower: int, q_upper: int, decline: float, n_max: int
) -> FloatArray:
    """Completion rate with n inside: linear up to q_lower, flat to q_upper, then falling
    by `decline` (a fraction of the peak) per extra request."""
    n = np.arange(n_max + 1, dtype=np.float64)
    peak = per_request_per_s * q_lower
    rate = np.minimum(n, q_lower) * per_request_per_s
    falling = peak * np.maximum(1.0 - decline * (n - q_upper), 0.05)
    return np.where(n > q_upper, falling, rate)


def pool_trace(
    users_per_step: Sequence[int],
    step_s: float,
    think_s: float,
    rate_by_n: FloatArray,
    rng: np.random.Generator,
    server: str = "app-1",
) -> pl.DataFrame:
    """A latency trace of a closed loop whose user count follows users_per_step."""
    users = np.asarray(users_per_step, dtype=np.int64)
    horizon = users.size * step_s
    capacity = int(horizon * float(rate_by_n.max()) * 1.2) + 10_000
    arrive, depart, done = _closed_loop(users, step_s, think_s, rate_by_n, rng, capacity)
    order = np.argsort(arrive[:done], kind="stable")
    a, d = arrive[:done][order], depart[:done][order]
    return to_table(a, d - a, server)


def combined_log(table: pl.DataFrame, user_agent: str = "synth/1.0") -> bytes:
    """Apache Combined plus %D (microseconds): one access-log line per request of the table."""
    index = pl.int_range(pl.len())
    lines = table.select(
        pl.format(
            '10.0.{}.{} - - [{}] "GET /item/{} HTTP/1.1" {} {} "-" "{}" {}',
            index // 250 % 250,
            index % 250,
            pl.col("ts").dt.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            index % 97,
            pl.col("status"),
            pl.lit(512),
            pl.lit(user_agent),
            (pl.col("latency_s") * 1e6).round().cast(pl.Int64),
        ).alias("line")
    )["line"]
    return ("\n".join(lines.to_list()) + "\n").encode()


def trace_csv(table: pl.DataFrame) -> bytes:
    """A latency trace CSV (arrival in epoch seconds, duration_ms, server) of a request table."""
    return (
        table.select(
            arrival=pl.col("ts").dt.epoch("ns") / 1e9,
            duration_ms=(pl.col("latency_s") * 1e3).round(3),
            server=pl.col("server"),
        )
        .write_csv()
        .encode()
    )
