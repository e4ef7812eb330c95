"""dataset list fields: request count, time span, latency recorded, synthetic

Revision ID: 7b3e9f1c4a58
Revises: 3f6a1d8c9b27
Create Date: 2026-11-26 00:10:00.000000
"""

import json
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "7b3e9f1c4a58"
down_revision: str | None = "3f6a1d8c9b27"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEMO_SYNTHETIC_NAMES = ("synthetic-mm4-latency.log", "synthetic-pool-trace.csv")


def upgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        batch.add_column(sa.Column("request_count", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("first_request_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("last_request_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("span_s", sa.Double(), nullable=True))
        batch.add_column(sa.Column("has_latency", sa.Boolean(), nullable=True))
        batch.add_column(
            sa.Column("synthetic", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    _backfill()


def _backfill() -> None:
    """Datasets ingested before this change take their figures from their latest summary."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(
            "SELECT dataset_id, document FROM result "
            "WHERE kind = 'traffic_summary' AND dataset_id IS NOT NULL ORDER BY id"
        )
    ).all()
    latest = {dataset_id: document for dataset_id, document in rows}
    update = sa.text(
        "UPDATE dataset SET request_count = :count, first_request_at = :first, "
        "last_request_at = :last, span_s = :span, has_latency = :latency WHERE id = :id"
    )
    for dataset_id, raw in latest.items():
        document = json.loads(raw) if isinstance(raw, str) else raw
        connection.execute(
            update,
            {
                "id": dataset_id,
                "count": document.get("request_count"),
                "first": _moment(document.get("first_ts")),
                "last": _moment(document.get("last_ts")),
                "span": document.get("span_s"),
                "latency": document.get("latency") is not None,
            },
        )
    names = ", ".join(f"'{name}'" for name in DEMO_SYNTHETIC_NAMES)
    op.execute(f"UPDATE dataset SET synthetic = true WHERE name IN ({names})")


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def downgrade() -> None:
    with op.batch_alter_table("dataset") as batch:
        for column in (
            "synthetic",
            "has_latency",
            "span_s",
            "last_request_at",
            "first_request_at",
            "request_count",
        ):
            batch.drop_column(column)
