from datetime import datetime

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow
from headroom.simulations.scenario_json import ScenarioJson, SweepJson


class SimulationRun(Base):
    """One simulation (or one sweep of simulations) of a scenario; its job holds the result.

    ``scenario`` is the validated document as the user sent it; ``sweep`` is null or
    ``{path, values, second?: {path, values}}`` (see simulations.sweep)."""

    __tablename__ = "simulation"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    scenario: Mapped[ScenarioJson] = mapped_column(JSON)
    seed: Mapped[int | None]
    sweep: Mapped[SweepJson | None] = mapped_column(JSON)
    job_id: Mapped[int | None] = mapped_column(ForeignKey("job.id", ondelete="SET NULL"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SavedScenario(Base):
    """A named scenario document kept in a workspace for the editor to load again."""

    __tablename__ = "saved_scenario"
    __table_args__ = (UniqueConstraint("workspace_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    scenario: Mapped[ScenarioJson] = mapped_column(JSON)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, onupdate=utcnow)
