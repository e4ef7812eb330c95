from typing import Annotated, Any

from fastapi import APIRouter, Query

from headroom.core.deps import CurrentPrincipal, SessionDep, SettingsDep
from headroom.core.queue import enqueue
from headroom.engine.sim import scenario_json_schema
from headroom.simulations import service
from headroom.simulations.schemas import SimulationIn, SimulationOut, SimulationPage

router = APIRouter(prefix="/simulations", tags=["simulations"])


@router.post("", response_model=SimulationOut, status_code=201)
def create_simulation(
    body: SimulationIn, principal: CurrentPrincipal, session: SessionDep, settings: SettingsDep
) -> SimulationOut:
    simulation, job = service.create(session, principal, body)
    session.commit()
    enqueue(settings, service.SIM_TASK, job.id)
    return service.to_out(session, simulation)


@router.get("", response_model=SimulationPage)
def list_simulations(
    principal: CurrentPrincipal,
    session: SessionDep,
    workspace_id: int | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> SimulationPage:
    return service.list_page(session, principal, workspace_id, limit, offset)


@router.get("/schema", response_model=dict[str, Any])
def simulation_schema(_: CurrentPrincipal) -> dict[str, Any]:
    """The JSON Schema of the scenario document."""
    return scenario_json_schema()


@router.get("/{simulation_id}", response_model=SimulationOut)
def get_simulation(
    simulation_id: int, principal: CurrentPrincipal, session: SessionDep
) -> SimulationOut:
    return service.to_out(session, service.get_visible(session, principal, simulation_id))


@router.post(
    "/{simulation_id}/cancel",
    response_model=SimulationOut,
    responses={409: {"description": "job_finished: the job had already ended"}},
)
def cancel_simulation(
    simulation_id: int, principal: CurrentPrincipal, session: SessionDep
) -> SimulationOut:
    simulation = service.cancel(session, principal, simulation_id)
    session.commit()
    return service.to_out(session, simulation)
