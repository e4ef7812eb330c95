"""The import job: reads the source's rolling window from Prometheus, writes the interval
series as one Parquet table, then swaps it in with the summary in one transaction (a
failed read leaves the dataset as it was: nothing half-imported)."""

import math
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import polars as pl
from sqlalchemy import select

from headroom.core.db import session_scope
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.meta import updated
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.engine.prometheus import IntervalSeries, Split, summarize
from headroom.jobs import service as job_service
from headroom.jobs.models import Result
from headroom.jobs.progress import ProgressReporter
from headroom.jobs.runner import JobContext
from headroom.sources import prometheus_client as prom
from headroom.sources import repository, secrets
from headroom.sources.breaches import after_refresh, refreshed_figures
from headroom.sources.documents import (
    FORMAT,
    QUANTILES,
    RESULT_KIND,
    RangeSummaryJson,
    bucket_bounds,
    source_meta,
    summary_document,
)
from headroom.sources.models import PrometheusSource


@dataclass(frozen=True)
class Plan:
    source_id: int
    dataset_id: int
    base_url: str
    auth: prom.Auth
    query: prom.Query


def import_body(context: JobContext) -> None:
    try:
        plan = _plan(context)
    except prom.PrometheusError as error:
        with session_scope(context.settings.resolved_database_url()) as session:
            job_service.fail_owned(
                session, context.job_id, context.worker, "prometheus_error", str(error)
            )
        return
    report = ProgressReporter(context.settings, context.job_id, context.worker)
    try:
        with prom.client(plan.base_url, plan.auth) as http:
            series = prom.read(http, plan.query, lambda f: report(0.9 * f, "reading"))
    except prom.PrometheusError as error:
        _failed(context, plan, str(error))
        return
    store = open_store(context.settings.resolved_storage_url())
    key = f"sources/prometheus/{plan.source_id}/{context.job_id}-{uuid.uuid4().hex[:8]}.parquet"
    with store.writer(key) as handle:
        interval_table(series).write_parquet(handle)
    old, since_s = _swap_in(context, plan, series, key)
    for stale in old:
        store.delete(stale)
    end_s = plan.query.end.timestamp()
    after_refresh(context.settings, plan.source_id, plan.dataset_id, series, since_s, end_s)


def _plan(context: JobContext) -> Plan:
    with session_scope(context.settings.resolved_database_url()) as session:
        job = job_service.owned(session, context.job_id, context.worker)
        source = session.scalar(
            select(PrometheusSource).where(PrometheusSource.dataset_id == job.dataset_id)
        )
        if source is None or job.dataset_id is None:
            raise prom.PrometheusError("the source of this import was deleted")
        try:
            auth = secrets.auth_of(context.settings, source)
        except secrets.CredentialUnreadable as error:
            raise prom.PrometheusError(str(error)) from error
        start, end = _range(source)
        query = prom.Query(
            source.requests_selector,
            source.latency_selector or None,
            datetime.fromtimestamp(start, UTC),
            datetime.fromtimestamp(end, UTC),
            source.step_s,
            Split(source.class_label or None, source.error_label or None, source.error_pattern),
        )
        return Plan(source.id, job.dataset_id, source.base_url, auth, query)


def _range(source: PrometheusSource) -> tuple[float, float]:
    """The queued range, or the rolling window ending now; on the step grid (the grid of
    every refresh is the same, so intervals line up)."""
    step = source.step_s
    if source.range_start is not None and source.range_end is not None:
        start = math.floor(source.range_start.timestamp() / step) * step
        return start, start + math.floor((source.range_end.timestamp() - start) / step) * step
    end = math.floor(datetime.now(UTC).timestamp() / step) * step
    return end - math.floor(source.window_s / step) * step, end


def interval_table(series: IntervalSeries) -> pl.DataFrame:
    """One row per class and interval: its start, requests, rate, errors, p50/p95/p99
    (NaN where no sample covers it) and the histogram's cumulative bucket counts."""
    columns: dict[str, object] = {
        "start_s": series.start_s,
        "class": np.array(series.classes, dtype=object)[series.class_index].astype(str),
        "requests": series.requests,
        "rate_per_s": series.rate_per_s,
        "errors": series.errors,
        "error_ratio": series.error_ratio,
    }
    for name, q in QUANTILES.items():
        columns[name] = series.latency_s(q)
    for i in range(series.bucket_bounds_s.size):
        columns[f"bucket_{i}"] = series.bucket_counts[:, i]
    return pl.DataFrame(columns)


