"""All dataset SQL; every query is scoped by the caller's workspaces."""

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.datasets.models import Dataset
from headroom.datasets.schemas import DatasetSort


def visible(session: Session, workspace_ids: list[int], dataset_id: int) -> Dataset | None:
    return session.scalar(
        select(Dataset).where(Dataset.id == dataset_id, Dataset.workspace_id.in_(workspace_ids))
    )


def page(
    session: Session,
    workspace_ids: list[int],
    limit: int,
    offset: int,
    name_contains: str | None = None,
    sort: DatasetSort = DatasetSort.newest,
) -> tuple[list[Dataset], int]:
    scope = [Dataset.workspace_id.in_(workspace_ids)]
    if name_contains:
        scope.append(Dataset.name.ilike(f"%{_escape_like(name_contains)}%", escape="\\"))
    rows = session.scalars(
        select(Dataset)
        .where(*scope)
        .order_by(*ORDER[sort], Dataset.id.desc())
        .limit(limit)
        .offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(Dataset).where(*scope)) or 0
    return list(rows), total


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# datasets without the figure (not ingested yet) sort last whichever the direction
ORDER: dict[DatasetSort, tuple[Any, ...]] = {
    DatasetSort.newest: (),
    DatasetSort.oldest: (Dataset.id.asc(),),
    DatasetSort.name: (func.lower(Dataset.name).asc(),),
    DatasetSort.requests: (Dataset.request_count.desc().nulls_last(),),
    DatasetSort.span: (Dataset.span_s.desc().nulls_last(),),
    DatasetSort.size: (Dataset.size_bytes.desc(),),
}


def by_sha256(session: Session, workspace_id: int, sha256: str) -> Dataset | None:
    return session.scalar(
        select(Dataset).where(Dataset.workspace_id == workspace_id, Dataset.sha256 == sha256)
    )
