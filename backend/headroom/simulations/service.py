"""Simulations: create (the scenario and any sweep validated by the engine), list, read,
cancel."""

from pydantic.json_schema import JsonSchemaValue
from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.errors import HeadroomError, InvalidInput, NotFound, NotReady
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore
from headroom.datasets.service import resolve_workspace
from headroom.engine.sim import scenario_json_schema as engine_scenario_schema
from headroom.jobs import outbox
from headroom.jobs import repository as job_repository
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.schemas import JobOut
from headroom.simulations import (
    references,
    repository,
    scenarios,
    stored_runs,
    summaries,
    sweep,
)
from headroom.simulations.models import SimulationRun
from headroom.simulations.result_models import RunDocument, SweepDocument, load_result
from headroom.simulations.schemas import (
    SimulationIn,
    SimulationOut,
    SimulationPage,
    SweepIn,
    SweepRunOut,
)
from headroom.workspaces.models import Role

SIM_TASK = "sim.run"
CANCELLABLE = frozenset({JobStatus.queued, JobStatus.running})


class AlreadyFinished(HeadroomError):
    status_code, code = 409, "job_finished"


class RunNotStored(HeadroomError):
    """A sweep finished before its runs' documents were kept (or they were removed)."""

    status_code, code = 404, "run_not_stored"


def scenario_json_schema() -> JsonSchemaValue:
    """The JSON Schema of the scenario document."""
    return engine_scenario_schema()


def validate(body: SimulationIn) -> None:
    """422 naming the field path (``scenario.<path>`` or ``sweep...``) on a bad document."""
    scenarios.check(body.scenario)
    if body.sweep is not None:
        try:
            sweep.validate(body.scenario, body.sweep.model_dump(mode="json"))
        except sweep.SweepError as error:
            raise InvalidInput("validation_error", str(error), field=error.field) from None


def check_datasets(session: Session, workspace_id: int, body: SimulationIn) -> None:
    """422 naming the field unless every dataset the scenario (or a run of its sweep)
    refers to is a ready dataset of the workspace."""
    references.check(session, workspace_id, body.scenario)
    if body.sweep is None:
        return
    for point in sweep.points(body.sweep.model_dump(mode="json", exclude_none=True)):
        document = body.scenario
        for path, value in point.items():
            document = sweep.set_path(document, path, value)
        references.check(session, workspace_id, references.normalised(document))


def create(session: Session, principal: Principal, body: SimulationIn) -> tuple[SimulationRun, Job]:
    workspace_id = resolve_workspace(principal, body.workspace_id)
    principal.require(workspace_id, Role.editor)
    body = body.model_copy(update={"scenario": references.normalised(body.scenario)})
    validate(body)
    check_datasets(session, workspace_id, body)
    job = job_service.create(session, workspace_id, SIM_TASK, None)
    simulation = SimulationRun(
        workspace_id=workspace_id,
        name=body.name,
        scenario=body.scenario,
        seed=body.seed,
        sweep=body.sweep.model_dump(mode="json", exclude_none=True) if body.sweep else None,
        job_id=job.id,
        created_by_id=principal.user.id,
    )
    session.add(simulation)
    session.flush()
    return simulation, job


def start(
    session: Session, principal: Principal, settings: Settings, body: SimulationIn
) -> SimulationRun:
    """`create`, its job started after the commit."""
    simulation, job = create(session, principal, body)
    outbox.start(session, settings, job)
    return simulation


def get_visible(session: Session, principal: Principal, simulation_id: int) -> SimulationRun:
    simulation = repository.visible(session, principal.workspace_ids, simulation_id)
    if simulation is None:
        raise NotFound(f"simulation {simulation_id} not found")
    return simulation


