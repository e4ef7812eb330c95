"""All simulation SQL; reads are scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.simulations.models import SimulationRun


def visible(session: Session, workspace_ids: list[int], simulation_id: int) -> SimulationRun | None:
    return session.scalar(
        select(SimulationRun).where(
            SimulationRun.id == simulation_id, SimulationRun.workspace_id.in_(workspace_ids)
        )
    )


def page(
    session: Session, workspace_ids: list[int], limit: int, offset: int
) -> tuple[list[SimulationRun], int]:
    scope = SimulationRun.workspace_id.in_(workspace_ids)
    rows = session.scalars(
        select(SimulationRun)
        .where(scope)
        .order_by(SimulationRun.id.desc())
        .limit(limit)
        .offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(SimulationRun).where(scope)) or 0
    return list(rows), total


def by_job(session: Session, job_id: int) -> SimulationRun | None:
    return session.scalar(select(SimulationRun).where(SimulationRun.job_id == job_id))
