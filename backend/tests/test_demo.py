"""`headroom demo` (what `make run` calls): a ready workspace, and safe to run again."""

from collections import Counter

from sqlalchemy import select

from headroom.analyses.models import Analysis
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset
from headroom.demo import TRACE_NAME, seed_demo
from headroom.jobs import repository as job_repository
from headroom.jobs.models import Job


def test_demo_seeds_three_ready_datasets_and_two_analyses_and_is_idempotent(
    settings: Settings,
) -> None:
    seed_demo(settings, "demo@example.com", "demo-password", None)
    seed_demo(settings, "demo@example.com", "demo-password", None)
    with session_scope(settings.resolved_database_url()) as session:
        datasets = list(session.scalars(select(Dataset).order_by(Dataset.id)))
        assert [d.status for d in datasets] == ["ready", "ready", "ready"]
        assert datasets[2].name == TRACE_NAME and (datasets[2].format or "").startswith("trace_csv")
        kinds = Counter(session.scalars(select(Job.kind)))  # each job ran once: idempotent
        assert (kinds["logs.ingest"], kinds["capacity.analyze"]) == (3, 2)
        # the policy pages' three simulations wait for the worker (queued once, not run here)
        sims = list(session.scalars(select(Job).where(Job.kind == "sim.run")))
        assert [j.status for j in sims] == ["queued"] * 3
        analyses = list(session.scalars(select(Analysis).order_by(Analysis.id)))
        assert [a.kind for a in analyses] == ["capacity", "sct"]
        for analysis in analyses:
            job = session.get(Job, analysis.job_id)
            assert job is not None and job.status == "succeeded"
        sct = job_repository.result_for_job(session, analyses[1].job_id or 0)
        assert sct is not None
        servers = sct.document["servers"]
        # the simulated best pool sizes are 10 (app-1) and 20 (app-2); the SCT fit puts the
        # rounded kink within 2 levels (test_cap_sct states why)
        assert abs(servers["app-1"]["q_lower"] - 10) <= 2
        assert abs(servers["app-2"]["q_lower"] - 20) <= 2
