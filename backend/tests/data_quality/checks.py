"""Independent computations the data-quality tests compare the engine's figures with:
plain numpy over the parsed timestamps, nothing from the engine's coverage or arrivals."""

from __future__ import annotations

import numpy as np
import polars as pl

NS = 1_000_000_000
# spans are whole nanoseconds in the engine and float seconds in the checks: they may
# differ by the rounding of one nanosecond
NS_ROUNDING_S = 2e-9


def ts_ns(table: pl.DataFrame) -> np.ndarray:
    return np.sort(table["ts"].dt.epoch("ns").drop_nulls().to_numpy())


def consistent_granularity(ts: np.ndarray, granularity_s: float) -> bool:
    """Every timestamp a multiple of g (g up to 1 s), or all of them at one point of the
    period within a tenth of it (coarser g); g = 0 claims nothing."""
    g = round(granularity_s * NS)
    if g == 0:
        return True
    phases = ts % g
    if g <= NS:
        return not phases.any()
    spread = np.sort(phases)
    gaps = np.diff(np.concatenate([spread, [spread[0] + g]]))
    return bool(g - gaps.max() <= g / 10)


def covered(ts: np.ndarray, granularity_s: float) -> tuple[int, int]:
    """[start, end) in ns: from the first stamp's period to the end of the last one's."""
    g = round(granularity_s * NS)
    if g == 0:
        return int(ts[0]), int(ts[-1]) + 1
    return int(ts[0] // g * g), int(ts[-1] // g * g + g)


def bucket_rates(ts: np.ndarray, every_s: int, start: int, end: int) -> tuple[np.ndarray, ...]:
    """Counts, covered seconds and rates of the epoch-aligned buckets over [start, end)."""
    w = every_s * NS
    first, last = start // w, (end - 1) // w
    counts = np.bincount(ts // w - first, minlength=int(last - first + 1))
    lo = np.arange(first, last + 1) * w
    seconds = (np.minimum(lo + w, end) - np.maximum(lo, start)) / NS
    return counts, seconds, counts / seconds
