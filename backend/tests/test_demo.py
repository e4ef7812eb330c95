"""`headroom demo` (what `make run` calls): a ready workspace, and safe to run again."""

from sqlalchemy import func, select

from headroom.analyses.models import Analysis
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset
from headroom.demo import seed_demo
from headroom.jobs.models import Job


def test_demo_seeds_two_ready_datasets_and_an_analysis_and_is_idempotent(
    settings: Settings,
) -> None:
    seed_demo(settings, "demo@example.com", "demo-password", None)
    seed_demo(settings, "demo@example.com", "demo-password", None)
    with session_scope(settings.resolved_database_url()) as session:
        datasets = list(session.scalars(select(Dataset).order_by(Dataset.id)))
        assert [d.status for d in datasets] == ["ready", "ready"]
        assert session.scalar(select(func.count()).select_from(Job)) == 3
        analysis = session.scalars(select(Analysis)).one()
        job = session.get(Job, analysis.job_id)
        assert job is not None and job.status == "succeeded"
