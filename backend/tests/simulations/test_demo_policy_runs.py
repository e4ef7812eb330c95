"""The policy pages' demo runs, run as `headroom demo` runs them (shortened): the sweep's rows
carry per-class figures for the four policies at every load (StaticPart's K constant at the
hand-worked 4), the queue run its discovery series and the run without a stage none;
created once per workspace."""

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs import repository as job_repository
from headroom.jobs.models import Job
from headroom.jobs.runner import run_job
from headroom.simulations import class_presets
from headroom.simulations.demo_runs import create_missing, demo_runs
from headroom.simulations.run import simulation_body
from headroom.workspaces.models import Role
from support.factories import member


def test_demo_policy_runs(settings: Settings) -> None:
    who = member(settings, "demo-policies@example.com", "Demo")
    with session_scope(settings.resolved_database_url()) as session:
        user = session.get(User, who.user_id)
        assert user is not None
        principal = Principal(user=user, roles={who.workspace_id: Role.owner})
    runs = demo_runs(class_duration_s=60, queue_duration_s=300)
    jobs = create_missing(settings, principal, who.workspace_id, runs)
    assert len(jobs) == 3
    assert create_missing(settings, principal, who.workspace_id, runs) == []  # once
    documents = []
    for job_id in jobs:
        run_job(settings, job_id, simulation_body)
        with session_scope(settings.resolved_database_url()) as session:
            job = session.get(Job, job_id)
            assert job is not None and job.status == "succeeded", job and job.error_message
            result = job_repository.result_for_job(session, job_id)
            assert result is not None
            documents.append(result.document)
    sweep, queued, bare = documents
    loads = class_presets.CLASS_POLICIES_LOADS_PER_S
    assert len(sweep["runs"]) == 4 * len(loads)
    policies = {
        (r["values"]["admission"]["policy"], r["values"]["workload.arrivals.rate_per_s"])
        for r in sweep["runs"]
    }
    assert policies == {(p, load) for p in class_presets.CLASS_POLICIES for load in loads}
    for row in sweep["runs"]:
        assert set(row["classes"]) == {
            "static_top",
            "static_normal",
            "dynamic_top",
            "dynamic_normal",
        }
    assert all(
        r["admission"]["k_min"] == r["admission"]["k_max"] == 4
        for r in sweep["runs"]
        if r["values"]["admission"]["policy"] == "static_part"
    )
    assert queued["admission_series"]["kind"] == "virtual_queue"
    assert queued["admission"]["dropped"] == 0
    assert bare["admission_series"] is None
