"""Alert rules of a dataset, delivery channels of a workspace, evaluations and tests
(docs/alerts.md). Viewers read; editors and owners change, evaluate and test."""

from typing import Annotated

from fastapi import APIRouter, Query, Response

from headroom.alerts import service
from headroom.alerts.schemas import (
    ChannelCreated,
    ChannelIn,
    ChannelOut,
    ChannelUpdate,
    DeliveryOut,
    EvaluationOut,
    EvaluationPage,
    RuleIn,
    RuleOut,
    RuleUpdate,
)
from headroom.api.deps import EditorAccess, SessionDep, SettingsDep, ViewerAccess
from headroom.core.ids import Id

router = APIRouter(tags=["alerts"])
CHANNELS = "/workspaces/{workspace_id}/alert-channels"


@router.get("/datasets/{dataset_id}/alert-rules", response_model=list[RuleOut])
def list_rules(dataset_id: Id, principal: ViewerAccess, session: SessionDep) -> list[RuleOut]:
    return service.list_rules(session, principal, dataset_id)


@router.post("/datasets/{dataset_id}/alert-rules", response_model=RuleOut, status_code=201)
def create_rule(
    dataset_id: Id, body: RuleIn, principal: EditorAccess, session: SessionDep
) -> RuleOut:
    rule = service.create_rule(session, principal, dataset_id, body)
    return service.rule_outs(session, [rule])[0]


@router.post("/datasets/{dataset_id}/alert-rules/evaluate", response_model=list[EvaluationOut])
def evaluate_now(
    dataset_id: Id, principal: EditorAccess, session: SessionDep, settings: SettingsDep
) -> list[EvaluationOut]:
    """Evaluates every enabled rule of the dataset now; a rule that fires is delivered."""
    made = service.evaluate_now(session, settings, principal, dataset_id)
    return service.evaluation_outs(session, made)


@router.patch("/alert-rules/{rule_id}", response_model=RuleOut)
def update_rule(
    rule_id: Id, body: RuleUpdate, principal: EditorAccess, session: SessionDep
) -> RuleOut:
    rule = service.update_rule(session, principal, rule_id, body)
    return service.rule_outs(session, [rule])[0]


@router.delete("/alert-rules/{rule_id}", status_code=204)
def delete_rule(rule_id: Id, principal: EditorAccess, session: SessionDep) -> Response:
    service.delete_rule(session, principal, rule_id)
    return Response(status_code=204)


@router.get("/alert-rules/{rule_id}/evaluations", response_model=EvaluationPage)
def list_evaluations(
    rule_id: Id,
    principal: ViewerAccess,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> EvaluationPage:
    """The rule's evaluations, newest first, with the deliveries each queued."""
    return service.history(session, principal, rule_id, limit, offset)


@router.get(CHANNELS, response_model=list[ChannelOut])
def list_channels(
    workspace_id: Id, principal: ViewerAccess, session: SessionDep
) -> list[ChannelOut]:
    return service.list_channels(session, principal, workspace_id)


@router.post(CHANNELS, response_model=ChannelCreated, status_code=201)
def create_channel(
    workspace_id: Id, body: ChannelIn, principal: EditorAccess, session: SessionDep
) -> ChannelCreated:
    """A webhook channel's signing secret is in this answer only."""
    return service.create_channel(session, principal, workspace_id, body)


@router.patch(CHANNELS + "/{channel_id}", response_model=ChannelOut)
def update_channel(
    workspace_id: Id,
    channel_id: Id,
    body: ChannelUpdate,
    principal: EditorAccess,
    session: SessionDep,
) -> ChannelOut:
    return service.update_channel(session, principal, workspace_id, channel_id, body)


@router.delete(CHANNELS + "/{channel_id}", status_code=204)
def delete_channel(
    workspace_id: Id, channel_id: Id, principal: EditorAccess, session: SessionDep
) -> Response:
    service.delete_channel(session, principal, workspace_id, channel_id)
    return Response(status_code=204)


@router.post(CHANNELS + "/{channel_id}/test", response_model=DeliveryOut, status_code=202)
def test_channel(
    workspace_id: Id,
    channel_id: Id,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> DeliveryOut:
    """Queues a test message; its status shows on the channel (last_delivery)."""
    delivery = service.test_channel(session, settings, principal, workspace_id, channel_id)
    return service.delivery_out(delivery, {})
