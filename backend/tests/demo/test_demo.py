"""`headroom demo` (what `make run` calls): a ready workspace, and safe to run again."""

from collections import Counter

from sqlalchemy import select

from headroom.analyses.models import Analysis
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset
from headroom.demo.samples import TRACE_NAME
from headroom.demo.seed import DEFAULT_SAMPLE, seed_demo
from headroom.jobs import repository as job_repository
from headroom.jobs.models import Job
from headroom.jobs.runner import run_job
from headroom.simulations.demo_runs import BARE_PREFIX, QUEUED_PREFIX, SWEEP_PREFIX
from headroom.simulations.models import SimulationRun
from headroom.simulations.run import simulation_body


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


def test_demo_policy_runs_come_from_the_demo_dataset_and_have_results(settings: Settings) -> None:
    """The policy pages' runs are built from the sample log's characterization (named for
    it, with the scaling stated) and, run as the worker runs them, have results: the
    sweep's 20 rows with per-class figures, the queue's discovery with nothing dropped."""
    seed_demo(settings, "demo-runs@example.com", "demo-password", None)
    with session_scope(settings.resolved_database_url()) as session:
        runs = list(session.scalars(select(SimulationRun).order_by(SimulationRun.id)))
        named = [(r.name, r.job_id) for r in runs]
    prefixes = [SWEEP_PREFIX, QUEUED_PREFIX, BARE_PREFIX]
    assert [n.split("· ")[0] + "· " for n, _ in named] == prefixes
    assert all(DEFAULT_SAMPLE.name in n and "busiest hour" in n for n, _ in named)
    results = []
    for _, job_id in named:
        run_job(settings, job_id, simulation_body)
        with session_scope(settings.resolved_database_url()) as session:
            job = session.get(Job, job_id)
            assert job is not None and job.status == "succeeded", job and job.error_message
            stored = job_repository.result_for_job(session, job_id)
            assert stored is not None
            results.append(stored.document)
    sweep, queued, bare = results
    assert len(sweep["runs"]) == 20 and all(len(r["classes"]) == 4 for r in sweep["runs"])
    assert queued["admission"]["dropped"] == 0
    assert queued["admission"]["capacity_estimate_per_s"] is not None
    assert bare["admission_series"] is None
