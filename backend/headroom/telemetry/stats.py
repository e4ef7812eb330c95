"""Per-service figures of a trace's request table: requests, errors, latency percentiles
(the traffic summary's rule: linear interpolation) and concurrency, the requests in
flight: its time average (Little's law: the sum of response times over the covered span)
and its peak (a sweep over start and end events; a request ends before another starts at
the same instant)."""

from dataclasses import dataclass

import numpy as np
import polars as pl


@dataclass(frozen=True)
class ServiceStats:
    service: str
    request_count: int
    error_rate: float | None
    mean_rate_per_s: float
    latency_mean_s: float
    latency_p50_s: float
    latency_p95_s: float
    latency_p99_s: float
    latency_max_s: float
    concurrency_mean: float
    concurrency_peak: int
    span_s: float


def per_service(table: pl.DataFrame) -> list[ServiceStats]:
    """`table`: ts, latency_s, status, service (nulls: `unknown_service`)."""
    table = table.filter(pl.col("latency_s").is_not_null()).with_columns(
        pl.col("service").fill_null("unknown_service")
    )
    return [
        _stats(str(name), group)
        for (name,), group in sorted(table.group_by("service"), key=lambda g: str(g[0][0]))
    ]


def _stats(service: str, group: pl.DataFrame) -> ServiceStats:
    start = group["ts"].dt.epoch("ns").to_numpy().astype(np.int64)
    took = group["latency_s"].to_numpy()
    end = start + np.round(took * 1e9).astype(np.int64)
    span_s = max(float(end.max() - start.min()) / 1e9, 1e-9)
    status = group["status"]
    errors = (
        None if status.null_count() == status.len() else int((status >= 500).sum()) / status.len()
    )
    q = group["latency_s"]
    return ServiceStats(
        service=service,
        request_count=group.height,
        error_rate=errors,
        mean_rate_per_s=group.height / span_s,
        latency_mean_s=float(took.mean()),
        latency_p50_s=float(q.quantile(0.5, "linear") or 0),
        latency_p95_s=float(q.quantile(0.95, "linear") or 0),
        latency_p99_s=float(q.quantile(0.99, "linear") or 0),
        latency_max_s=float(took.max()),
        concurrency_mean=float(took.sum()) / span_s,
        concurrency_peak=peak_in_flight(start, end),
        span_s=span_s,
    )


def peak_in_flight(start: np.ndarray, end: np.ndarray) -> int:
    """The most intervals [start, end) open at once."""
    times = np.concatenate([end, start])
    steps = np.concatenate([-np.ones(end.size, np.int64), np.ones(start.size, np.int64)])
    order = np.lexsort((steps, times))  # at equal times the -1 (an end) comes first
    return int(np.cumsum(steps[order]).max(initial=0))
