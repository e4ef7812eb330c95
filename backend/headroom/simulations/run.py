"""The `sim.run` job: run the scenario (or each point of its sweep) with the engine and
store the result document. Idempotent: a retry replaces its own Result.

Progress is the simulated fraction done; every report checks the job is still ours and
still running, so a cancelled job stops at its next report (SimulationCancelled)."""

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import StorageError, open_store
from headroom.engine.sim import ScenarioError, Simulation
from headroom.jobs import derived
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.progress import ProgressReporter, part_done
from headroom.jobs.runner import Heartbeat, JobContext
from headroom.simulations import documents, references, repository, stored_runs, sweep
from headroom.simulations.result_models import (
    RunDocument,
    SweepDocument,
    SweepRow,
    SweepValue,
    stored,
)
from headroom.simulations.scenario_json import ScenarioJson, SweepJson

log = logging.getLogger(__name__)
RUN_KIND, SWEEP_KIND = "simulation_run", "simulation_sweep"
CHECK_INTERVAL_S = 1.0  # how often a sweep part checks its job was not cancelled


class SimulationCancelled(job_service.JobLost):
    """The job was cancelled while the simulation ran."""


# the errors a run's input causes, and the store's, by the code its job fails with
FAILURES: dict[type[Exception], str] = {
    ScenarioError: "invalid_scenario",
    sweep.SweepError: "invalid_scenario",
    KeyError: "invalid_scenario",
    StorageError: "storage_error",
}


@dataclass(frozen=True)
class Plan:
    scenario: ScenarioJson
    seed: int | None
    sweep: SweepJson | None
    workspace_id: int | None = None  # whose datasets the scenario may refer to

    def points(self) -> list[dict[str, SweepValue]]:
        return sweep.points(self.sweep) if self.sweep else []


def simulation_body(context: JobContext) -> None:
    """In-process body for jobs.runner.run_job: one run, or a sweep's runs one after another
    (a worker with a result backend fans a sweep out instead, see headroom_worker.tasks)."""
    guarded(context, lambda plan: run_inline(context, plan))


def guarded(context: JobContext, work: Callable[[Plan], None]) -> None:
    """Loads the plan and runs ``work(plan)`` under the derived-result job guard
    (jobs.derived.guarded): a bad scenario or sweep fails the job as invalid_scenario, an
    unreadable store as storage_error, and a cancel stops it quietly."""

    def body() -> None:
        try:
            work(prepare(context.settings, context.job_id, context.worker))
        except SimulationCancelled:
            log.info("simulation job %s cancelled; stopped", context.job_id)

    derived.guarded(context, body, "simulation", FAILURES)


def run_inline(context: JobContext, plan: Plan) -> None:
    """One run, or a sweep's runs one after another, merged here."""
    if plan.sweep is None:
        run_single(context, plan)
        return
    rows = [
        run_point(context.settings, context.job_id, context.worker, i)
        for i in range(len(plan.points()))
    ]
    merge(context.settings, context.job_id, context.worker, rows)


def prepare(settings: Settings, job_id: int, worker: str) -> Plan:
    with session_scope(settings.resolved_database_url()) as session:
        simulation = repository.by_job(session, job_id)
        if simulation is None:
            raise LookupError(f"the simulation of job {job_id} vanished")
        job_service.report(session, job_id, worker, 0.0, "starting", None)
        return Plan(
            dict(simulation.scenario), simulation.seed, simulation.sweep, simulation.workspace_id
        )


def run_single(context: JobContext, plan: Plan) -> None:
    reporter = ProgressReporter(context.settings, context.job_id, context.worker)
    progress = _reporting(context.settings, context.job_id, reporter)
    result = simulation_of(context.settings, plan, plan.scenario).run(plan.seed, progress)
    _save(
        context.settings, context.job_id, context.worker, RUN_KIND, documents.run_document(result)
    )


