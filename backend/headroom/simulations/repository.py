"""All simulation SQL; reads are scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.simulations.models import SavedScenario, SimulationRun


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


def visible_scenario(
    session: Session, workspace_ids: list[int], scenario_id: int
) -> SavedScenario | None:
    return session.scalar(
        select(SavedScenario).where(
            SavedScenario.id == scenario_id, SavedScenario.workspace_id.in_(workspace_ids)
        )
    )


def scenarios(session: Session, workspace_ids: list[int]) -> list[SavedScenario]:
    query = select(SavedScenario).where(SavedScenario.workspace_id.in_(workspace_ids))
    return list(session.scalars(query.order_by(SavedScenario.name)))


def scenario_named(session: Session, workspace_id: int, name: str) -> SavedScenario | None:
    return session.scalar(
        select(SavedScenario).where(
            SavedScenario.workspace_id == workspace_id, SavedScenario.name == name
        )
    )
