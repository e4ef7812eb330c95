"""The demo workspace: a user, a workspace and a real sample log, analysed in-process."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import click

from headroom.admin import ensure_workspace
from headroom.auth import repository as auth_repository
from headroom.auth import service as auth_service
from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.settings import REPO_ROOT, Settings
from headroom.core.storage import open_store
from headroom.datasets import service as dataset_service
from headroom.datasets import uploads
from headroom.datasets.sniffing import sniff_file
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Membership, Role

DEMO_WORKSPACE = "Demo"
DEFAULT_SAMPLE = REPO_ROOT / "data" / "logs" / "apache_combined_elastic.log"


def seed_demo(settings: Settings, email: str, password: str, sample: Path | None) -> str:
    sample = sample or DEFAULT_SAMPLE
    store = open_store(settings.resolved_storage_url())
    staged = asyncio.run(
        uploads.stage(store, _file_chunks(sample), sample.name, settings.max_upload_bytes)
    )
    with session_scope(settings.resolved_database_url()) as session:
        user = auth_repository.user_by_email(session, email) or auth_service.create_user(
            session, email, password, name="Demo user"
        )
        workspace = ensure_workspace(session, DEMO_WORKSPACE)
        if not any(
            m.workspace_id == workspace.id for m in auth_repository.memberships_of(session, user.id)
        ):
            session.add(Membership(user_id=user.id, workspace_id=workspace.id, role="owner"))
            session.flush()
        principal = Principal(user=user, roles={workspace.id: Role.owner})
        sniffed = sniff_file(str(store.local_path(staged.key)))
        dataset, job = dataset_service.register_upload(
            session, store, principal, workspace.id, staged, sniffed
        )
        job_id = job.id if job else None
    if job_id is not None:
        run_job(settings, job_id, ingest_body)
        _raise_if_failed(settings, job_id)
    return dataset.name


def _raise_if_failed(settings: Settings, job_id: int) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is not None and job.status != JobStatus.succeeded:
            raise click.ClickException(f"the demo log failed to ingest: {job.error_message}")


async def _file_chunks(path: Path) -> AsyncIterator[bytes]:
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            yield chunk