def _since_s(source: PrometheusSource | None, plan: Plan) -> float:
    """Where the range this import adds starts: the previous import's end when it lies
    inside this range, else this range's start (all of it is new)."""
    start, end = plan.query.start.timestamp(), plan.query.end.timestamp()
    summary = source.last_summary if source is not None else None
    previous = summary.get("end") if summary is not None else None
    if not isinstance(previous, str):
        return start
    before = datetime.fromisoformat(previous).timestamp()
    return before if start <= before <= end else start


def _swap_in(
    context: JobContext, plan: Plan, series: IntervalSeries, key: str
) -> tuple[list[str], float]:
    """The old tables' keys, and where the range this import added starts."""
    summary = summarize(series)
    now = datetime.now(UTC)
    with session_scope(context.settings.resolved_database_url()) as session:
        job_service.lock_dataset(session, plan.dataset_id, for_update=True)
        since_s = _since_s(session.get(PrometheusSource, plan.source_id), plan)
        document: RangeSummaryJson = {
            **summary_document(summary),
            "start": plan.query.start.isoformat(),
            "end": plan.query.end.isoformat(),
            "classes_order": list(series.classes),
            "refreshed": refreshed_figures(series, since_s, plan.query.end.timestamp()),
        }
        old = repository.older_results(session, plan.dataset_id, RESULT_KIND, context.job_id)
        job_service.save_result(
            session, context.job_id, context.worker, RESULT_KIND, document, plan.dataset_id, [key]
        )
        source = session.get(PrometheusSource, plan.source_id)
        dataset = session.get(Dataset, plan.dataset_id)
        if source is not None:
            source.last_refresh_at, source.last_error, source.last_summary = now, None, document
        if dataset is not None:
            _describe(dataset, series, summary.overall.requests_total, plan)
            if source is not None:
                dataset.meta = updated(dataset.meta, source=source_meta(source, True))
    return old, since_s


def _describe(dataset: Dataset, series: IntervalSeries, total: float, plan: Plan) -> None:
    dataset.status = DatasetStatus.ready
    dataset.format = FORMAT
    dataset.request_count = round(total)
    dataset.first_request_at = plan.query.start
    dataset.last_request_at = plan.query.end
    dataset.span_s = (plan.query.end - plan.query.start).total_seconds()
    dataset.has_latency = bool(series.bucket_bounds_s.size)


def _failed(context: JobContext, plan: Plan, message: str) -> None:
    with session_scope(context.settings.resolved_database_url()) as session:
        job_service.fail_owned(session, context.job_id, context.worker, "prometheus_error", message)
        source = session.get(PrometheusSource, plan.source_id)
        if source is not None:
            source.last_error = message
        dataset = session.get(Dataset, plan.dataset_id)
        had_data = repository.latest_result(session, plan.dataset_id, RESULT_KIND) is not None
        if dataset is not None and not had_data:
            dataset.status = DatasetStatus.failed


def rate_points(store: ObjectStore, result: Result) -> tuple[np.ndarray, np.ndarray]:
    """The ``all`` class's interval starts and rates (observed intervals only): what the
    forecast reads from a Prometheus dataset."""
    table = (
        store.scan_parquet(result.table_keys)
        .filter((pl.col("class") == "all") & pl.col("rate_per_s").is_not_nan())
        .select("start_s", "rate_per_s")
        .collect()
    )
    return table["start_s"].to_numpy(), table["rate_per_s"].to_numpy()


def read_intervals(store: ObjectStore, result: Result) -> IntervalSeries:
    """The stored interval table back as series (the bounds from the import's document)."""
    document = result.document if isinstance(result.document, dict) else {}
    bounds = bucket_bounds(document)
    order = list(document.get("classes_order") or ["all"])
    table = store.scan_parquet(result.table_keys).collect()
    names = table["class"].to_list()
    order += sorted(set(names) - set(order))
    buckets = [f"bucket_{i}" for i in range(bounds.size)]
    counts = table.select(buckets).to_numpy().astype(np.float64) if buckets else None
    return IntervalSeries(
        step_s=float(document.get("step_s", 60.0)),
        classes=tuple(order),
        start_s=table["start_s"].to_numpy().astype(np.float64),
        class_index=np.array([order.index(n) for n in names], np.int64),
        requests=table["requests"].to_numpy().astype(np.float64),
        errors=table["errors"].to_numpy().astype(np.float64),
        bucket_bounds_s=bounds,
        bucket_counts=counts if counts is not None else np.empty((table.height, 0)),
    )
