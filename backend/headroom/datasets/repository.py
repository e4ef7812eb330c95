"""All dataset SQL; every query is scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.datasets.models import Dataset


def visible(session: Session, workspace_ids: list[int], dataset_id: int) -> Dataset | None:
    return session.scalar(
        select(Dataset).where(Dataset.id == dataset_id, Dataset.workspace_id.in_(workspace_ids))
    )


def page(
    session: Session, workspace_ids: list[int], limit: int, offset: int
) -> tuple[list[Dataset], int]:
    scope = Dataset.workspace_id.in_(workspace_ids)
    rows = session.scalars(
        select(Dataset).where(scope).order_by(Dataset.id.desc()).limit(limit).offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(Dataset).where(scope)) or 0
    return list(rows), total


def by_sha256(session: Session, workspace_id: int, sha256: str) -> Dataset | None:
    return session.scalar(
        select(Dataset).where(Dataset.workspace_id == workspace_id, Dataset.sha256 == sha256)
    )
