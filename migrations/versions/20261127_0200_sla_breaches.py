"""sla breaches: a Prometheus source's refreshes whose new intervals exceeded the SLA

Revision ID: 20261127_0200_sla_breaches
Revises: 20261126_0600_alerts
Create Date: 2026-11-27 02:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "20261127_0200_sla_breaches"
down_revision: str | None = "20261126_0600_alerts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sla_breach",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "workspace_id",
            sa.Integer(),
            sa.ForeignKey("workspace.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "source_id",
            sa.Integer(),
            sa.ForeignKey("prometheus_source.id", ondelete="SET NULL"),
            nullable=True,
            index=True,
        ),
        sa.Column(
            "dataset_id",
            sa.Integer(),
            sa.ForeignKey("dataset.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("range_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("range_end", sa.DateTime(timezone=True), nullable=False),
        sa.Column("percentile", sa.Float(), nullable=False),
        sa.Column("observed_s", sa.Float(), nullable=False),
        sa.Column("threshold_s", sa.Float(), nullable=False),
        sa.Column("target_from", sa.String(40), nullable=False),
        sa.Column("intervals", sa.Integer(), nullable=False),
        sa.Column("requests", sa.Float(), nullable=False),
        sa.Column("detected_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sla_breach")
