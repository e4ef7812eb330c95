"""All characterization SQL beyond what every derived result shares
(jobs.repository.derived_*)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.characterizations.models import Characterization, DatasetRules


def by_rules(session: Session, dataset_id: int, rules_key: str) -> Characterization | None:
    return session.scalar(
        select(Characterization).where(
            Characterization.dataset_id == dataset_id, Characterization.rules_key == rules_key
        )
    )


def rules_of(session: Session, dataset_id: int) -> DatasetRules | None:
    return session.get(DatasetRules, dataset_id)
