"""The `capacity.analyze` job: read the dataset's request table, run the capacity engine
(knee curves and SLA targets, or SCT on a latency trace, by the analysis' kind), store the
report as the job's Result. Idempotent: a retry replaces its own Result.

Bad input (no latencies, too short a log) fails the job once with a stable code; it never
touches the dataset's status, which belongs to the ingest job."""

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from headroom.analyses import repository
from headroom.analyses.documents import AnalysisReport, capacity_document, sct_document
from headroom.analyses.schemas import CapacityParamsIn, SctParamsIn
from headroom.analyses.service import params_of
from headroom.analyses.tables import scan_for_capacity, scan_for_sct
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.service import ingest_result
from headroom.datasets.slices import where_of
from headroom.engine.capacity import analyze, analyze_trace
from headroom.engine.logs import LogInputError
from headroom.jobs import service as job_service
from headroom.jobs.runner import TRANSIENT, JobContext

log = logging.getLogger(__name__)
RESULT_KIND = "capacity_report"
SCT_RESULT_KIND = "sct_report"


@dataclass(frozen=True)
class Inputs:
    dataset_id: int
    params: CapacityParamsIn | SctParamsIn
    table_keys: list[str]


def capacity_body(context: JobContext) -> None:
    """The job body for jobs.runner.run_job; input errors end the job here, so the
    runner's dataset-level failure handling never marks the dataset failed."""
    try:
        run(context.settings, context.job_id, context.worker)
    except (job_service.JobLost, *TRANSIENT):
        raise
    except LogInputError as error:
        _fail(context, error.code, error.message)
    except Exception as error:
        log.exception("analysis job %s failed", context.job_id)
        _fail(context, "internal_error", f"unexpected error: {type(error).__name__}: {error}")


def run(settings: Settings, job_id: int, worker: str) -> None:
    url = settings.resolved_database_url()
    store = open_store(settings.resolved_storage_url())
    with session_scope(url) as session:
        inputs = _inputs(session, job_id)
        job_service.report(session, job_id, worker, 0.0, "loading", None)
    with session_scope(url) as session:
        job_service.report(session, job_id, worker, 0.3, "analysing", None)
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


def _inputs(session: Session, job_id: int) -> Inputs:
    analysis = repository.by_job(session, job_id)
    if analysis is None:
        raise LookupError(f"the analysis of job {job_id} vanished")
    ingested = ingest_result(session, analysis.dataset_id)
    if ingested is None:
        raise LogInputError("dataset_not_ready", "the dataset has no request table yet")
    return Inputs(analysis.dataset_id, params_of(analysis), list(ingested.table_keys))


def _fail(context: JobContext, code: str, message: str) -> None:
    with session_scope(context.settings.resolved_database_url()) as session:
        job_service.fail_owned(session, context.job_id, context.worker, code, message)
