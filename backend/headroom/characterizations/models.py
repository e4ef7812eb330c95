from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow
from headroom.jobs.models import DerivedRow


class Characterization(DerivedRow, Base):
    """The workload characterization of a dataset under given classification rules; its
    job holds the result. Other rules make another characterization, so both are kept
    (`rules_key` is the hash of the rules' canonical JSON, defaults filled in, and of the
    slice when one is characterized: a range and filters make another characterization)."""

    __tablename__ = "characterization"
    __table_args__ = (UniqueConstraint("dataset_id", "rules_key"),)

    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # a Rules document, as stored
    rules_key: Mapped[str] = mapped_column(String(64))
    # the slice characterized (a datasets SliceIn document); null: the whole dataset
    slice: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class DatasetRules(Base):
    """The classification rules a dataset is characterized under (absent: the defaults)."""

    __tablename__ = "dataset_rules"

    dataset_id: Mapped[int] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # a Rules document, as stored
    updated_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, onupdate=utcnow)
