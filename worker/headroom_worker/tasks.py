"""Thin Celery tasks: take ids, hand the work to services, map errors to job states."""

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from celery import Task, chord, group

from headroom.alerts import delivery
from headroom.alerts.evaluation import evaluate_after_ingest
from headroom.alerts.weekly import queue_weekly_reports
from headroom.analyses.run import capacity_body
from headroom.core.queue import result_backend
from headroom.core.settings import get_settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.followup import queue_characterization
from headroom.datasets.ingest_outputs import mark_failed
from headroom.datasets.ingest_ranges import (
    ByteRange,
    PreparedJson,
    RangeOutcomeJson,
    merge,
    parse_range,
    plan_ranges,
    prepared_to_dict,
)
from headroom.engine.logs import LogInputError
from headroom.jobs import outbox
from headroom.jobs.progress import ProgressReporter
from headroom.jobs.runner import TRANSIENT, Heartbeat, JobContext, run_job
from headroom.jobs.service import JobLost
from headroom.simulations.run import Plan, guarded, run_inline, run_point
from headroom.simulations.run import fail as fail_simulation
from headroom.simulations.run import merge as merge_sweep
from headroom.sources.imports import import_body
from headroom.sources.schedule import refresh_due
from headroom_worker.app import app

log = logging.getLogger(__name__)
T = TypeVar("T")

# a chord's part: its result feeds the merge; a transient failure retries it with backoff
CHORD_PART: dict[str, Any] = {
    "ignore_result": False,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "max_retries": 5,
}


def _leased(call: Callable[..., T], job_id: int, worker: str, *args: Any) -> T:
    """A chord part's work, its job's lease renewed while it runs."""
    settings = get_settings()
    with Heartbeat(JobContext(settings, job_id, worker)):
        return call(settings, job_id, worker, *args)


@app.task(name="logs.ingest", bind=True, max_retries=None)
def ingest_log(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, _ingest, on_transient=retry)


def _ingest(context: JobContext) -> None:
    settings = context.settings
    prepared = ingest.prepare(settings, context.job_id, context.worker)
    if not ingest.fans_out(settings, prepared):
        report = ProgressReporter(settings, context.job_id, context.worker)
        ingest.run_sequential(settings, prepared, context.job_id, context.worker, report)
        characterize_after_ingest(prepared.dataset_id)
        return
    store = open_store(settings.resolved_storage_url())
    ranges = plan_ranges(store, prepared.key, prepared.size_bytes, settings.ingest_chunk_bytes)
    payload = prepared_to_dict(prepared)
    args = (context.job_id, context.worker, payload)
    header = group(ingest_range.s(*args, [r.index, r.start, r.end]) for r in ranges)
    chord(header)(ingest_merge.s(*args).on_error(ingest_failed.s(context.job_id, context.worker)))


@app.task(name="logs.ingest_range", **CHORD_PART)
def ingest_range(
    job_id: int, worker: str, prepared: PreparedJson, bounds: list[int]
) -> RangeOutcomeJson:
    return _leased(parse_range, job_id, worker, prepared, ByteRange(*bounds))


