"""job_part: the finished parts of a job that fans out, each counted once in its progress

Revision ID: 3f6a1d8c9b27
Revises: 9e4b7c2a6d15
Create Date: 2026-11-25 13:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f6a1d8c9b27"
down_revision: str | None = "9e4b7c2a6d15"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "job_part",
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("part_index", sa.Integer(), nullable=False),
        sa.Column("share", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["job_id"], ["job.id"], name=op.f("fk_job_part_job_id_job"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("job_id", "part_index", name=op.f("pk_job_part")),
    )


def downgrade() -> None:
    op.drop_table("job_part")
