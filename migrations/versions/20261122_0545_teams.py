"""teams: invitations and idempotency records

Revision ID: 33efc4a2dcb5
Revises: 7c1f4e2a9b30
Create Date: 2026-11-22 05:45:55.145799
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "33efc4a2dcb5"
down_revision: str | None = "7c1f4e2a9b30"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("api_token", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("prefix", sa.String(length=16), server_default="", nullable=False)
        )

    op.create_table(
        "idempotency_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope_hash", sa.String(length=64), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("content_type", sa.String(length=200), nullable=True),
        sa.Column("body", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_record")),
        sa.UniqueConstraint("scope_hash", name=op.f("uq_idempotency_record_scope_hash")),
    )
    with op.batch_alter_table("idempotency_record", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotency_record_expires_at"), ["expires_at"], unique=False
        )

    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("workspace_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("invited_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("accepted_by_id", sa.Integer(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["accepted_by_id"],
            ["user.id"],
            name=op.f("fk_invitation_accepted_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["invited_by_id"],
            ["user.id"],
            name=op.f("fk_invitation_invited_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspace.id"],
            name=op.f("fk_invitation_workspace_id_workspace"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitation")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_invitation_token_hash")),
    )
    with op.batch_alter_table("invitation", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_invitation_workspace_id"), ["workspace_id"], unique=False
        )


def downgrade() -> None:

    with op.batch_alter_table("invitation", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_invitation_workspace_id"))

    op.drop_table("invitation")
    with op.batch_alter_table("idempotency_record", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_record_expires_at"))

    op.drop_table("idempotency_record")
    with op.batch_alter_table("api_token", schema=None) as batch_op:
        batch_op.drop_column("prefix")
