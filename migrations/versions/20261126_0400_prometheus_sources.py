"""prometheus sources: a workspace's Prometheus server, selectors and encrypted credential

Revision ID: 20261126_0400_prom_sources
Revises: 7b3e9f1c4a58
Create Date: 2026-11-26 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "20261126_0400_prom_sources"
down_revision: str | None = "7b3e9f1c4a58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "prometheus_source",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("workspace_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("base_url", sa.String(length=2000), nullable=False),
        sa.Column("auth", sa.String(length=10), nullable=False),
        sa.Column("username", sa.String(length=255), nullable=True),
        sa.Column("secret_encrypted", sa.Text(), nullable=True),
        sa.Column("requests_selector", sa.Text(), nullable=False),
        sa.Column("latency_selector", sa.Text(), nullable=True),
        sa.Column("class_label", sa.String(length=255), nullable=True),
        sa.Column("error_label", sa.String(length=255), nullable=True),
        sa.Column("error_pattern", sa.String(length=255), nullable=False),
        sa.Column("step_s", sa.Double(), nullable=False),
        sa.Column("window_s", sa.Double(), nullable=False),
        sa.Column("refresh", sa.Boolean(), nullable=False),
        sa.Column("range_start", sa.DateTime(timezone=True), nullable=True),
        sa.Column("range_end", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dataset_id", sa.Integer(), nullable=True),
        sa.Column("job_id", sa.Integer(), nullable=True),
        sa.Column("last_refresh_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("last_summary", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["workspace_id"], ["workspace.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["dataset_id"], ["dataset.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["job_id"], ["job.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_prometheus_source_workspace_id", "prometheus_source", ["workspace_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_prometheus_source_workspace_id", table_name="prometheus_source")
    op.drop_table("prometheus_source")
