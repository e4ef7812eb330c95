"""All characterization SQL; reads are scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.workloads.models import Characterization, DatasetRules


def visible(session: Session, workspace_ids: list[int], item_id: int) -> Characterization | None:
    return session.scalar(
        select(Characterization).where(
            Characterization.id == item_id, Characterization.workspace_id.in_(workspace_ids)
        )
    )


def page_for_dataset(
    session: Session, dataset_id: int, limit: int, offset: int
) -> tuple[list[Characterization], int]:
    scope = Characterization.dataset_id == dataset_id
    query = select(Characterization).where(scope).order_by(Characterization.id.desc())
    rows = session.scalars(query.limit(limit).offset(offset))
    total = session.scalar(select(func.count()).select_from(Characterization).where(scope)) or 0
    return list(rows), total


def by_rules(session: Session, dataset_id: int, rules_key: str) -> Characterization | None:
    return session.scalar(
        select(Characterization).where(
            Characterization.dataset_id == dataset_id, Characterization.rules_key == rules_key
        )
    )


def by_job(session: Session, job_id: int) -> Characterization | None:
    return session.scalar(select(Characterization).where(Characterization.job_id == job_id))


def rules_of(session: Session, dataset_id: int) -> DatasetRules | None:
    return session.get(DatasetRules, dataset_id)
