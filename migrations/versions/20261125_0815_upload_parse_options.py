"""upload.parse_options: the format / log_format / zip_members a resumable upload asked for

Revision ID: 5c2f8a7d1e93
Revises: 7a3d9c1e5b42
Create Date: 2026-11-25 08:15:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5c2f8a7d1e93"
down_revision: str | None = "7a3d9c1e5b42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("upload") as batch:
        batch.add_column(sa.Column("parse_options", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("upload") as batch:
        batch.drop_column("parse_options")
