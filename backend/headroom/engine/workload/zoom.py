"""A time window of the arrival series at full resolution, for a chart's zoom.

The characterization keeps each arrival series LTTB-downsampled to a few thousand points
over the whole log; zooming into a window re-counts the window's requests from the
request table: every bucket when the window holds at most ``max_points`` of them, else
the LTTB points of the window (far more detail than the whole-log view).

Each bucket's rate is its count over the seconds of it both the log and the window cover
(``arrivals.rates_per_s``, as in the whole-log view), so a bucket the log ends in (or the
window cuts) is no dip.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .arrivals import rates_per_s
from .coverage import Coverage, frame_coverage
from .downsample import lttb_indices

NS_PER_S = 1_000_000_000
MAX_BUCKETS = 20_000_000  # a window this long at this resolution: ask for a coarser one


@dataclass(frozen=True)
class ArrivalWindow:
    """Requests per bucket of ``every_s`` seconds in [start, end); times are the buckets'
    starts (epoch ms, UTC, multiples of every_s); ``rate_per_s`` each bucket's count over
    the seconds of it covered; ``buckets`` before any downsampling."""

    every_s: int
    t_ms: np.ndarray
    count: np.ndarray
    buckets: int
    downsampled: bool
    rate_per_s: np.ndarray

    def to_dict(self) -> dict[str, object]:
        return {
            "every_s": self.every_s,
            "t_ms": self.t_ms.tolist(),
            "count": self.count.tolist(),
            "rate_per_s": self.rate_per_s.tolist(),
            "buckets": self.buckets,
            "downsampled": self.downsampled,
        }


def arrival_window(
    requests: pl.LazyFrame,
    every_s: int,
    start_ns: int | None,
    end_ns: int | None,
    max_points: int,
    cover: Coverage | None = None,
) -> ArrivalWindow:
    """The window [start_ns, end_ns) (None: the log's first / last request) of `requests`
    (a ``ts`` column), gap-filled with zeros. ``cover``: the whole log's coverage (found
    from `requests` when None). ValueError for an empty or too long window."""
    if every_s < 1 or max_points < 3:
        raise ValueError("every_s must be >= 1 and max_points >= 3")
    ts = _window_ns(requests, start_ns, end_ns)
    step = every_s * NS_PER_S
    first = (start_ns if start_ns is not None else _min_or(ts, 0)) // step
    last = (end_ns - 1 if end_ns is not None else _max_or(ts, 0)) // step
    buckets = int(last - first + 1)
    if buckets < 1:
        raise ValueError("the window is empty: its end must come after its start")
    if buckets > MAX_BUCKETS:
        raise ValueError(
            f"the window holds {buckets:,} buckets of {every_s} s (at most {MAX_BUCKETS:,}): "
            "choose a shorter window or a coarser resolution"
        )
    counts = np.bincount(ts // step - first, minlength=buckets).astype(np.int64)
    starts_ns = np.arange(first, first + buckets, dtype=np.int64) * step
    t_ms = starts_ns // 1_000_000
    rates = rates_per_s(counts, starts_ns, every_s, _clipped(requests, cover, start_ns, end_ns))
    kept = lttb_indices(np.arange(buckets), counts, max_points)
    return ArrivalWindow(
        every_s, t_ms[kept], counts[kept], buckets, len(kept) < buckets, rates[kept]
    )


def _clipped(
    requests: pl.LazyFrame, cover: Coverage | None, start_ns: int | None, end_ns: int | None
) -> Coverage:
    """The log's coverage within the window (an empty one when the log has no timestamps)."""
    whole = cover if cover is not None else frame_coverage(requests)
    if whole is None:
        return Coverage(0, 0, 0.0)
    lo = whole.start_ns if start_ns is None else max(whole.start_ns, start_ns)
    hi = whole.end_ns if end_ns is None else min(whole.end_ns, end_ns)
    return Coverage(lo, max(lo, hi), whole.granularity_s)


def _window_ns(requests: pl.LazyFrame, start_ns: int | None, end_ns: int | None) -> np.ndarray:
    ts = pl.col("ts").dt.epoch("ns")
    query = requests.select(ts.alias("ns")).drop_nulls()
    if start_ns is not None:
        query = query.filter(pl.col("ns") >= start_ns)
    if end_ns is not None:
        query = query.filter(pl.col("ns") < end_ns)
    return query.collect()["ns"].to_numpy()


def _min_or(values: np.ndarray, default: int) -> int:
    return int(values.min()) if values.size else default


def _max_or(values: np.ndarray, default: int) -> int:
    return int(values.max()) if values.size else default
