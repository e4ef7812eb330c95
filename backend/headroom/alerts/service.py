"""Alerts: rules per dataset and channels per workspace (viewers read, editors and owners
change), evaluate now, test a channel, and the history of evaluations and deliveries."""

from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from headroom.alerts import repository
from headroom.alerts.dispatch import dispatch
from headroom.alerts.evaluation import evaluate_dataset
from headroom.alerts.models import (
    AlertChannel,
    AlertDelivery,
    AlertEvaluation,
    AlertRule,
    ChannelKind,
    RuleKind,
)
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
from headroom.auth.principal import Principal
from headroom.core.errors import InvalidInput, NotFound
from headroom.core.security import new_token
from headroom.core.settings import Settings
from headroom.datasets import service as dataset_service
from headroom.workspaces.models import Role

# --- rules


def list_rules(session: Session, principal: Principal, dataset_id: int) -> list[RuleOut]:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    return rule_outs(session, repository.rules_for_dataset(session, dataset.id))


def create_rule(session: Session, principal: Principal, dataset_id: int, body: RuleIn) -> AlertRule:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    rule = AlertRule(
        workspace_id=dataset.workspace_id,
        dataset_id=dataset.id,
        name=body.name.strip(),
        kind=body.kind,
        threshold=body.threshold,
        channel_ids=_own_channels(session, dataset.workspace_id, body.channel_ids),
        enabled=body.enabled,
        created_by_id=principal.user.id,
    )
    session.add(rule)
    session.commit()
    return rule


def get_rule(session: Session, principal: Principal, rule_id: int) -> AlertRule:
    rule = repository.rule(session, principal.workspace_ids, rule_id)
    if rule is None:
        raise NotFound(f"alert rule {rule_id} not found")
    return rule


def update_rule(
    session: Session, principal: Principal, rule_id: int, body: RuleUpdate
) -> AlertRule:
    rule = get_rule(session, principal, rule_id)
    principal.require(rule.workspace_id, Role.editor)
    if body.name is not None:
        rule.name = body.name.strip()
    if body.threshold is not None or body.clear_threshold:
        threshold = None if body.clear_threshold else body.threshold
        if rule.kind == RuleKind.error_rate_above and (threshold is None or threshold > 1):
            raise InvalidInput(
                "invalid_threshold",
                "an error-rate rule needs a threshold between 0 and 1 (0.01: 1%)",
                field="threshold",
            )
        rule.threshold = threshold
    if body.channel_ids is not None:
        rule.channel_ids = _own_channels(session, rule.workspace_id, body.channel_ids)
    if body.enabled is not None:
        rule.enabled = body.enabled
    session.commit()
    return rule


def delete_rule(session: Session, principal: Principal, rule_id: int) -> None:
    rule = get_rule(session, principal, rule_id)
    principal.require(rule.workspace_id, Role.editor)
    session.delete(rule)
    session.commit()


def _own_channels(session: Session, workspace_id: int, ids: list[int]) -> list[int]:
    channels = repository.channels_by_id(session, sorted(set(ids)))
    missing = [i for i in ids if i not in channels or channels[i].workspace_id != workspace_id]
    if missing:
        raise InvalidInput(
            "invalid_channel",
            f"no channel {missing[0]} in this workspace: add it under Team settings first",
            field="channel_ids",
        )
    return sorted(set(ids))


def rule_outs(session: Session, rules: list[AlertRule]) -> list[RuleOut]:
    latest = repository.latest_evaluations(session, [r.id for r in rules])
    outs = evaluation_outs(session, list(latest.values()))
    by_rule = {e.rule_id: e for e in outs}
    return [
        RuleOut(
            id=r.id,
            workspace_id=r.workspace_id,
            dataset_id=r.dataset_id,
            name=r.name,
            kind=RuleKind(r.kind),
            threshold=r.threshold,
            channel_ids=list(r.channel_ids or []),
            enabled=r.enabled,
            created_at=r.created_at,
            last_evaluation=by_rule.get(r.id),
        )
        for r in rules
    ]


# --- evaluations


