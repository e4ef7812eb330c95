"""dataset_rules: the classification rules each dataset is characterized under

Revision ID: 4e8b1d6f2a75
Revises: 10105ee61d58
Create Date: 2026-11-22 06:25:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "4e8b1d6f2a75"
down_revision: str | None = "10105ee61d58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dataset_rules",
        sa.Column("dataset_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("updated_by_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["dataset_id"],
            ["dataset.id"],
            name=op.f("fk_dataset_rules_dataset_id_dataset"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["updated_by_id"],
            ["user.id"],
            name=op.f("fk_dataset_rules_updated_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("dataset_id", name=op.f("pk_dataset_rules")),
    )


def downgrade() -> None:
    op.drop_table("dataset_rules")
