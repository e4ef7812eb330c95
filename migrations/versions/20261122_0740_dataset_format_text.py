"""dataset.format as text: W3C and LogFormat format names outgrow 100 characters

Revision ID: 7a3d9c1e5b42
Revises: 4e8b1d6f2a75
Create Date: 2026-11-22 07:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7a3d9c1e5b42"
down_revision: str | None = "4e8b1d6f2a75"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        batch.alter_column("format", type_=sa.Text(), existing_type=sa.String(100))


def downgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        batch.alter_column("format", type_=sa.String(100), existing_type=sa.Text())
