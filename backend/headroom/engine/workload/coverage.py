"""The time a log covers, and the granularity of its timestamps.

A rate is a count divided by the seconds the data actually covers. A log's timestamps
are recorded to some granularity ``g`` (1 s in a common log, 1 ms in a trace, a minute or
an hour when a pipeline rounded them): the request stamped ``t`` arrived in ``[t, t + g)``.
The log covers ``[floor(first / g) * g, floor(last / g) * g + g)``, so a log of one
request still covers ``g`` seconds and no bucket is of zero width.

Granularity is detected from the phases of the timestamps: the largest candidate ``g``
whose phases ``t mod g`` all fall within a tenth of the period (rounded timestamps: one
phase; a log whose every request is stamped at minute :05 of its hour: a minute of the
hour), over at least three periods and ten distinct timestamps (with fewer, the largest
candidate up to a second that divides every timestamp). Counts per bucket finer
than ``g`` show the rounding, not the traffic: :func:`supported_every_s` is the finest
resolution the data supports.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

NS_PER_S = 1_000_000_000
CANDIDATES_NS = tuple(
    int(s * NS_PER_S) for s in (0.001, 0.01, 0.1, 1, 10, 60, 300, 600, 900, 3600, 86400)
)
PHASE_BINS = 100
CONCENTRATED_BINS = 10  # all phases within a tenth of the period
MIN_PERIODS = 3
MIN_DISTINCT = 10
MAX_SAMPLE = 200_000


@dataclass(frozen=True)
class Coverage:
    """The covered interval ``[start_ns, end_ns)`` (epoch ns, UTC) and the timestamps'
    granularity (0.0 when they are finer than a millisecond)."""

    start_ns: int
    end_ns: int
    granularity_s: float

    @property
    def span_s(self) -> float:
        return (self.end_ns - self.start_ns) / NS_PER_S

    def covered_s(self, bucket_start_ns: np.ndarray, every_s: float) -> np.ndarray:
        """Seconds of each bucket ``[b, b + every_s)`` inside the covered interval."""
        starts = np.asarray(bucket_start_ns, dtype=np.int64)
        ends = starts + round(every_s * NS_PER_S)
        inside = np.minimum(ends, self.end_ns) - np.maximum(starts, self.start_ns)
        return np.clip(inside, 0, None) / NS_PER_S


def timestamp_granularity_ns(ts_ns: np.ndarray) -> int:
    """The largest candidate granularity the timestamps are concentrated on (0: none)."""
    distinct = distinct_sorted(np.asarray(ts_ns, dtype=np.int64))
    if distinct.size > MAX_SAMPLE:
        distinct = distinct[:: -(-distinct.size // MAX_SAMPLE)]
    if distinct.size < MIN_DISTINCT:
        return _exact_ns(distinct)
    return granularity_of_phases(phase_counts(distinct), int(distinct[-1] - distinct[0]))


def distinct_sorted(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` by a stable sort (linear on the sorted or nearly sorted
    timestamps of a log, where numpy's unique hashes every value)."""
    ordered = np.sort(values, kind="stable")
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return ordered[first]


