"""Completing a resumable upload, safe against a crash at any step and idempotent.

1. Read the upload (short transaction); finish its parts into one object (no byte of it
   read: the hash was kept as the chunks arrived) and sniff its first lines, holding no
   database connection.
2. One transaction: the dataset's row is created and recorded on the upload (or, for bytes
   already uploaded, the upload is marked complete with the existing dataset).
3. One transaction: the partial file is moved to the dataset's key, the ingest job is
   created and the upload marked complete.
A crash before 2 leaves the upload as it was; after 2 or during 3, the next /complete finds
the dataset recorded on the upload and the file either still at the partial key or already
at the dataset's, and finishes step 3. Nothing is copied to a staging key on the way.
A client that never comes back leaves a dataset without a job: the workers' reaper finishes
such completions (`finish_abandoned`), or removes the dataset when its bytes are gone."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from anyio import to_thread
from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError, NotFound
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore
from headroom.datasets import service as dataset_service
from headroom.datasets import staging
from headroom.datasets.models import Dataset
from headroom.datasets.schemas import DatasetOut
from headroom.datasets.sniffing import Sniffed
from headroom.datasets.staging import StagedUpload
from headroom.jobs import repository as job_repository
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.jobs.outbox import enqueue
from headroom.uploads import service
from headroom.uploads.models import Upload

ABANDONED_AFTER_S = 300.0  # a /complete still under way is long done by then


@dataclass(frozen=True)
class Completion:
    dataset: DatasetOut
    created: bool  # False: the upload was complete already, or its bytes were a dataset
    job_id: int | None  # the ingest job to send to the workers


async def complete(
    url: str, store: ObjectStore, principal: Principal, upload_id: str
) -> Completion:
    with session_scope(url) as session:
        upload = service.get_visible(session, principal, upload_id)
    if upload.dataset_id is None and upload.completed_at is not None:
        raise NotFound(f"the dataset of upload {upload_id} was deleted")
    if upload.dataset_id is None:
        staged = await to_thread.run_sync(service.staged_from, store, upload)
        sniffed = await _sniffed(url, store, principal, upload, staged)
        with session_scope(url) as session:
            _register(session, principal, upload_id, staged, sniffed)
    with session_scope(url) as session:
        return _finish(session, store, principal, upload_id)


async def complete_and_start(
    settings: Settings, store: ObjectStore, principal: Principal, upload_id: str
) -> Completion:
    """`complete`, then the ingest job it queued (if any) sent: its rows are committed."""
    done = await complete(settings.resolved_database_url(), store, principal, upload_id)
    if done.job_id is not None:
        enqueue(settings, dataset_service.INGEST, done.job_id)
    return done


async def _sniffed(
    url: str, store: ObjectStore, principal: Principal, upload: Upload, staged: StagedUpload
) -> Sniffed:
    try:
        return await staging.sniff(store, staged, service.options_of(upload))
    except HeadroomError:
        with session_scope(url) as session:  # refused: the bytes are gone, so is the upload
            service.discard(store, upload)
            session.delete(service.get_visible(session, principal, upload.id))
        raise


def _register(
    session: Session, principal: Principal, upload_id: str, staged: StagedUpload, sniffed: Sniffed
) -> None:
    upload = service.get_visible(session, principal, upload_id, for_update=True)
    if upload.dataset_id is not None:
        return  # another /complete got here first
    options = service.options_of(upload)
    dataset_service.require_upload_rights(principal, upload.workspace_id)
    existing = dataset_service.same_upload(session, upload.workspace_id, staged.sha256, options)
    if existing is not None:
        service.mark_complete(upload, existing.id)
        return
    meta = dataset_service.meta_of(sniffed, options)
    dataset = dataset_service.new_dataset(session, principal, upload.workspace_id, staged, meta)
    upload.dataset_id = dataset.id


def _finish(
    session: Session, store: ObjectStore, principal: Principal, upload_id: str
) -> Completion:
    upload = service.get_visible(session, principal, upload_id, for_update=True)
    if upload.dataset_id is None:
        raise NotFound(f"the dataset of upload {upload_id} was deleted")
    dataset = dataset_service.get_visible(session, principal, upload.dataset_id)
    if upload.completed_at is not None:
        store.delete(upload.storage_key)  # left by a crash after the upload was marked complete
        return Completion(dataset_service.to_out(session, dataset), False, None)
    job = _place_and_queue(session, store, upload, dataset)
    return Completion(dataset_service.to_out(session, dataset), True, job.id)


def _place_and_queue(session: Session, store: ObjectStore, upload: Upload, dataset: Dataset) -> Job:
    _place_file(store, upload, dataset)
    job = job_repository.latest_for_dataset(session, dataset.id, dataset_service.INGEST)
    if job is None:
        job = job_service.create(session, dataset.workspace_id, dataset_service.INGEST, dataset.id)
    service.mark_complete(upload, dataset.id)
    store.delete_prefix(service.chunks_prefix(upload.id))  # its hash state, no longer needed
    return job


def finish_abandoned(url: str, store: ObjectStore, older_than_s: float) -> list[int]:
    """Completions whose dataset was registered (step 2) more than older_than_s ago and whose
    client never came back for step 3: finished (the ingest job queued; its id returned), or,
    when the upload's bytes are gone, the dataset removed with the upload."""
    cutoff = datetime.now(UTC) - timedelta(seconds=older_than_s)
    with session_scope(url) as session:
        upload_ids = list(
            session.scalars(
                select(Upload.id)
                .join(Dataset, Upload.dataset_id == Dataset.id)
                .where(Upload.completed_at.is_(None), Dataset.created_at <= cutoff)
            )
        )
    job_ids = []
    for upload_id in upload_ids:
        with session_scope(url) as session:
            upload = session.scalar(select(Upload).where(Upload.id == upload_id).with_for_update())
            if upload is None or upload.completed_at is not None or upload.dataset_id is None:
                continue  # a /complete finished it meanwhile
            dataset = session.get_one(Dataset, upload.dataset_id)
            try:
                job_ids.append(_place_and_queue(session, store, upload, dataset).id)
            except service.UploadLost:
                session.delete(upload)
                session.delete(dataset)
    return job_ids


def _place_file(store: ObjectStore, upload: Upload, dataset: Dataset) -> None:
    if store.exists(upload.storage_key):
        store.move(upload.storage_key, dataset.storage_key)
    elif not store.exists(dataset.storage_key):
        raise service.UploadLost(
            f"the bytes of upload {upload.id} are gone from storage; start the upload again"
        )
