"""Simulations: create (the scenario and any sweep validated by the engine), list, read,
cancel."""

from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.errors import HeadroomError, InvalidInput, NotFound
from headroom.datasets.service import resolve_workspace
from headroom.jobs import repository as job_repository
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.schemas import JobOut
from headroom.simulations import repository, scenarios, summaries, sweep
from headroom.simulations.models import SimulationRun
from headroom.simulations.schemas import SimulationIn, SimulationOut, SimulationPage, SweepIn
from headroom.workspaces.models import Role

SIM_TASK = "sim.run"
CANCELLABLE = frozenset({JobStatus.queued, JobStatus.running})


class AlreadyFinished(HeadroomError):
    status_code, code = 409, "job_finished"


def validate(body: SimulationIn) -> None:
    """422 naming the field path (``scenario.<path>`` or ``sweep...``) on a bad document."""
    scenarios.check(body.scenario)
    if body.sweep is not None:
        try:
            sweep.validate(body.scenario, body.sweep.model_dump(mode="json"))
        except sweep.SweepError as error:
            raise InvalidInput("validation_error", str(error), field=error.field) from None


def create(session: Session, principal: Principal, body: SimulationIn) -> tuple[SimulationRun, Job]:
    workspace_id = resolve_workspace(principal, body.workspace_id)
    principal.require(workspace_id, Role.editor)
    validate(body)
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


def to_out(session: Session, simulation: SimulationRun, with_result: bool = True) -> SimulationOut:
    job = session.get(Job, simulation.job_id) if simulation.job_id else None
    result = None
    if job is not None and job.status == JobStatus.succeeded:
        stored = job_repository.result_for_job(session, job.id)
        result = stored.document if stored is not None else None
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
