"""saved scenarios

Revision ID: 5d2a9c7e4b18
Revises: 33efc4a2dcb5
Create Date: 2026-11-22 06:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5d2a9c7e4b18"
down_revision: str | None = "33efc4a2dcb5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saved_scenario",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("workspace_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("scenario", sa.JSON(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["user.id"],
            name=op.f("fk_saved_scenario_created_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspace.id"],
            name=op.f("fk_saved_scenario_workspace_id_workspace"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_scenario")),
        sa.UniqueConstraint(
            "workspace_id", "name", name=op.f("uq_saved_scenario_workspace_id")
        ),
    )
    with op.batch_alter_table("saved_scenario", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_saved_scenario_workspace_id"), ["workspace_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("saved_scenario", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_saved_scenario_workspace_id"))
    op.drop_table("saved_scenario")
