from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, BigInteger, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow
from headroom.datasets.meta import DatasetMetaJson


class DatasetStatus(StrEnum):
    uploaded = "uploaded"
    processing = "processing"
    ready = "ready"
    failed = "failed"


class Dataset(Base):
    __tablename__ = "dataset"
    __table_args__ = (UniqueConstraint("workspace_id", "sha256"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(255))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64))
    format: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default=DatasetStatus.uploaded)
    storage_key: Mapped[str] = mapped_column(String(500))
    uploaded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    meta: Mapped[DatasetMetaJson] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # from the latest ingest's summary (null: not ingested yet), for listing and sorting
    request_count: Mapped[int | None] = mapped_column(BigInteger)
    first_request_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_request_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    span_s: Mapped[float | None]
    has_latency: Mapped[bool | None]
    synthetic: Mapped[bool] = mapped_column(default=False, server_default=false())
