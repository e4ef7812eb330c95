from typing import Annotated

from fastapi import APIRouter, Body, Query, Response
from fastapi.responses import JSONResponse
from pydantic.json_schema import JsonSchemaValue

from headroom.api.deps import (
    CurrentPrincipal,
    EditorAccess,
    SessionDep,
    SettingsDep,
    ViewerAccess,
)
from headroom.characterizations import service
from headroom.characterizations.schemas import (
    CharacterizationIn,
    CharacterizationOut,
    CharacterizationPage,
    DatasetRulesOut,
    ModelScenarioIn,
    Rules,
    RulesSaved,
)
from headroom.core.ids import Id
from headroom.jobs import derived
from headroom.simulations.scenario_json import ScenarioJson

router = APIRouter(tags=["characterizations"])


@derived.create_route(
    router,
    "/datasets/{dataset_id}/characterizations",
    CharacterizationOut,
    "Same rules: the existing one",
    {403: "forbidden: rules of one's own need the editor role"},
)
def create_characterization(
    dataset_id: Id,
    response: Response,
    principal: ViewerAccess,
    session: SessionDep,
    settings: SettingsDep,
    body: Annotated[CharacterizationIn | None, Body()] = None,
) -> CharacterizationOut:
    """The characterization of the dataset (or of a slice: a range and filters) under the
    given rules, or the dataset's stored ones. Under the stored rules it is derived,
    read-only data of what the caller may read, so a viewer may ask for it too (it is
    found or made once for everyone); other rules need an editor."""
    rules = body.rules if body is not None else None
    part = body.slice if body is not None else None
    item, started = service.start(session, principal, settings, dataset_id, rules, part)
    derived.answer(response, started, f"/api/v1/characterizations/{item.id}")
    return service.to_out(session, item)


@router.get("/datasets/{dataset_id}/characterizations", response_model=CharacterizationPage)
def list_characterizations(
    dataset_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> CharacterizationPage:
    return service.list_page(session, principal, dataset_id, limit, offset)


@router.get(
    "/datasets/{dataset_id}/characterization",
    response_model=CharacterizationOut,
    responses={404: {"description": "not_found: none under the dataset's rules yet"}},
)
def get_current_characterization(
    dataset_id: Id, principal: CurrentPrincipal, session: SessionDep
) -> CharacterizationOut:
    """The characterization under the dataset's stored (or default) rules."""
    return service.to_out(session, service.current(session, principal, dataset_id))


@router.get("/datasets/{dataset_id}/rules", response_model=DatasetRulesOut)
def get_rules(dataset_id: Id, principal: CurrentPrincipal, session: SessionDep) -> DatasetRulesOut:
    """The classification rules stored for the dataset (the defaults until saved)."""
    return service.rules_out(session, principal, dataset_id)


@router.put(
    "/datasets/{dataset_id}/rules",
    response_model=RulesSaved,
    responses={
        409: {"description": "dataset_not_ready: the dataset has not been ingested"},
        422: {"description": "validation_error naming the field, e.g. request.rules.0.clients"},
    },
)
def put_rules(
    dataset_id: Id,
    rules: Rules,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> RulesSaved:
    """Store the rules and characterize the dataset under them (a job unless done)."""
    item = service.save_rules_and_start(session, principal, settings, dataset_id, rules)
    return RulesSaved(
        rules=service.rules_out(session, principal, dataset_id),
        characterization=service.to_out(session, item),
    )


@router.get("/characterizations/{item_id}", response_model=CharacterizationOut)
def get_characterization(
    item_id: Id, principal: CurrentPrincipal, session: SessionDep
) -> CharacterizationOut:
    return service.to_out(session, service.get_visible(session, principal, item_id))


@router.get(
    "/characterizations/{item_id}/model",
    responses={
        200: {"description": "The workload model document (download)"},
        404: {"description": "not_found, or not_ready while the job has not succeeded"},
    },
)
def download_model(item_id: Id, principal: CurrentPrincipal, session: SessionDep) -> JSONResponse:
    item = service.get_visible(session, principal, item_id)
    disposition = f'attachment; filename="workload-model-{item.dataset_id}-{item.id}.json"'
    return JSONResponse(
        service.model_of(session, item).model_dump(mode="json"),
        headers={"Content-Disposition": disposition},
    )


@router.get("/characterizations/rules/schema")
def get_rules_schema(principal: CurrentPrincipal) -> JsonSchemaValue:
    """The JSON Schema of classification rules."""
    return service.rules_json_schema()


@router.get("/characterizations/model/schema")
def get_model_schema(principal: CurrentPrincipal) -> JsonSchemaValue:
    """The JSON Schema of the workload model document (versioned)."""
    return service.model_json_schema()


@router.post(
    "/characterizations/model/scenario",
    responses={
        200: {"description": "The scenario document (`headroom simulate` input)"},
        422: {"description": "validation_error naming the field, e.g. model.classes.0.share"},
    },
)
def scenario_from_model(  # the scenario document is the simulations domain's
    body: ModelScenarioIn, principal: CurrentPrincipal
) -> ScenarioJson:
    """A simulation scenario from a workload model document (downloaded, perhaps edited):
    its class profiles, page shapes and service times on the reference cluster."""
    return service.scenario_from_model(body.model, body.duration_s)


@router.get("/characterizations/rules/default", response_model=Rules)
def get_default_rules(principal: CurrentPrincipal) -> Rules:
    """The rules a characterization applies when none are given."""
    return service.default_rules_of()