def list_page(
    session: Session, principal: Principal, workspace_id: int | None, limit: int, offset: int
) -> SimulationPage:
    scope = principal.workspace_ids
    if workspace_id is not None:
        principal.require(workspace_id, Role.viewer)
        scope = [workspace_id]
    rows, total = repository.page(session, scope, limit, offset)
    return SimulationPage(items=[to_out(session, s, with_result=False) for s in rows], total=total)


def cancel(session: Session, principal: Principal, simulation_id: int) -> SimulationRun:
    """The job becomes cancelled; a running body notices at its next progress report."""
    simulation = get_visible(session, principal, simulation_id)
    principal.require(simulation.workspace_id, Role.editor)
    job = session.get(Job, simulation.job_id) if simulation.job_id else None
    if job is None or job.status not in CANCELLABLE:
        status = job.status if job else "gone"
        raise AlreadyFinished(f"the simulation's job is {status}: nothing to cancel")
    job.status, job.stage, job.eta_s = JobStatus.cancelled, "cancelled", None
    job.worker, job.finished_at = None, job_service.now_utc()
    return simulation


def result_document(
    session: Session, simulation: SimulationRun
) -> RunDocument | SweepDocument | None:
    """The stored result of a simulation whose job succeeded, else None."""
    return _result(session, _job(session, simulation))


def _job(session: Session, simulation: SimulationRun) -> Job | None:
    return session.get(Job, simulation.job_id) if simulation.job_id else None


def _result(session: Session, job: Job | None) -> RunDocument | SweepDocument | None:
    if job is None or job.status != JobStatus.succeeded:
        return None
    stored = job_repository.result_for_job(session, job.id)
    return load_result(stored.document) if stored is not None else None


def to_out(session: Session, simulation: SimulationRun, with_result: bool = True) -> SimulationOut:
    job = _job(session, simulation)
    result = _result(session, job)
    creator = session.get(User, simulation.created_by_id) if simulation.created_by_id else None
    return SimulationOut(
        id=simulation.id,
        workspace_id=simulation.workspace_id,
        name=simulation.name,
        kind="sweep" if simulation.sweep else "run",
        scenario=simulation.scenario,
        seed=simulation.seed,
        sweep=SweepIn.model_validate(simulation.sweep) if simulation.sweep else None,
        created_at=simulation.created_at,
        created_by=UserRef.model_validate(creator) if creator else None,
        job=JobOut.model_validate(job) if job else None,
        summary=summaries.key_numbers(result) if result is not None else None,
        result=result if with_result else None,
    )


def sweep_run(
    session: Session, store: ObjectStore, principal: Principal, simulation_id: int, index: int
) -> SweepRunOut:
    """Run ``index`` of a finished sweep: its values, its scenario and its stored result."""
    simulation = get_visible(session, principal, simulation_id)
    if not simulation.sweep:
        raise NotFound(f"simulation {simulation_id} is a single run, not a sweep")
    points = sweep.points(simulation.sweep)
    if not 0 <= index < len(points):
        raise NotFound(f"the sweep has runs 0 to {len(points) - 1}, not {index}", field="index")
    job = session.get(Job, simulation.job_id) if simulation.job_id else None
    stored = job_repository.result_for_job(session, job.id) if job else None
    if job is None or job.status != JobStatus.succeeded or stored is None:
        raise NotReady(f"simulation {simulation_id} has not finished: its runs are not ready")
    document = stored_runs.read(store, stored.table_keys[index]) if stored.table_keys else None
    if document is None:
        raise RunNotStored(
            f"run {index} of simulation {simulation_id} was not kept (the sweep ran before "
            "runs were stored): simulate it again to see its charts"
        )
    scenario = dict(simulation.scenario)
    for path, value in points[index].items():
        scenario = sweep.set_path(scenario, path, value)
    return SweepRunOut(
        simulation_id=simulation.id,
        workspace_id=simulation.workspace_id,
        name=simulation.name,
        index=index,
        values=points[index],
        scenario=scenario,
        seed=simulation.seed,
        result=document,
    )