def evaluate_now(
    session: Session, settings: Settings, principal: Principal, dataset_id: int
) -> list[AlertEvaluation]:
    """Every enabled rule of the dataset, now: committed, then the deliveries of the rules
    that fired sent."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    made, deliveries = evaluate_dataset(session, settings, dataset, "manual")
    session.commit()
    dispatch(settings, deliveries)
    return made


def history(
    session: Session, principal: Principal, rule_id: int, limit: int, offset: int
) -> EvaluationPage:
    rule = get_rule(session, principal, rule_id)
    rows, total = repository.evaluations(session, rule.id, limit, offset)
    return EvaluationPage(items=evaluation_outs(session, rows), total=total)


def evaluation_outs(session: Session, rows: list[AlertEvaluation]) -> list[EvaluationOut]:
    deliveries = repository.deliveries_for(session, [e.id for e in rows])
    names = _channel_names(session, deliveries)
    outs = {e.id: EvaluationOut.model_validate(e) for e in rows}
    for d in deliveries:
        if d.evaluation_id in outs:
            outs[d.evaluation_id].deliveries.append(delivery_out(d, names))
    return [outs[e.id] for e in rows]


def _channel_names(session: Session, deliveries: list[AlertDelivery]) -> dict[int, str]:
    ids = sorted({d.channel_id for d in deliveries if d.channel_id is not None})
    return {i: c.name for i, c in repository.channels_by_id(session, ids).items()}


def delivery_out(delivery: AlertDelivery, names: dict[int, str]) -> DeliveryOut:
    out = DeliveryOut.model_validate(delivery)
    out.channel_name = names.get(delivery.channel_id or 0)
    return out


# --- channels


def list_channels(session: Session, principal: Principal, workspace_id: int) -> list[ChannelOut]:
    principal.require(workspace_id, Role.viewer)
    rows = repository.channels(session, workspace_id)
    return channel_outs(session, principal, rows)


def create_channel(
    session: Session, principal: Principal, workspace_id: int, body: ChannelIn
) -> ChannelCreated:
    principal.require(workspace_id, Role.editor)
    secret = new_token("hws_") if body.kind == ChannelKind.webhook else None
    channel = AlertChannel(
        workspace_id=workspace_id,
        name=body.name.strip(),
        kind=body.kind,
        target=_checked_target(body.kind, body.target),
        secret=secret,
        weekly_report=body.weekly_report and body.kind == ChannelKind.email,
        created_by_id=principal.user.id,
    )
    session.add(channel)
    session.commit()
    out = channel_outs(session, principal, [channel])[0]
    return ChannelCreated(**out.model_dump(), secret=secret)


def get_channel(
    session: Session, principal: Principal, workspace_id: int, channel_id: int
) -> AlertChannel:
    principal.require(workspace_id, Role.viewer)
    channel = repository.channel(session, [workspace_id], channel_id)
    if channel is None:
        raise NotFound(f"channel {channel_id} not found")
    return channel


def update_channel(
    session: Session, principal: Principal, workspace_id: int, channel_id: int, body: ChannelUpdate
) -> ChannelOut:
    channel = get_channel(session, principal, workspace_id, channel_id)
    principal.require(workspace_id, Role.editor)
    if body.name is not None:
        channel.name = body.name.strip()
    if body.target is not None:
        channel.target = _checked_target(ChannelKind(channel.kind), body.target)
    if body.weekly_report is not None:
        channel.weekly_report = body.weekly_report and channel.kind == ChannelKind.email
    session.commit()
    return channel_outs(session, principal, [channel])[0]


def delete_channel(
    session: Session, principal: Principal, workspace_id: int, channel_id: int
) -> None:
    channel = get_channel(session, principal, workspace_id, channel_id)
    principal.require(workspace_id, Role.editor)
    for rule in repository.rules_for_workspace(session, workspace_id):
        if channel.id in (rule.channel_ids or []):
            rule.channel_ids = [i for i in rule.channel_ids if i != channel.id]
    session.delete(channel)
    session.commit()


def test_channel(
    session: Session, settings: Settings, principal: Principal, workspace_id: int, channel_id: int
) -> AlertDelivery:
    """A test message to the channel, queued like an alert: committed, then sent."""
    channel = get_channel(session, principal, workspace_id, channel_id)
    principal.require(workspace_id, Role.editor)
    text = f"A test message from Headroom to the channel {channel.name}.\n"
    base = settings.public_url.rstrip("/")
    delivery = AlertDelivery(
        workspace_id=workspace_id,
        channel_id=channel.id,
        purpose="test",
        subject=f"[Headroom] Test of {channel.name}",
        text=text,
        payload={
            "event": "channel.test",
            "channel": {"id": channel.id, "name": channel.name},
            "text": text,
            "link": base + "/settings/team",
        },
    )
    session.add(delivery)
    session.commit()
    dispatch(settings, [delivery.id])
    session.refresh(delivery)
    return delivery


def channel_outs(
    session: Session, principal: Principal, rows: list[AlertChannel]
) -> list[ChannelOut]:
    latest = repository.latest_deliveries(session, [c.id for c in rows])
    names = {c.id: c.name for c in rows}
    return [
        ChannelOut(
            id=c.id,
            workspace_id=c.workspace_id,
            name=c.name,
            kind=ChannelKind(c.kind),
            target=_shown_target(principal, c),
            weekly_report=c.weekly_report,
            signed=c.secret is not None,
            created_at=c.created_at,
            last_delivery=delivery_out(latest[c.id], names) if c.id in latest else None,
        )
        for c in rows
    ]


def _shown_target(principal: Principal, channel: AlertChannel) -> str:
    """A webhook URL is a credential (Slack's are): viewers see its host only."""
    if channel.kind == ChannelKind.email or principal.allows(channel.workspace_id, Role.editor):
        return channel.target
    parts = urlsplit(channel.target)
    return f"{parts.scheme}://{parts.netloc}/…"


def _checked_target(kind: ChannelKind, target: str) -> str:
    target = target.strip()
    if kind == ChannelKind.email:
        addresses = [a.strip() for a in target.split(",") if a.strip()]
        if not addresses or any("@" not in a or " " in a for a in addresses):
            raise InvalidInput(
                "invalid_target",
                "give one or more e-mail addresses, separated by commas",
                field="target",
            )
        return ", ".join(addresses)
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInput(
            "invalid_target", "give the webhook's http:// or https:// URL", field="target"
        )
    return target
