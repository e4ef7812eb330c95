"""job.sent_at: when a queued job's message last went to the broker (NULL: not yet)

Revision ID: 9e4b7c2a6d15
Revises: 5c2f8a7d1e93
Create Date: 2026-11-25 13:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9e4b7c2a6d15"
down_revision: str | None = "5c2f8a7d1e93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("job") as batch:
        batch.add_column(sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_job_sent_at", ["sent_at"])
    # Jobs queued before this change were sent when created (or re-sent since).
    op.execute("UPDATE job SET sent_at = heartbeat_at")


def downgrade() -> None:
    with op.batch_alter_table("job") as batch:
        batch.drop_index("ix_job_sent_at")
        batch.drop_column("sent_at")
