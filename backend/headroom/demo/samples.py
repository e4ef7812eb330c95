"""The demo's synthetic data: a log with response times and a latency trace, generated from
queueing models, labelled synthetic, the same bytes every time."""

import numpy as np
import polars as pl

from headroom.engine.capacity import synth

SYNTHETIC_NAME = "synthetic-mm4-latency.log"
TRACE_NAME = "synthetic-pool-trace.csv"


def synthetic_log() -> bytes:
    """An M/M/4 server (25 req/s per core) under load rising from 5% to 95% over 20 minutes:
    generated from the queueing model, labelled synthetic, the same bytes every time."""
    rates_per_s = [float(r) for r in np.linspace(0.05, 0.95, 20) * 100.0]
    table = synth.queue_log(rates_per_s, 60.0, 25.0, 4, np.random.default_rng(2026))
    return synth.combined_log(table, user_agent="headroom-demo-synthetic/1.0")


def synthetic_trace() -> bytes:
    """A latency trace of two application servers, each in front of a closed loop of users
    ramping up and down over 3 minutes: app-1 (1 core) completes 50 req/s for each request
    inside it up to 10 requests, holds that rate up to 20 and slows down beyond; app-2
    (2 cores) likewise with 20 and 30. Their best pool sizes (Q_lower) are 10 and 20.
    Generated from that model, labelled synthetic, the same bytes every time."""
    ramp_1 = list(range(1, 46)) + list(range(45, 0, -1))  # users, one step per 1.5 s
    ramp_2 = list(range(1, 61)) + list(range(60, 0, -1))  # one step per 1.125 s
    servers = [("app-1", 10, 20, ramp_1, 1.5), ("app-2", 20, 30, ramp_2, 1.125)]
    tables = [
        synth.pool_trace(
            ramp,
            step_s,
            0.005,
            synth.plateau_rates(50.0, q_lower, q_upper, 0.02, 100),
            np.random.default_rng(seed),
            server=name,
        )
        for seed, (name, q_lower, q_upper, ramp, step_s) in enumerate(servers, start=1)
    ]
    return synth.trace_csv(pl.concat(tables).sort("ts"))