def simulation_of(settings: Settings, plan: Plan, document: Mapping[str, Any]) -> Simulation:
    """The engine's runner for ``document``, with the datasets it refers to read from the
    workspace's request tables (ScenarioError naming the field if one is gone)."""
    limit = settings.max_sim_events
    if next(references.find(document), None) is None:
        return Simulation(document, max_events=limit)
    if plan.workspace_id is None:
        raise ScenarioError("workload: dataset references need the simulation's workspace")
    store = open_store(settings.resolved_storage_url())
    with session_scope(settings.resolved_database_url()) as session:
        resolved, arrays = references.resolve(session, store, plan.workspace_id, document)
    return Simulation(resolved, datasets=arrays, max_events=limit)


def _reporting(settings: Settings, job_id: int, reporter: ProgressReporter) -> Any:
    def progress(fraction: float) -> None:
        try:
            reporter(min(fraction, 0.99), "simulating")
        except job_service.JobLost:
            _raise_if_cancelled(settings, job_id)
            raise

    return progress


def run_point(settings: Settings, job_id: int, worker: str, index: int) -> dict[str, JsonValue]:
    """One run of a sweep (a Celery group member or an inline step): its row of the result,
    as JSON (a Celery result)."""
    with Heartbeat(JobContext(settings, job_id, worker)):
        check_owned(settings, job_id, worker)
        plan = prepare_part(settings, job_id)
        points = plan.points()
        try:
            document = plan.scenario
            for path, value in points[index].items():
                document = sweep.set_path(document, path, value)
            result = simulation_of(settings, plan, document).run(
                plan.seed, _checking(settings, job_id, worker)
            )
        except ScenarioError as error:  # the job fails with the reason; the chord ends it
            fail(settings, job_id, worker, "invalid_scenario", f"at {points[index]}: {error}")
            raise
        store = open_store(settings.resolved_storage_url())
        stored_runs.write(store, job_id, index, documents.run_document(result))
        part_done(settings, job_id, worker, index, 0.99 / len(points), "simulating")
    return stored(documents.sweep_row(index, points[index], documents.summary(result)))


def prepare_part(settings: Settings, job_id: int) -> Plan:
    with session_scope(settings.resolved_database_url()) as session:
        simulation = repository.by_job(session, job_id)
        if simulation is None:
            raise LookupError(f"the simulation of job {job_id} vanished")
        return Plan(
            dict(simulation.scenario), simulation.seed, simulation.sweep, simulation.workspace_id
        )


def _checking(settings: Settings, job_id: int, worker: str) -> Any:
    last = [time.monotonic()]

    def progress(_: float) -> None:
        if time.monotonic() - last[0] >= CHECK_INTERVAL_S:
            check_owned(settings, job_id, worker)
            last[0] = time.monotonic()

    return progress


def check_owned(settings: Settings, job_id: int, worker: str) -> None:
    try:
        with session_scope(settings.resolved_database_url()) as session:
            job_service.owned(session, job_id, worker)
    except job_service.JobLost:
        _raise_if_cancelled(settings, job_id)
        raise


def _raise_if_cancelled(settings: Settings, job_id: int) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is not None and job.status == JobStatus.cancelled:
            raise SimulationCancelled(f"job {job_id} was cancelled")


def merge(
    settings: Settings, job_id: int, worker: str, rows: Sequence[Mapping[str, JsonValue]]
) -> None:
    """The sweep's one Result: a row per run (the chord's callback, or inline), and the
    keys of the runs' stored documents in the order of the rows."""
    plan = prepare_part(settings, job_id)
    assert plan.sweep is not None
    typed = [SweepRow.model_validate(row) for row in rows]
    document = documents.sweep_document(sweep.axes(plan.sweep), typed)
    run_keys = stored_runs.keys(job_id, len(document.runs))
    _save(settings, job_id, worker, SWEEP_KIND, document, run_keys)


def _save(
    settings: Settings,
    job_id: int,
    worker: str,
    kind: str,
    document: RunDocument | SweepDocument,
    table_keys: list[str] | None = None,
) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job_service.save_result(session, job_id, worker, kind, stored(document), None, table_keys)


def fail(settings: Settings, job_id: int, worker: str, code: str, message: str) -> None:
    """Fail the job unless it is no longer ours (cancelled, or taken over)."""
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is None or job.status != JobStatus.running or job.worker != worker:
            return
        job_service.fail(session, job, code, message)
