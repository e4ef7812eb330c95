"""The policy pages' demo runs, run as `headroom demo` runs them (shortened, from a small
characterization; test_demo.py runs them from the demo dataset's own): the sweep's rows
carry per-class figures for the four policies at every load (StaticPart's K constant at
the engine's formula for the derived limits), the queue run its discovery series and the
run without a stage none; created once per workspace."""

from typing import Any

from headroom.auth.models import User
from headroom.auth.principal import Caller, Principal
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.engine.capacity.partitions import static_partition
from headroom.jobs import repository as job_repository
from headroom.jobs.models import Job
from headroom.jobs.runner import run_job
from headroom.simulations import class_presets
from headroom.simulations.demo_runs import create_missing, demo_runs
from headroom.simulations.run import simulation_body
from headroom.workspaces.models import Role
from support.factories import member

CHARACTERIZATION: dict[str, Any] = {
    "classes": {"request": {"static": 0.5, "dynamic": 0.5}, "user": {"normal": 1.0}},
    "latency_by_class": {},
    "model": {
        "profile_step_s": 3600.0,
        "duration_s": 6 * 3600.0,
        "classes": [
            {
                "name": "normal",
                "profile": [[i * 3600.0, r] for i, r in enumerate([2, 3, 5, 4, 1, 3])],
            }
        ],
    },
}


def test_demo_policy_runs(settings: Settings) -> None:
    who = member(settings, "demo-policies@example.com", "Demo")
    with session_scope(settings.resolved_database_url()) as session:
        user = session.get(User, who.user_id)
        assert user is not None
        principal = Principal(user=Caller.of(user), roles={who.workspace_id: Role.owner})
    runs = demo_runs(CHARACTERIZATION, "log", class_duration_s=60)
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
    loads = runs[0].sweep["second"]["values"] if runs[0].sweep else []
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
    limits = runs[0].sweep["values"][-1] if runs[0].sweep else {}
    k = static_partition(6, 0.2, limits["maxconn_sla"], limits["maxconn"]).k
    assert (limits["maxconn_sla"], limits["maxconn"], k) == (5, 10, 4)  # the 50/50 preset's
    assert all(
        r["admission"]["k_min"] == r["admission"]["k_max"] == k
        for r in sweep["runs"]
        if r["values"]["admission"]["policy"] == "static_part"
    )
    assert queued["admission_series"]["kind"] == "virtual_queue"
    assert queued["admission"]["dropped"] == 0
    assert bare["admission_series"] is None
