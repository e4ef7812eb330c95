"""The demo workspace: a user, a workspace, a real sample log, a synthetic log with
response times and a synthetic latency trace (so the capacity and concurrency views have
something to show), each analysed in-process; the two logs' workloads characterized."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import click

from headroom.admin import ensure_workspace
from headroom.analyses import service as analyses_service
from headroom.analyses.run import capacity_body
from headroom.analyses.schemas import CapacityParamsIn, SctParamsIn
from headroom.auth import repository as auth_repository
from headroom.auth import service as auth_service
from headroom.auth.principal import Caller, Principal
from headroom.characterizations import service as characterizations_service
from headroom.characterizations.parts import characterize_body
from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError
from headroom.core.settings import REPO_ROOT, Settings
from headroom.core.storage import open_store
from headroom.datasets import service as dataset_service
from headroom.datasets import staging
from headroom.datasets.models import Dataset
from headroom.datasets.sniffing import sniff_file
from headroom.demo.samples import SYNTHETIC_NAME, TRACE_NAME, synthetic_log, synthetic_trace
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.outbox import enqueue
from headroom.jobs.runner import Body, ingest_body, run_job
from headroom.simulations import demo_runs, scenarios
from headroom.simulations.service import SIM_TASK
from headroom.workspaces.models import Membership, Role

DEMO_WORKSPACE = "Demo"
DEFAULT_SAMPLE = REPO_ROOT / "data" / "logs" / "apache_combined_elastic.log"


def seed_demo(settings: Settings, email: str, password: str, sample: Path | None) -> str:
    sample = sample or DEFAULT_SAMPLE
    principal, workspace_id = _demo_member(settings, email, password)
    sample_id = _add_log(settings, principal, workspace_id, sample.name, sample.read_bytes())
    synthetic_id = _add_log(
        settings, principal, workspace_id, SYNTHETIC_NAME, synthetic_log(), synthetic=True
    )
    _analyse(settings, principal, synthetic_id, CapacityParamsIn())
    trace_id = _add_log(
        settings, principal, workspace_id, TRACE_NAME, synthetic_trace(), synthetic=True
    )
    _analyse(settings, principal, trace_id, SctParamsIn())
    for dataset_id in (sample_id, synthetic_id):
        _characterize(settings, principal, dataset_id)
    # The policy pages' simulations (a 20-run sweep and a pair, from the sample log's
    # characterization) go to the worker: the app comes up at once and the pages show
    # their progress instead of delaying the start.
    runs = _policy_runs(settings, sample_id)
    for job_id in demo_runs.create_missing(settings, principal, workspace_id, runs):
        enqueue(settings, SIM_TASK, job_id)
    return f"{sample.name}, {SYNTHETIC_NAME} and {TRACE_NAME}"


def _demo_member(settings: Settings, email: str, password: str) -> tuple[Principal, int]:
    with session_scope(settings.resolved_database_url()) as session:
        user = auth_repository.user_by_email(session, email) or auth_service.create_user(
            session, email, password, name="Demo user"
        )
        workspace = ensure_workspace(session, DEMO_WORKSPACE)
        memberships = auth_repository.memberships_of(session, user.id)
        if not any(m.workspace_id == workspace.id for m in memberships):
            session.add(Membership(user_id=user.id, workspace_id=workspace.id, role="owner"))
            session.flush()
        return Principal(user=Caller.of(user), roles={workspace.id: Role.owner}), workspace.id


def _add_log(
    settings: Settings,
    principal: Principal,
    workspace_id: int,
    name: str,
    data: bytes,
    synthetic: bool = False,
) -> int:
    """Upload and ingest a log (or find it, when the same bytes are already there)."""
    store = open_store(settings.resolved_storage_url())
    staged = asyncio.run(staging.stage(store, _chunks(data), name, settings.max_upload_bytes))
    with session_scope(settings.resolved_database_url()) as session:
        sniffed = sniff_file(store.url, staged.key)
        dataset, job = dataset_service.register_upload(
            session, store, principal, workspace_id, staged, sniffed
        )
        dataset.synthetic = synthetic
        dataset_id, job_id = dataset.id, (job.id if job else None)
    _run(settings, job_id, ingest_body, f"the demo log {name} failed to ingest")
    return dataset_id


def _analyse(
    settings: Settings,
    principal: Principal,
    dataset_id: int,
    params: CapacityParamsIn | SctParamsIn,
) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        _, job = analyses_service.create(session, principal, dataset_id, params)
        job_id = job.id if job else None
    _run(settings, job_id, capacity_body, f"the demo {params.kind} analysis failed")


def _characterize(settings: Settings, principal: Principal, dataset_id: int) -> None:
    """The workload characterization under the dataset's rules, as the dataset page shows."""
    with session_scope(settings.resolved_database_url()) as session:
        _, job = characterizations_service.create(session, principal, dataset_id, None)
        job_id = job.id if job else None
    _run(settings, job_id, characterize_body, "the demo workload characterization failed")


def _policy_runs(settings: Settings, dataset_id: int) -> list[demo_runs.DemoRun]:
    """The policy pages' runs from the sample's characterization; none (with a warning)
    when a custom sample's model gives no scenario (e.g. no arrivals)."""
    with session_scope(settings.resolved_database_url()) as session:
        dataset = session.get(Dataset, dataset_id)
        name = dataset.name if dataset is not None else f"dataset {dataset_id}"
        try:
            return demo_runs.demo_runs(scenarios.characterization(session, dataset_id), name)
        except (HeadroomError, KeyError, ValueError) as error:
            click.echo(f"warning: no policy demo runs from {name}: {error}", err=True)
            return []


def _run(settings: Settings, job_id: int | None, body: Body, failure: str) -> None:
    if job_id is None:
        return
    run_job(settings, job_id, body)
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is not None and job.status != JobStatus.succeeded:
            raise click.ClickException(f"{failure}: {job.error_message}")


async def _chunks(data: bytes) -> AsyncIterator[bytes]:
    for start in range(0, len(data), 1 << 20):
        yield data[start : start + (1 << 20)]
