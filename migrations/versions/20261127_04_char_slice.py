"""characterization: the slice (range and filters) a characterization covers

Revision ID: 20261127_04_char_slice
Revises: 20261127_0200_sla_breaches
Create Date: 2026-11-27 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "20261127_04_char_slice"
down_revision: str | None = "20261127_0200_sla_breaches"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("characterization") as batch:
        batch.add_column(sa.Column("slice", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("characterization") as batch:
        batch.drop_column("slice")
