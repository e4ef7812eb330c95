"""All analysis SQL; reads are scoped by the caller's workspaces."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.analyses.models import Analysis


def visible(session: Session, workspace_ids: list[int], analysis_id: int) -> Analysis | None:
    return session.scalar(
        select(Analysis).where(Analysis.id == analysis_id, Analysis.workspace_id.in_(workspace_ids))
    )


def page_for_dataset(
    session: Session, dataset_id: int, limit: int, offset: int
) -> tuple[list[Analysis], int]:
    scope = Analysis.dataset_id == dataset_id
    rows = session.scalars(
        select(Analysis).where(scope).order_by(Analysis.id.desc()).limit(limit).offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(Analysis).where(scope)) or 0
    return list(rows), total


def by_params(session: Session, dataset_id: int, kind: str, params_key: str) -> Analysis | None:
    return session.scalar(
        select(Analysis).where(
            Analysis.dataset_id == dataset_id,
            Analysis.kind == kind,
            Analysis.params_key == params_key,
        )
    )


def by_job(session: Session, job_id: int) -> Analysis | None:
    return session.scalar(select(Analysis).where(Analysis.job_id == job_id))