@app.task(name="logs.ingest_merge", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def ingest_merge(
    outcomes: list[RangeOutcomeJson], job_id: int, worker: str, prepared: PreparedJson
) -> None:
    settings = get_settings()
    try:
        with Heartbeat(JobContext(settings, job_id, worker)):  # a large file merges for minutes
            merge(settings, job_id, worker, prepared, outcomes)
        characterize_after_ingest(prepared["dataset_id"])
    except JobLost:
        return
    except LogInputError as error:
        mark_failed(settings, job_id, error.code, error.message, worker)


@app.task(name="logs.ingest_failed")
def ingest_failed(
    request: Any, exc: BaseException, traceback: Any, job_id: int, worker: str
) -> None:
    """A part failed for good: the job fails (unless it already went to another worker).
    Celery passes (request, exc, traceback) first, then the signature's own arguments."""
    if isinstance(exc, JobLost):
        return
    mark_failed(
        get_settings(),
        job_id,
        "internal_error",
        f"a part of the log failed: {type(exc).__name__}: {exc}",
        worker,
    )


@app.task(name="capacity.analyze", bind=True, max_retries=None)
def analyze_capacity(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, capacity_body, on_transient=retry)


@app.task(name="sim.run", bind=True, max_retries=None)
def simulate(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, _simulate, on_transient=retry)


def _simulate(context: JobContext) -> None:
    guarded(context, lambda plan: _simulate_plan(context, plan))


def _simulate_plan(context: JobContext, plan: Plan) -> None:
    """One run here; a sweep fans out, one task per run, merged by a chord (without a
    result backend, as on the embedded filesystem broker, its runs go one after another
    in this task)."""
    if plan.sweep is None or result_backend(context.settings) is None:
        run_inline(context, plan)
        return
    args = (context.job_id, context.worker)
    header = group(simulate_point.s(*args, index) for index in range(len(plan.points())))
    chord(header)(simulate_merge.s(*args).on_error(simulate_failed.s(*args)))


@app.task(name="sim.run_point", **CHORD_PART)
def simulate_point(job_id: int, worker: str, index: int) -> dict[str, Any]:
    return _leased(run_point, job_id, worker, index)


@app.task(name="sim.merge", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def simulate_merge(rows: list[dict[str, Any]], job_id: int, worker: str) -> None:
    try:
        merge_sweep(get_settings(), job_id, worker, rows)
    except JobLost:
        return


@app.task(name="sim.failed")
def simulate_failed(
    request: Any, exc: BaseException, traceback: Any, job_id: int, worker: str
) -> None:
    """A run failed for good (or its job was cancelled): the job fails unless it is no
    longer this worker's running job. Celery prepends (request, exc, traceback) to the
    signature's own arguments."""
    fail_simulation(
        get_settings(),
        job_id,
        worker,
        "internal_error",
        f"a run of the sweep failed: {type(exc).__name__}: {exc}",
    )


@app.task(name="workload.characterize", bind=True, max_retries=None)
def characterize_workload(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, _characterize, on_transient=retry)


def _characterize(context: JobContext) -> None:
    """The plan here, then one task per share of the table spilling and counting it, in a
    chord whose callback makes the scan of the shares' counts and starts one task per
    partition of clients and the reduce in a second chord
    (without a result backend, as on the filesystem broker, all of it in this task)."""
    from headroom.characterizations import parts
    from headroom.characterizations.run import guarded

    def work() -> None:
        if result_backend(context.settings) is None:
            parts.run_inline(context.settings, context.job_id, context.worker)
            return
        planned = parts.plan(context.settings, context.job_id, context.worker)
        args = (context.job_id, context.worker)
        if planned.shares == 0:
            _map_chord(*args, planned.parts)
            return
        header = group(characterize_spill.s(*args, share) for share in range(planned.shares))
        maps = characterize_maps.s(*args, planned.parts)
        chord(header)(maps.on_error(characterize_failed.s(*args)))

    guarded(context, work)


def _map_chord(job_id: int, worker: str, partitions: int) -> None:
    args = (job_id, worker)
    header = group(characterize_part.s(*args, index) for index in range(partitions))
    chord(header)(characterize_merge.s(*args).on_error(characterize_failed.s(*args)))


@app.task(name="workload.characterize_spill", **CHORD_PART)
def characterize_spill(job_id: int, worker: str, share: int) -> dict[str, Any]:
    from headroom.characterizations import parts

    return _leased(parts.spill_one, job_id, worker, share)


@app.task(
    name="workload.characterize_maps", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5
)
def characterize_maps(
    outcomes: list[dict[str, Any]], job_id: int, worker: str, partitions: int
) -> None:
    """The spill chord's callback: every share is spilled (and counted), the scan is
    made of the shares' partials, the maps can read their pieces."""
    from headroom.characterizations import parts

    _leased(parts.scan_shares, job_id, worker)
    _map_chord(job_id, worker, partitions)


@app.task(name="workload.characterize_part", **CHORD_PART)
def characterize_part(job_id: int, worker: str, index: int) -> dict[str, Any]:
    from headroom.characterizations import parts

    return _leased(parts.map_one, job_id, worker, index)


@app.task(
    name="workload.characterize_merge", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5
)
def characterize_merge(outcomes: list[dict[str, Any]], job_id: int, worker: str) -> None:
    from headroom.characterizations import parts
    from headroom.jobs.derived import fail

    settings = get_settings()
    try:
        with Heartbeat(JobContext(settings, job_id, worker)):
            parts.reduce_parts(settings, job_id, worker)
    except JobLost:
        return
    except LogInputError as error:
        fail(settings, job_id, worker, error.code, error.message)


@app.task(name="workload.characterize_failed")
def characterize_failed(
    request: Any, exc: BaseException, traceback: Any, job_id: int, worker: str
) -> None:
    """A part failed for good: the job fails (unless it already went to another worker).
    Celery passes (request, exc, traceback) first, then the signature's own arguments."""
    from headroom.jobs.derived import fail

    if isinstance(exc, JobLost):
        return
    code, message = "internal_error", f"a part of the characterization failed: {exc}"
    if isinstance(exc, LogInputError):
        code, message = exc.code, exc.message
    fail(get_settings(), job_id, worker, code, message)


def characterize_after_ingest(dataset_id: int) -> None:
    """The link after an ingest (sequential, or the chord's merge): evaluate the dataset's
    alert rules, and characterize the new dataset under its rules, so its workload tabs
    fill in with no extra click."""
    settings = get_settings()
    evaluate_after_ingest(settings, dataset_id)
    job_id = queue_characterization(settings, dataset_id)
    if job_id is None:
        return
    try:
        characterize_workload.apply_async(args=[job_id], retry=False)
    except Exception:  # the broker is gone: the job waits in the outbox for the reaper
        log.warning("characterization job %s left in the outbox", job_id, exc_info=True)
        return
    outbox.sent(settings, job_id)


@app.task(name="sources.prometheus_import", bind=True, max_retries=None)
def import_prometheus(self: Task, job_id: int) -> None:
    def retry(error: Exception, attempts: int) -> None:
        raise self.retry(exc=error, countdown=min(2**attempts, 300))

    run_job(get_settings(), job_id, import_body, on_transient=retry)


@app.task(name="sources.refresh_due")
def refresh_sources() -> list[int]:
    """The schedule's tick: queue an import for every source due a refresh."""
    return refresh_due(get_settings())


@app.task(name="alerts.deliver", bind=True, max_retries=None)
def deliver_alert(self: Task, delivery_id: int) -> None:
    """One delivery; a failure is retried with backoff, and after the last retry the
    delivery is marked failed (alerts/delivery.py)."""
    settings = get_settings()
    retries = self.request.retries or 0
    final = retries >= settings.alert_max_retries
    if not delivery.attempt(settings, delivery_id, final):
        raise self.retry(countdown=delivery.backoff_s(settings, retries))


@app.task(name="alerts.weekly_report")
def weekly_report() -> list[int]:
    return queue_weekly_reports(get_settings())
