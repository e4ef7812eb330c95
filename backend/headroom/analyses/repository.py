"""All analysis SQL beyond what every derived result shares (jobs.repository.derived_*)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.analyses.models import Analysis


def by_params(session: Session, dataset_id: int, kind: str, params_key: str) -> Analysis | None:
    return session.scalar(
        select(Analysis).where(
            Analysis.dataset_id == dataset_id,
            Analysis.kind == kind,
            Analysis.params_key == params_key,
        )
    )
