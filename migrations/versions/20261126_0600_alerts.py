"""alerts: channels, rules per dataset, evaluations and deliveries

Revision ID: 20261126_0600_alerts
Revises: 20261126_0400_prom_sources
Create Date: 2026-11-26 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "20261126_0600_alerts"
down_revision: str | None = "20261126_0400_prom_sources"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _workspace() -> sa.Column[int]:
    return sa.Column(
        "workspace_id",
        sa.Integer(),
        sa.ForeignKey("workspace.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


def _creator() -> sa.Column[int]:
    return sa.Column(
        "created_by_id", sa.Integer(), sa.ForeignKey("user.id", ondelete="SET NULL"), nullable=True
    )


def _created() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "alert_channel",
        _id(),
        _workspace(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(100), nullable=True),
        sa.Column("weekly_report", sa.Boolean(), nullable=False),
        _creator(),
        _created(),
    )
    op.create_table(
        "alert_rule",
        _id(),
        _workspace(),
        sa.Column(
            "dataset_id",
            sa.Integer(),
            sa.ForeignKey("dataset.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("threshold", sa.Float(), nullable=True),
        sa.Column("channel_ids", sa.JSON(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        _creator(),
        _created(),
    )
    op.create_table(
        "alert_evaluation",
        _id(),
        sa.Column(
            "rule_id",
            sa.Integer(),
            sa.ForeignKey("alert_rule.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        _workspace(),
        sa.Column("trigger", sa.String(20), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("limit_value", sa.Float(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("evaluated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "alert_delivery",
        _id(),
        _workspace(),
        sa.Column(
            "channel_id",
            sa.Integer(),
            sa.ForeignKey("alert_channel.id", ondelete="SET NULL"),
            nullable=True,
            index=True,
        ),
        sa.Column(
            "evaluation_id",
            sa.Integer(),
            sa.ForeignKey("alert_evaluation.id", ondelete="CASCADE"),
            nullable=True,
            index=True,
        ),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        _created(),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    for table in ("alert_delivery", "alert_evaluation", "alert_rule", "alert_channel"):
        op.drop_table(table)