def phase_counts(ts_ns: np.ndarray) -> np.ndarray:
    """Per candidate granularity (rows, as ``CANDIDATES_NS``), the timestamps in each of
    ``PHASE_BINS`` bins of their phase ``t mod g``: counts that add up over the parts of a
    log, so the granularity of their union is :func:`granularity_of_phases` of the sum."""
    ts = np.asarray(ts_ns, dtype=np.int64)
    return np.stack(
        [np.bincount((ts % g) * PHASE_BINS // g, minlength=PHASE_BINS) for g in CANDIDATES_NS]
    ).astype(np.int64)


def granularity_of_phases(phases: np.ndarray, span_ns: int) -> int:
    """The largest candidate whose phases are concentrated over at least MIN_PERIODS of
    it, from :func:`phase_counts` of timestamps spanning ``span_ns`` (0: none)."""
    for row in reversed(range(len(CANDIDATES_NS))):
        g = CANDIDATES_NS[row]
        if span_ns >= MIN_PERIODS * g and _concentrated(phases[row] > 0):
            return g
    return 0


def _exact_ns(distinct: np.ndarray) -> int:
    """Too few timestamps to tell rounding from chance: the largest candidate up to a
    second that divides every one of them."""
    fine = [g for g in CANDIDATES_NS if g <= NS_PER_S and not np.any(distinct % g)]
    return max(fine, default=0)


def _concentrated(occupied: np.ndarray) -> bool:
    if occupied.sum() > CONCENTRATED_BINS:
        return False
    doubled = np.concatenate([occupied, occupied]).astype(np.int8)
    empty_run = _longest_run(doubled == 0)
    return PHASE_BINS - min(empty_run, PHASE_BINS) <= CONCENTRATED_BINS


def _longest_run(flags: np.ndarray) -> int:
    padded = np.concatenate([[0], flags.astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(padded))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0


def coverage(ts_ns: np.ndarray, granularity_ns: int | None = None) -> Coverage:
    """The covered interval of a non-empty array of timestamps (epoch ns)."""
    ts = np.asarray(ts_ns, dtype=np.int64)
    g = timestamp_granularity_ns(ts) if granularity_ns is None else granularity_ns
    first, last = int(ts.min()), int(ts.max())
    if g <= 0:
        return Coverage(first, max(last, first + 1), 0.0)
    return Coverage((first // g) * g, (last // g) * g + g, g / NS_PER_S)


def frame_coverage(table: pl.DataFrame | pl.LazyFrame) -> Coverage | None:
    """The coverage of a frame's ``ts`` column; None when it has no timestamps. Only the
    distinct timestamps are read (the coverage depends on nothing else): a log recorded
    to the second holds 86,400 a day, whatever its requests."""
    distinct = table.lazy().select(pl.col("ts").dt.epoch("ns")).drop_nulls().unique()
    ts = distinct.collect(engine="streaming")["ts"]
    return coverage(ts.to_numpy()) if ts.len() else None


def supported_every_s(granularity_s: float, choices: tuple[int, ...]) -> int:
    """The finest of ``choices`` no finer than the timestamps (the coarsest when none is)."""
    return next((c for c in sorted(choices) if c >= granularity_s), max(choices))


def granularity_notice(granularity_s: float, every_s: int) -> str | None:
    """The plain-words warning for timestamps coarser than a second; None otherwise."""
    if granularity_s <= 1:
        return None
    return (
        f"Timestamps in this log are recorded to {duration_words(granularity_s)}: counts "
        f"over shorter intervals show the rounding, not the traffic. Rates, peaks and "
        f"peak-to-mean are computed per {duration_words(every_s)}."
    )


def duration_words(seconds: float) -> str:
    """``3600`` -> "1 hour", ``600`` -> "10 minutes", ``1.5`` -> "1.5 s"."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"1 {unit}" if n == 1 else f"{n} {unit}s"
    return f"{seconds:g} s"


def peak_and_trough(
    rates: np.ndarray, covered_s: np.ndarray, every_s: float, mean: float
) -> tuple[int, int]:
    """Indices of the busiest and quietest buckets among those covering at least half
    their width (a bucket of one second holding the log's last request is no peak); all
    buckets when none does, or when the well-covered ones all stay above (below) the mean:
    then a partial bucket does hold the trough (peak), and trough <= mean <= peak."""
    live = covered_s > 0
    whole = covered_s >= 0.5 * min(every_s, float(covered_s.sum()))
    pool = whole if whole.any() else live
    hi = int(np.argmax(np.where(pool, rates, -np.inf)))
    lo = int(np.argmin(np.where(pool, rates, np.inf)))
    if rates[hi] < mean:
        hi = int(np.argmax(np.where(live, rates, -np.inf)))
    if rates[lo] > mean:
        lo = int(np.argmin(np.where(live, rates, np.inf)))
    return hi, lo
