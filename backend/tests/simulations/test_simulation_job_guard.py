"""A simulation's job body under the shared derived-result guard: each kind of error ends
its job with the same code and message as before, a transient error and a lost job go on
to the runner, a cancel stops the job quietly."""

import pytest
from simulations.scenarios import mm1

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import StorageError
from headroom.engine.logs import LogInputError
from headroom.engine.sim import ScenarioError
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.runner import JobContext, run_job
from headroom.simulations import run
from headroom.simulations.run import Plan, simulation_body
from headroom.simulations.sweep import SweepError
from support.factories import member, signed_in

UNEXPECTED = "unexpected error:"


def queued_job(settings: Settings) -> int:
    client = signed_in(settings, member(settings, "guard@example.com", "Sim"))
    created = client.post("/api/v1/simulations", json={"name": "g", "scenario": mm1()})
    assert created.status_code == 202, created.text
    job_id: int = created.json()["job"]["id"]
    return job_id


def job_of(settings: Settings, job_id: int) -> Job:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        assert job is not None
        session.expunge(job)
        return job


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [
        (ScenarioError("workload.rate: must be positive"), "invalid_scenario", None),
        (SweepError("sweep.path", "no such field"), "invalid_scenario", None),
        (KeyError("tiers"), "invalid_scenario", "'tiers'"),
        (StorageError("the bucket is gone"), "storage_error", None),
        (LogInputError("empty_log", "no requests"), "empty_log", "no requests"),
        (
            RuntimeError("disk on fire"),
            "internal_error",
            f"{UNEXPECTED} RuntimeError: disk on fire",
        ),
    ],
)
def test_an_error_in_the_run_fails_its_job_with_its_code(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    code: str,
    message: str | None,
) -> None:
    job_id = queued_job(settings)

    def failing(context: JobContext, plan: Plan) -> None:
        raise error

    monkeypatch.setattr(run, "run_inline", failing)
    assert run_job(settings, job_id, simulation_body)
    job = job_of(settings, job_id)
    assert job.status == JobStatus.failed and job.stage == "failed"
    assert job.error_code == code
    assert job.error_message == (str(error) if message is None else message)


def test_a_transient_error_goes_on_to_the_runner(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    job_id = queued_job(settings)

    def unreachable(context: JobContext, plan: Plan) -> None:
        raise ConnectionError("database restarting")

    monkeypatch.setattr(run, "run_inline", unreachable)
    assert run_job(settings, job_id, simulation_body)  # no retry given: the runner gives up
    job = job_of(settings, job_id)
    assert job.status == JobStatus.failed and job.error_code == "transient_error"
    assert job.error_message == "gave up after 1 attempts: database restarting"


def test_a_lost_job_is_left_to_its_new_holder(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    job_id = queued_job(settings)

    def taken_over(context: JobContext, plan: Plan) -> None:
        with session_scope(settings.resolved_database_url()) as session:
            job = session.get(Job, job_id)
            assert job is not None
            job.worker = "another worker"
        raise job_service.JobLost("taken over")

    monkeypatch.setattr(run, "run_inline", taken_over)
    assert run_job(settings, job_id, simulation_body)
    job = job_of(settings, job_id)
    assert job.status == JobStatus.running and job.worker == "another worker"
    assert job.error_code is None


def test_a_cancel_stops_the_job_quietly(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    job_id = queued_job(settings)

    def cancelled(context: JobContext, plan: Plan) -> None:
        with session_scope(settings.resolved_database_url()) as session:
            job = session.get(Job, job_id)
            assert job is not None
            job.status = JobStatus.cancelled
        raise run.SimulationCancelled(f"job {job_id} was cancelled")

    monkeypatch.setattr(run, "run_inline", cancelled)
    assert run_job(settings, job_id, simulation_body)
    job = job_of(settings, job_id)
    assert job.status == JobStatus.cancelled and job.error_code is None
