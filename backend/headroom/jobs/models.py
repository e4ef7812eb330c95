from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow


class JobStatus(StrEnum):
    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"
    cancelled = "cancelled"


class DerivedRow:
    """The columns of a result a job derives from a dataset (jobs/derived.py: a capacity
    analysis, a characterization): whose it is, of which dataset, its newest job, who asked
    for it and when. Each domain's table adds its inputs and their key."""

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    dataset_id: Mapped[int] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    job_id: Mapped[int | None] = mapped_column(ForeignKey("job.id", ondelete="SET NULL"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Job(Base):
    __tablename__ = "job"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    dataset_id: Mapped[int | None] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(50))
    status: Mapped[str] = mapped_column(String(20), default=JobStatus.queued, index=True)
    progress: Mapped[float] = mapped_column(default=0.0)
    stage: Mapped[str | None] = mapped_column(String(50))
    eta_s: Mapped[float | None]
    error_code: Mapped[str | None] = mapped_column(String(50))
    error_message: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(default=0)
    worker: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The job row is the outbox: a queued job with no sent_at has not reached the broker yet
    # (the dispatcher sends it); one sent long ago is sent again.
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)


class JobPart(Base):
    """A finished part of a job that fans out (a byte range of an ingest): its share of the
    progress bar counts once, however many times the part ran."""

    __tablename__ = "job_part"

    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), primary_key=True)
    part_index: Mapped[int] = mapped_column(primary_key=True)
    share: Mapped[float]


class Result(Base):
    """What a job produced: a JSON document plus the storage keys of its tables."""

    __tablename__ = "result"

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), unique=True)
    dataset_id: Mapped[int | None] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(50))
    document: Mapped[dict[str, Any]] = mapped_column(JSON)  # any kind's result, as stored
    table_keys: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
