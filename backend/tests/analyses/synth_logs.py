"""Combined+%D access logs drawn from M/M/c queues (engine.capacity.synth), for tests."""

from pathlib import Path

import numpy as np
import polars as pl

from headroom.engine.capacity import synth


def mm1_table(mu_per_s: float = 40.0, segment_s: float = 40.0, seed: int = 7) -> pl.DataFrame:
    """An M/M/1 queue under 18 rising arrival-rate steps (5% .. 90% of mu)."""
    rates = [f * mu_per_s for f in np.linspace(0.05, 0.9, 18)]
    return synth.queue_log(rates, segment_s, mu_per_s, 1, np.random.default_rng(seed))


def combined_latency_lines(table: pl.DataFrame) -> bytes:
    """Apache Combined plus %D (microseconds): one line per request of the table."""
    return synth.combined_log(table)


def write_mm1_log(path: Path, **kwargs: float) -> Path:
    path.write_bytes(combined_latency_lines(mm1_table(**kwargs)))  # type: ignore[arg-type]
    return path
