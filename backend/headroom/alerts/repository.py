"""All alert SQL; reads of rules and channels are scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.alerts.models import (
    AlertChannel,
    AlertDelivery,
    AlertEvaluation,
    AlertRule,
)


def rule(session: Session, workspace_ids: list[int], rule_id: int) -> AlertRule | None:
    return session.scalar(
        select(AlertRule).where(AlertRule.id == rule_id, AlertRule.workspace_id.in_(workspace_ids))
    )


def rules_for_dataset(
    session: Session, dataset_id: int, enabled_only: bool = False
) -> list[AlertRule]:
    query = select(AlertRule).where(AlertRule.dataset_id == dataset_id)
    if enabled_only:
        query = query.where(AlertRule.enabled.is_(True))
    return list(session.scalars(query.order_by(AlertRule.id)))


def rules_for_workspace(session: Session, workspace_id: int) -> list[AlertRule]:
    query = select(AlertRule).where(AlertRule.workspace_id == workspace_id)
    return list(session.scalars(query))


def channel(session: Session, workspace_ids: list[int], channel_id: int) -> AlertChannel | None:
    return session.scalar(
        select(AlertChannel).where(
            AlertChannel.id == channel_id, AlertChannel.workspace_id.in_(workspace_ids)
        )
    )


def channels(session: Session, workspace_id: int) -> list[AlertChannel]:
    query = select(AlertChannel).where(AlertChannel.workspace_id == workspace_id)
    return list(session.scalars(query.order_by(AlertChannel.id)))


def channels_by_id(session: Session, ids: list[int]) -> dict[int, AlertChannel]:
    if not ids:
        return {}
    rows = session.scalars(select(AlertChannel).where(AlertChannel.id.in_(ids)))
    return {c.id: c for c in rows}


def weekly_channels(session: Session) -> list[AlertChannel]:
    query = select(AlertChannel).where(
        AlertChannel.weekly_report.is_(True), AlertChannel.kind == "email"
    )
    return list(session.scalars(query.order_by(AlertChannel.id)))


def latest_evaluations(session: Session, rule_ids: list[int]) -> dict[int, AlertEvaluation]:
    if not rule_ids:
        return {}
    newest = (
        select(func.max(AlertEvaluation.id))
        .where(AlertEvaluation.rule_id.in_(rule_ids))
        .group_by(AlertEvaluation.rule_id)
    )
    rows = session.scalars(select(AlertEvaluation).where(AlertEvaluation.id.in_(newest)))
    return {e.rule_id: e for e in rows}


def previous_value(session: Session, rule_id: int) -> float | None:
    """The figure the rule's latest evaluation that read one recorded."""
    return session.scalar(
        select(AlertEvaluation.value)
        .where(AlertEvaluation.rule_id == rule_id, AlertEvaluation.value.is_not(None))
        .order_by(AlertEvaluation.id.desc())
        .limit(1)
    )


def evaluations(
    session: Session, rule_id: int, limit: int, offset: int
) -> tuple[list[AlertEvaluation], int]:
    scope = AlertEvaluation.rule_id == rule_id
    rows = session.scalars(
        select(AlertEvaluation)
        .where(scope)
        .order_by(AlertEvaluation.id.desc())
        .limit(limit)
        .offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(AlertEvaluation).where(scope)) or 0
    return list(rows), total


def deliveries_for(session: Session, evaluation_ids: list[int]) -> list[AlertDelivery]:
    if not evaluation_ids:
        return []
    query = select(AlertDelivery).where(AlertDelivery.evaluation_id.in_(evaluation_ids))
    return list(session.scalars(query.order_by(AlertDelivery.id)))


def latest_deliveries(session: Session, channel_ids: list[int]) -> dict[int, AlertDelivery]:
    if not channel_ids:
        return {}
    newest = (
        select(func.max(AlertDelivery.id))
        .where(AlertDelivery.channel_id.in_(channel_ids))
        .group_by(AlertDelivery.channel_id)
    )
    rows = session.scalars(select(AlertDelivery).where(AlertDelivery.id.in_(newest)))
    return {d.channel_id: d for d in rows if d.channel_id is not None}


def fired_since(session: Session, workspace_id: int, since: object) -> list[AlertEvaluation]:
    query = select(AlertEvaluation).where(
        AlertEvaluation.workspace_id == workspace_id,
        AlertEvaluation.outcome == "fired",
        AlertEvaluation.evaluated_at >= since,
    )
    return list(session.scalars(query.order_by(AlertEvaluation.id)))
