from datetime import datetime
from enum import StrEnum

from pydantic import JsonValue
from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow


class AnalysisKind(StrEnum):
    capacity = "capacity"
    sct = "sct"


class Analysis(Base):
    """One run of a method on a dataset with given parameters; its job holds the result.

    The same parameters on the same dataset are one analysis (`params_key` is the hash of
    their canonical JSON); other parameters make another analysis, so both are kept."""

    __tablename__ = "analysis"
    __table_args__ = (UniqueConstraint("dataset_id", "kind", "params_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    dataset_id: Mapped[int] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(50))
    params: Mapped[dict[str, JsonValue]] = mapped_column(JSON)  # the params, as stored
    params_key: Mapped[str] = mapped_column(String(64))
    job_id: Mapped[int | None] = mapped_column(ForeignKey("job.id", ondelete="SET NULL"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
