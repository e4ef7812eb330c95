from enum import StrEnum

from pydantic import JsonValue
from sqlalchemy import JSON, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.jobs.models import DerivedRow


class AnalysisKind(StrEnum):
    capacity = "capacity"
    sct = "sct"


class Analysis(DerivedRow, Base):
    """One run of a method on a dataset with given parameters; its job holds the result.

    The same parameters on the same dataset are one analysis (`params_key` is the hash of
    their canonical JSON); other parameters make another analysis, so both are kept."""

    __tablename__ = "analysis"
    __table_args__ = (UniqueConstraint("dataset_id", "kind", "params_key"),)

    kind: Mapped[str] = mapped_column(String(50))
    params: Mapped[dict[str, JsonValue]] = mapped_column(JSON)  # the params, as stored
    params_key: Mapped[str] = mapped_column(String(64))
