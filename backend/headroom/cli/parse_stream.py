"""`headroom parse` in one pass: each chunk's table is added to the report's running
aggregates and appended to the Parquet file by a background thread (the Parquet encoder
releases the GIL, so writing chunk n overlaps parsing chunk n+1), then dropped. Neither
the whole table nor a second read of the file is needed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

# Optional modules numba imports when its compiler starts, to offer what the parse kernels
# never use: BLAS through scipy.linalg (np.dot, np.linalg) and cffi functions. Importing
# them is about a sixth of the command's fixed start-up cost.
NUMBA_EXTRAS = ("scipy.linalg", "cffi")


@contextmanager
def without_numba_extras() -> Iterator[None]:
    """Within, numba's compiler starts without NUMBA_EXTRAS (it treats them as absent), for
    a process that runs only the parse kernels. Left as they were when numba has already
    started or a module is already imported; importable again afterwards (numba itself
    keeps them off for the rest of the process)."""
    hidden = [] if "numba.np.arraymath" in sys.modules else NUMBA_EXTRAS
    hidden = [name for name in hidden if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


# min/max kept for the columns readers filter on; those of the long strings (paths, agents)
# cost a sixth of the writing and serve no reader
STATISTICS = ["ts", "status", "bytes", "latency_s"]


@dataclass
class ReportTally:
    """The `parse --json` aggregates of the chunks seen so far (equal to parse_report's
    over the whole table: the latency quantiles use the same polars quantile over the
    same values), and whether the rows so far are in time order."""

    rows: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    first: Any = None
    last: Any = None
    bytes_total: int = 0
    bytes_n: int = 0
    latencies: list[pl.Series] = field(default_factory=list)
    in_time_order: bool = True

    def add(self, table: pl.DataFrame) -> None:
        if table.height == 0:
            return
        ts = table["ts"]
        self._check_order(ts)
        self.rows += table.height
        for status, n in table.group_by("status").len().drop_nulls().iter_rows():
            self.statuses[status] = self.statuses.get(status, 0) + n
        low, high = ts.min(), ts.max()
        if low is not None:
            self.first = low if self.first is None else min(self.first, low)
            self.last = high if self.last is None else max(self.last, high)
        self.bytes_n += table["bytes"].count()
        self.bytes_total += int(table["bytes"].sum())
        self.latencies.append(table["latency_s"].drop_nulls())

    def _check_order(self, ts: pl.Series) -> None:
        """Nulls or any step back in time mean the file needs sorting (done after)."""
        if not self.in_time_order:
            return
        if ts.null_count() or not ts.is_sorted() or (self.rows and ts[0] < self.last):
            self.in_time_order = False

    def latency_quantiles(self) -> dict[float, float] | None:
        latency = pl.concat(self.latencies) if self.latencies else pl.Series([], dtype=pl.Float64)
        if latency.len() == 0:
            return None
        return {q: float(latency.quantile(q, "linear")) for q in (0.50, 0.95, 0.99)}  # type: ignore[arg-type]


class ParquetSink:
    """Chunk tables appended as row groups to one Parquet file, written by a background
    thread (one chunk queued at most). Written under a temporary name, renamed by close():
    an interrupted parse leaves no half-written file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = path.with_name(path.name + ".partial")
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="parquet")
        self.pending: Future[None] | None = None
        self.writer: Any = None

    def write(self, table: pl.DataFrame) -> None:
        if table.height == 0:
            return
        arrow = table.to_arrow(compat_level=pl.CompatLevel.newest())  # string views: no copy
        if self.pending is not None:
            self.pending.result()
        self.pending = self.pool.submit(self._write, arrow)

    def _write(self, arrow: Any) -> None:
        import pyarrow.parquet as pq

        if self.writer is None:
            self.writer = pq.ParquetWriter(
                self.partial, arrow.schema, compression="zstd", write_statistics=STATISTICS
            )
        self.writer.write_table(arrow)

    def close(self, in_time_order: bool) -> None:
        """Finish the file; rows out of time order are sorted by ts (ties keep the file's
        order), as the in-memory parse does."""
        try:
            if self.pending is not None:
                self.pending.result()
        finally:
            self.pool.shutdown()
            if self.writer is not None:
                self.writer.close()
        if in_time_order:
            self.partial.replace(self.path)
            return
        sorted_rows = pl.scan_parquet(self.partial).sort("ts", maintain_order=True)
        sorted_rows.sink_parquet(self.path)
        self.partial.unlink()

    def abandon(self) -> None:
        self.pool.shutdown(cancel_futures=True)
        if self.writer is not None:
            self.writer.close()
        self.partial.unlink(missing_ok=True)
