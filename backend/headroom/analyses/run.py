"""The `capacity.analyze` job: read the dataset's request table, run the capacity engine
(knee curves and SLA targets, or SCT on a latency trace, by the analysis' kind), store the
report as the job's Result. Idempotent: a retry replaces its own Result.

Bad input (no latencies, too short a log) fails the job once with a stable code; it never
touches the dataset's status, which belongs to the ingest job."""

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from headroom.analyses.documents import AnalysisReport, capacity_document, sct_document
from headroom.analyses.models import Analysis
from headroom.analyses.schemas import CapacityParamsIn, SctParamsIn
from headroom.analyses.service import params_of
from headroom.analyses.tables import scan_for_capacity, scan_for_sct
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.arrivals import DatasetNotReady
from headroom.datasets.models import Dataset
from headroom.datasets.service import ingest_result
from headroom.datasets.slices import where_of
from headroom.engine.capacity import analyze, analyze_trace
from headroom.engine.logs import LogInputError
from headroom.jobs import derived
from headroom.jobs import service as job_service
from headroom.jobs.models import Result
from headroom.jobs.runner import JobContext
from headroom.sources import service as sources

log = logging.getLogger(__name__)
RESULT_KIND = "capacity_report"
SCT_RESULT_KIND = "sct_report"


@dataclass(frozen=True)
class Inputs:
    dataset_id: int
    params: CapacityParamsIn | SctParamsIn
    table_keys: list[str]
    intervals: Result | None = None  # a Prometheus dataset's interval table, not requests


def capacity_body(context: JobContext) -> None:
    """The job body for jobs.runner.run_job; input errors end the job here, so the
    runner's dataset-level failure handling never marks the dataset failed."""
    derived.guarded(
        context, lambda: run(context.settings, context.job_id, context.worker), "analysis"
    )


def run(settings: Settings, job_id: int, worker: str) -> None:
    url = settings.resolved_database_url()
    store = open_store(settings.resolved_storage_url())
    with session_scope(url) as session:
        inputs = _inputs(session, job_id)
        job_service.report(session, job_id, worker, 0.0, "loading", None)
    with session_scope(url) as session:
        job_service.report(session, job_id, worker, 0.3, "analysing", None)
    if inputs.intervals is not None:
        kind, report = _analyse_intervals(inputs.params, store, inputs.intervals)
    else:
        kind, report = _analyse(inputs.params, store, inputs.table_keys)
    document = report.model_dump(mode="json")
    with session_scope(url) as session:
        job_service.save_result(session, job_id, worker, kind, document, inputs.dataset_id)


def _analyse(
    params: CapacityParamsIn | SctParamsIn, store: ObjectStore, keys: list[str]
) -> tuple[str, AnalysisReport]:
    """The result kind and the report."""
    try:
        if isinstance(params, SctParamsIn):
            table = scan_for_sct(store, keys, params.service, where_of(params.slice))
            return SCT_RESULT_KIND, sct_document(analyze_trace(table, params.to_engine()))
        report = analyze(scan_for_capacity(store, keys, where_of(params.slice)), params.to_engine())
        return RESULT_KIND, capacity_document(report)
    except LogInputError:
        raise
    except ValueError as error:  # the engine's refusals of unusable data
        raise LogInputError("unusable_data", str(error)) from error


def _analyse_intervals(
    params: CapacityParamsIn | SctParamsIn, store: ObjectStore, intervals: Result
) -> tuple[str, AnalysisReport]:
    """A Prometheus dataset: its intervals are the load windows (sources/capacity.py)."""
    from headroom.sources.capacity import prometheus_capacity

    if isinstance(params, SctParamsIn):
        raise LogInputError("not_a_trace", "the SCT model needs a latency trace")
    try:
        report = prometheus_capacity(store, intervals, params.to_engine())
    except ValueError as error:
        raise LogInputError("unusable_data", str(error)) from error
    return RESULT_KIND, capacity_document(report)


def _inputs(session: Session, job_id: int) -> Inputs:
    analysis = derived.row_of_job(session, Analysis, job_id, "analysis")
    dataset = session.get(Dataset, analysis.dataset_id)
    if dataset is not None and dataset.format == sources.FORMAT:
        try:
            result = sources.interval_result(session, dataset.id, str(dataset.status))
        except DatasetNotReady as error:
            raise LogInputError("dataset_not_ready", str(error)) from error
        return Inputs(dataset.id, params_of(analysis), list(result.table_keys), result)
    ingested = ingest_result(session, analysis.dataset_id)
    if ingested is None:
        raise LogInputError("dataset_not_ready", "the dataset has no request table yet")
    return Inputs(analysis.dataset_id, params_of(analysis), list(ingested.table_keys))
