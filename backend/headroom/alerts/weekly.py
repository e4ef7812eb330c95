"""The weekly report: to every e-mail channel that asks for it, its workspace's datasets
(requests, p95 latency, 5xx share), the alerts that fired in the week, and links. Sent by
the worker's beat schedule (HEADROOM_WEEKLY_REPORT_DAY / _HOUR); callable directly."""

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from headroom.alerts import repository
from headroom.alerts.dispatch import dispatch
from headroom.alerts.evaluation import dataset_link
from headroom.alerts.figures import read
from headroom.alerts.models import AlertChannel, AlertDelivery, AlertRule
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.types import utcnow
from headroom.datasets import repository as dataset_repository
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.workspaces.models import Workspace

WEEK = timedelta(days=7)
MAX_DATASETS = 20


def queue_weekly_reports(settings: Settings, now: datetime | None = None) -> list[int]:
    """One queued delivery per channel that asks for the report; the ids."""
    now = now or utcnow()
    with session_scope(settings.resolved_database_url()) as session:
        channels = repository.weekly_channels(session)
        texts: dict[int, tuple[str, str]] = {}
        made: list[AlertDelivery] = []
        for channel in channels:
            if channel.workspace_id not in texts:
                texts[channel.workspace_id] = report_text(session, settings, channel, now)
            subject, text = texts[channel.workspace_id]
            made.append(_delivery(channel, subject, text))
        session.add_all(made)
        session.flush()
        ids = [d.id for d in made]
    dispatch(settings, ids)
    return ids


def _delivery(channel: AlertChannel, subject: str, text: str) -> AlertDelivery:
    return AlertDelivery(
        workspace_id=channel.workspace_id,
        channel_id=channel.id,
        purpose="weekly",
        subject=subject,
        text=text,
        payload={"event": "report.weekly", "text": text},
    )


def report_text(
    session: Session, settings: Settings, channel: AlertChannel, now: datetime
) -> tuple[str, str]:
    workspace = session.get(Workspace, channel.workspace_id)
    name = workspace.name if workspace else str(channel.workspace_id)
    since = now - WEEK
    datasets, total = dataset_repository.page(session, [channel.workspace_id], MAX_DATASETS, 0)
    lines = [f"Headroom weekly report for {name}, {since:%d %b} to {now:%d %b %Y}.", ""]
    lines.append(f"Datasets ({total}):" if datasets else "No datasets yet.")
    for dataset in datasets:
        lines.append(f"- {dataset.name}: {_dataset_line(session, dataset)}")
        lines.append(f"  {dataset_link(settings, dataset.id)}")
    fired = repository.fired_since(session, channel.workspace_id, since)
    lines += ["", f"Alerts fired this week: {len(fired)}"]
    for evaluation in fired[:MAX_DATASETS]:
        rule = session.get(AlertRule, evaluation.rule_id)
        label = rule.name if rule else f"rule {evaluation.rule_id}"
        lines.append(f"- {evaluation.evaluated_at:%a %d %b %H:%M} {label}: {evaluation.message}")
    lines += ["", f"All datasets: {settings.public_url.rstrip('/')}/datasets"]
    return f"[Headroom] Weekly report: {name}", "\n".join(lines) + "\n"


def _dataset_line(session: Session, dataset: Dataset) -> str:
    if dataset.status != DatasetStatus.ready:
        return str(dataset.status)
    f = read(session, dataset.id)
    parts = [f"{dataset.request_count:,} requests"] if dataset.request_count else []
    if f.p95_s is not None:
        parts.append(f"p95 {f.p95_s * 1000:.0f} ms")
    if f.error_rate is not None:
        parts.append(f"5xx {f.error_rate * 100:.2g}%")
    if f.knee_per_s is not None:
        parts.append(f"knee {f.knee_per_s:.3g} req/s")
    return ", ".join(parts) or "ready"
