from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic.json_schema import JsonSchemaValue

from headroom.api.deps import CurrentPrincipal, EditorAccess, SessionDep, SettingsDep, StoreDep
from headroom.core.ids import Id, Index
from headroom.simulations import scenarios, service
from headroom.simulations.schemas import (
    Preset,
    SavedScenarioIn,
    SavedScenarioList,
    SavedScenarioOut,
    SavedScenarioUpdate,
    ScenarioCheck,
    SimulationIn,
    SimulationOut,
    SimulationPage,
    SweepRunOut,
)

router = APIRouter(prefix="/simulations", tags=["simulations"])


@router.post(
    "",
    response_model=SimulationOut,
    status_code=202,
    response_description="Queued: its job runs in the background; Location names the run",
)
def create_simulation(
    body: SimulationIn,
    response: Response,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> SimulationOut:
    simulation = service.start(session, principal, settings, body)
    response.headers["Location"] = f"/api/v1/simulations/{simulation.id}"
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


@router.get("/schema", response_model=JsonSchemaValue)
def simulation_schema(_: CurrentPrincipal) -> JsonSchemaValue:
    """The JSON Schema of the scenario document."""
    return service.scenario_json_schema()


@router.post(
    "/schema/check",
    status_code=204,
    responses={422: {"description": "validation_error; `field` is the offending path"}},
)
def check_scenario(body: ScenarioCheck, principal: CurrentPrincipal, session: SessionDep) -> None:
    """Validates a scenario document without running it (the editor's live check), its
    dataset references included (datasets of the workspace, with response times for an
    empirical distribution), as submitting it would."""
    scenarios.check(body.scenario)
    scenarios.check_datasets(session, principal, body.scenario, body.workspace_id)


@router.get("/presets", response_model=list[Preset])
def list_presets(_: CurrentPrincipal) -> list[Preset]:
    return scenarios.presets()


@router.get(
    "/presets/datasets/{dataset_id}",
    response_model=Preset,
    responses={
        404: {
            "description": "not_found: no such dataset, or (model) no finished "
            "characterization; not_ready: (replay) the dataset is not ingested yet"
        }
    },
)
def dataset_preset(
    dataset_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    source: Annotated[
        Literal["model", "replay", "class_policies", "virtual_queue"],
        Query(
            description="model: the workload model of its newest finished characterization; "
            "replay: its logged requests (`arrivals: {dataset}`), service times resampled "
            "from its response times (`{dist: empirical, dataset}`); class_policies / "
            "virtual_queue: a policy page's scenario from the characterization (hourly "
            "rates scaled to the policy's load, the scaling in the description)"
        ),
    ] = "model",
) -> Preset:
    """A scenario from the dataset: its workload model, a replay of its requests, or a
    policy page's scenario built from its characterization."""
    if source == "replay":
        return scenarios.dataset_replay_preset(session, principal, dataset_id)
    if source == "model":
        return scenarios.dataset_preset(session, principal, dataset_id)
    return scenarios.dataset_policy_preset(session, principal, dataset_id, source)


@router.get("/scenarios", response_model=SavedScenarioList)
def list_saved(
    principal: CurrentPrincipal, session: SessionDep, workspace_id: int | None = None
) -> SavedScenarioList:
    rows = scenarios.list_visible(session, principal, workspace_id)
    return SavedScenarioList(items=[SavedScenarioOut.model_validate(row) for row in rows])


@router.post(
    "/scenarios",
    response_model=SavedScenarioOut,
    status_code=201,
    responses={409: {"description": "name_taken: the workspace has a scenario of that name"}},
)
def save_scenario(
    body: SavedScenarioIn, principal: EditorAccess, session: SessionDep
) -> SavedScenarioOut:
    saved = scenarios.create(session, principal, body)  # SessionDep commits before the answer
    return SavedScenarioOut.model_validate(saved)


@router.get("/scenarios/{scenario_id}", response_model=SavedScenarioOut)
def get_saved(
    scenario_id: Id, principal: CurrentPrincipal, session: SessionDep
) -> SavedScenarioOut:
    return SavedScenarioOut.model_validate(scenarios.get_visible(session, principal, scenario_id))


@router.patch(
    "/scenarios/{scenario_id}",
    response_model=SavedScenarioOut,
    responses={409: {"description": "name_taken: the workspace has a scenario of that name"}},
)
def update_saved(
    scenario_id: Id, body: SavedScenarioUpdate, principal: EditorAccess, session: SessionDep
) -> SavedScenarioOut:
    saved = scenarios.update(session, principal, scenario_id, body)
    return SavedScenarioOut.model_validate(saved)


@router.delete("/scenarios/{scenario_id}", status_code=204)
def delete_saved(scenario_id: Id, principal: EditorAccess, session: SessionDep) -> None:
    scenarios.delete(session, principal, scenario_id)


@router.get("/{simulation_id}", response_model=SimulationOut)
def get_simulation(
    simulation_id: Id, principal: CurrentPrincipal, session: SessionDep
) -> SimulationOut:
    return service.to_out(session, service.get_visible(session, principal, simulation_id))


@router.post(
    "/{simulation_id}/cancel",
    response_model=SimulationOut,
    responses={409: {"description": "job_finished: the job had already ended"}},
)
def cancel_simulation(
    simulation_id: Id, principal: EditorAccess, session: SessionDep
) -> SimulationOut:
    simulation = service.cancel(session, principal, simulation_id)
    return service.to_out(session, simulation)


@router.get(
    "/{simulation_id}/runs/{index}",
    response_model=SweepRunOut,
    responses={
        404: {
            "description": "not_found (no such sweep or run), not_ready (the sweep has not "
            "finished), run_not_stored (a sweep from before runs were kept)"
        }
    },
)
def get_sweep_run(
    simulation_id: Id,
    index: Index,
    principal: CurrentPrincipal,
    session: SessionDep,
    store: StoreDep,
) -> SweepRunOut:
    """One run of a sweep, with its full stored result (opened from the frontier)."""
    return service.sweep_run(session, store, principal, simulation_id, index)
