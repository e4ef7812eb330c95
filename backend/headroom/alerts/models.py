"""Alert rules per dataset, delivery channels per workspace, and the history of each
rule's evaluations and deliveries (docs/alerts.md)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, Boolean, Float, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from headroom.alerts.payloads import FiguresJson, Payload
from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow


class RuleKind(StrEnum):
    p95_above_sla = "p95_above_sla"
    knee_below_baseline = "knee_below_baseline"
    error_rate_above = "error_rate_above"


class ChannelKind(StrEnum):
    email = "email"
    slack = "slack"
    webhook = "webhook"


class Outcome(StrEnum):
    fired = "fired"
    ok = "ok"
    not_evaluated = "not_evaluated"


class DeliveryStatus(StrEnum):
    queued = "queued"
    sent = "sent"
    failed = "failed"


class AlertChannel(Base):
    """Where alerts go: e-mail addresses, a Slack-compatible webhook, or a generic webhook
    signed with the channel's secret (HMAC-SHA256)."""

    __tablename__ = "alert_channel"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    target: Mapped[str] = mapped_column(Text)  # comma-separated addresses, or a URL
    secret: Mapped[str | None] = mapped_column(String(100))  # webhooks only
    weekly_report: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class AlertRule(Base):
    __tablename__ = "alert_rule"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    dataset_id: Mapped[int] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(40))
    # p95: seconds (null: the dataset's SLA target); knee: requests/s (null: the previous
    # evaluation's knee); error rate: a share of 5xx responses, 0 to 1
    threshold: Mapped[float | None] = mapped_column(Float)
    channel_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class AlertEvaluation(Base):
    """One evaluation of a rule: the figures read, the limit, and whether it fired."""

    __tablename__ = "alert_evaluation"

    id: Mapped[int] = mapped_column(primary_key=True)
    rule_id: Mapped[int] = mapped_column(
        ForeignKey("alert_rule.id", ondelete="CASCADE"), index=True
    )
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    trigger: Mapped[str] = mapped_column(String(20))  # ingest | refresh | manual
    outcome: Mapped[str] = mapped_column(String(20))
    value: Mapped[float | None] = mapped_column(Float)
    limit_value: Mapped[float | None] = mapped_column(Float)
    message: Mapped[str] = mapped_column(Text)
    figures: Mapped[FiguresJson] = mapped_column(JSON, default=dict)
    evaluated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class AlertDelivery(Base):
    """One message to one channel (an alert, a test, or the weekly report), sent by a
    Celery task with retries; `failed` once the last retry failed."""

    __tablename__ = "alert_delivery"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    channel_id: Mapped[int | None] = mapped_column(
        ForeignKey("alert_channel.id", ondelete="SET NULL"), index=True
    )
    evaluation_id: Mapped[int | None] = mapped_column(
        ForeignKey("alert_evaluation.id", ondelete="CASCADE"), index=True
    )
    purpose: Mapped[str] = mapped_column(String(20))  # alert | test | weekly
    subject: Mapped[str] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    payload: Mapped[Payload] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(20), default=DeliveryStatus.queued)
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
