"""Request tables made ready for the capacity engine, and reports made plain JSON (shared
by the CLI and the job; no web imports, so the local CLI stays light)."""

import math
from typing import Any

import polars as pl

from headroom.core.storage import ObjectStore
from headroom.engine.logs import LogInputError
from headroom.engine.workload.slices import RequestSlice, sliced

COLUMNS = ("ts", "latency_s", "status", "server", "client", "cls_request", "cls_user")
NO_LATENCY = (
    "the log records no response times, and knee curves need them: log them with "
    "%D (Apache, microseconds) or %{ms}T, $request_time (nginx, seconds), time-taken "
    "(IIS), or upload a latency trace"
)
NO_TRACE_LATENCY = (
    "the trace gives no response times: it needs a departure column (departure, end, ...) "
    "or a duration column (duration, duration_ms, latency_s, ...)"
)


def for_capacity(table: pl.DataFrame) -> pl.DataFrame:
    """The columns analyze() reads; class/server columns that are empty throughout are
    dropped (an all-null class column would only add an 'unknown' copy of 'all')."""
    present = [c for c in COLUMNS if c in table.columns]
    table = table.select(present)
    if "latency_s" not in table.columns or table["latency_s"].null_count() == table.height:
        raise LogInputError("no_latency", NO_LATENCY)
    empty = [
        c
        for c in ("server", "cls_request", "cls_user", "client")
        if c in table.columns and table[c].null_count() == table.height
    ]
    return table.drop(empty)


def for_sct(table: pl.DataFrame) -> pl.DataFrame:
    """Arrival, response time and (when named) server of each request of a trace."""
    if "latency_s" not in table.columns or table["latency_s"].null_count() == table.height:
        raise LogInputError("no_latency", NO_TRACE_LATENCY)
    keep = ["ts", "latency_s"]
    if "server" in table.columns and table["server"].null_count() < table.height:
        keep.append("server")
    return table.select(keep)


def scan_for_capacity(
    store: ObjectStore, keys: list[str], where: RequestSlice | None = None
) -> pl.DataFrame:
    """Read the analysed columns of a request table stored as Parquet parts (only the
    slice's requests when given: the filter is pushed into the scan)."""
    lazy = _scan(store, keys, where)
    names = lazy.collect_schema().names()
    return for_capacity(lazy.select([c for c in COLUMNS if c in names]).collect())


def _scan(store: ObjectStore, keys: list[str], where: RequestSlice | None) -> pl.LazyFrame:
    if not keys:
        raise LogInputError("empty_log", "the dataset has no request table")
    lazy = store.scan_parquet(keys)
    if where is None or where.whole:
        return lazy
    lazy = sliced(lazy, where)
    if lazy.select(pl.len()).collect(engine="streaming").item() == 0:
        raise LogInputError("empty_slice", "the range and filters keep no requests")
    return lazy


def scan_for_sct(
    store: ObjectStore,
    keys: list[str],
    service: str | None = None,
    where: RequestSlice | None = None,
) -> pl.DataFrame:
    """Read the columns SCT needs from a trace's request table stored as Parquet parts
    (only `service`'s requests when named: a trace with a service column; only the
    slice's when given)."""
    lazy = _scan(store, keys, where)
    names = lazy.collect_schema().names()
    if service is not None:
        if "service" not in names:
            raise LogInputError("no_service", "the trace names no services to choose from")
        lazy = lazy.filter(pl.col("service") == service)
    table = lazy.select([c for c in ("ts", "latency_s", "server") if c in names]).collect()
    if service is not None and table.height == 0:
        raise LogInputError("unknown_service", f"the trace has no requests of {service!r}")
    return for_sct(table)


def jsonable(value: Any) -> Any:
    """Plain JSON: non-finite floats become null, numpy scalars Python numbers."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
