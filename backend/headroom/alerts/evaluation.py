"""Evaluating a dataset's rules: after each ingest of it, and on demand. Each evaluation is
recorded with its figures; a rule that fires queues one delivery per channel."""

import logging

from sqlalchemy.orm import Session

from headroom.alerts import repository
from headroom.alerts.figures import read
from headroom.alerts.models import AlertDelivery, AlertEvaluation, AlertRule, Outcome, RuleKind
from headroom.alerts.payloads import AlertPayload
from headroom.alerts.rules import judge
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset, DatasetStatus

log = logging.getLogger(__name__)


def evaluate_dataset(
    session: Session, settings: Settings, dataset: Dataset, trigger: str, rule_id: int | None = None
) -> tuple[list[AlertEvaluation], list[int]]:
    """The evaluations made (flushed, not committed) and the deliveries they queued."""
    rules = repository.rules_for_dataset(session, dataset.id, enabled_only=rule_id is None)
    rules = [r for r in rules if rule_id is None or r.id == rule_id]
    if not rules:
        return [], []
    figures = read(session, dataset.id)
    made: list[AlertEvaluation] = []
    deliveries: list[AlertDelivery] = []
    for rule in rules:
        kind = RuleKind(rule.kind)
        wants_previous = kind == RuleKind.knee_below_baseline and rule.threshold is None
        previous = repository.previous_value(session, rule.id) if wants_previous else None
        verdict = judge(kind, rule.threshold, figures, previous)
        evaluation = AlertEvaluation(
            rule_id=rule.id,
            workspace_id=rule.workspace_id,
            trigger=trigger,
            outcome=verdict.outcome,
            value=verdict.value,
            limit_value=verdict.limit,
            message=verdict.message,
            figures=figures.as_dict(),
        )
        session.add(evaluation)
        session.flush()
        made.append(evaluation)
        if verdict.outcome == Outcome.fired:
            deliveries += _deliveries(session, settings, rule, dataset, evaluation)
    session.flush()
    return made, [d.id for d in deliveries]


def _deliveries(
    session: Session, settings: Settings, rule: AlertRule, dataset: Dataset, ev: AlertEvaluation
) -> list[AlertDelivery]:
    channels = repository.channels_by_id(session, list(rule.channel_ids or []))
    link = dataset_link(settings, dataset.id, "alerts")
    subject = f"[Headroom] {rule.name} fired on {dataset.name}"
    text = f"{ev.message}.\n\nDataset: {dataset.name}\nRule: {rule.name}\n{link}\n"
    payload = alert_payload(rule, dataset, ev, link, text)
    made = [
        AlertDelivery(
            workspace_id=rule.workspace_id,
            channel_id=channel.id,
            evaluation_id=ev.id,
            purpose="alert",
            subject=subject,
            text=text,
            payload=payload,
        )
        for channel in channels.values()
        if channel.workspace_id == rule.workspace_id
    ]
    session.add_all(made)
    session.flush()
    return made


def alert_payload(
    rule: AlertRule, dataset: Dataset, ev: AlertEvaluation, link: str, text: str
) -> AlertPayload:
    return {
        "event": "alert.fired",
        "rule": {"id": rule.id, "name": rule.name, "kind": rule.kind, "threshold": rule.threshold},
        "dataset": {"id": dataset.id, "name": dataset.name},
        "evaluation": {
            "id": ev.id,
            "trigger": ev.trigger,
            "outcome": ev.outcome,
            "value": ev.value,
            "limit": ev.limit_value,
            "message": ev.message,
        },
        "link": link,
        "text": text,
    }


def dataset_link(settings: Settings, dataset_id: int, tab: str | None = None) -> str:
    """Absolute with HEADROOM_PUBLIC_URL (a worker knows no request to take it from)."""
    query = f"?tab={tab}" if tab else ""
    return f"{settings.public_url.rstrip('/')}/datasets/{dataset_id}{query}"


def evaluate_after_ingest(settings: Settings, dataset_id: int, trigger: str = "ingest") -> None:
    """The ingest job's hook (and a source refresh's, trigger "refresh"): never fails the
    job that called it."""
    from headroom.alerts.dispatch import dispatch

    try:
        with session_scope(settings.resolved_database_url()) as session:
            dataset = session.get(Dataset, dataset_id)
            if dataset is None or dataset.status != DatasetStatus.ready:
                return
            _, delivery_ids = evaluate_dataset(session, settings, dataset, trigger)
        dispatch(settings, delivery_ids)
    except Exception:
        log.exception("alerts of dataset %s were not evaluated", dataset_id)
