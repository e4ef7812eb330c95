"""Removes stored objects no row owns: Parquet parts of a dataset deleted during its ingest
or of a failed ingest, staging files of uploads that never completed (a crash, an expired
upload), runs of deleted simulations, and temp files of interrupted writes.

Ownership, by key:
- datasets/<id>/upload/...   the dataset's row (its storage_key)
- datasets/<id>/requests/... a result's table keys, or any object of a dataset whose ingest
                             is queued or running (its parts are being written)
- simulations/job-<id>/...   the job's row
- uploads/partial/<id>       the upload's row
- uploads/chunks/<id>/...    the upload's row (its storage_key uploads/partial/<id>)
- uploads/staging/...        nothing: staging is transient (a request moves it on)
- the parts of an upload being assembled at uploads/partial/<id> (store.write_part): the
  upload's row; its workspace deleted (a cascade) or a crash in the expiry leaves them
  unowned, and they are aborted.
Objects changed within the grace period are never removed, so a write in flight is safe
(parts: last written, or on S3 started, within it).
"""

import logging
import re
import time
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.models import Dataset
from headroom.jobs.models import Job, JobStatus, Result
from headroom.uploads.models import Upload

log = logging.getLogger(__name__)
PREFIXES = ("datasets", "simulations", "uploads")
DATASET_KEY = re.compile(r"datasets/(\d+)/")
SIMULATION_KEY = re.compile(r"simulations/job-(\d+)/")
UPLOAD_CHUNK_KEY = re.compile(r"uploads/chunks/([^/]+)/")
UPLOADS_PREFIX = "uploads"


@dataclass(frozen=True)
class Sweep:
    removed_keys: tuple[str, ...]
    removed_bytes: int
    aborted_parts_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Owners:
    keys: frozenset[str]  # owned exactly
    datasets_in_flight: frozenset[int]  # every object of these datasets is owned
    datasets: frozenset[int]
    jobs: frozenset[int]


def owners(session: Session) -> Owners:
    keys = set(session.scalars(select(Dataset.storage_key)))
    keys |= set(session.scalars(select(Upload.storage_key)))
    for table_keys in session.scalars(select(Result.table_keys)):
        keys |= set(table_keys or [])
    in_flight = session.scalars(
        select(Job.dataset_id).where(
            Job.status.in_([JobStatus.queued, JobStatus.running]), Job.dataset_id.is_not(None)
        )
    )
    return Owners(
        keys=frozenset(keys),
        datasets_in_flight=frozenset(int(d) for d in in_flight if d is not None),
        datasets=frozenset(session.scalars(select(Dataset.id))),
        jobs=frozenset(session.scalars(select(Job.id))),
    )


def owned(key: str, who: Owners) -> bool:
    if key in who.keys:
        return True
    dataset = DATASET_KEY.match(key)
    if dataset:
        return int(dataset.group(1)) in who.datasets_in_flight
    simulation = SIMULATION_KEY.match(key)
    if simulation:
        return int(simulation.group(1)) in who.jobs
    chunk = UPLOAD_CHUNK_KEY.match(key)
    if chunk:
        return f"uploads/partial/{chunk.group(1)}" in who.keys
    return False


def sweep(settings: Settings, grace_s: float | None = None) -> Sweep:
    """One pass: lists the objects first, then the owners (an object written between the
    two is younger than the grace period, so it is kept)."""
    grace_s = settings.janitor_grace_s if grace_s is None else grace_s
    store = open_store(settings.resolved_storage_url())
    cutoff = time.time() - grace_s
    candidates = [key for key in _all_keys(store) if store.modified_at(key) <= cutoff]
    parts_keys = store.parts_keys(UPLOADS_PREFIX, cutoff)
    if not candidates and not parts_keys:
        return Sweep((), 0)
    with session_scope(settings.resolved_database_url()) as session:
        who = owners(session)
    aborted = _abort_unowned_parts(store, parts_keys, who)
    removed, removed_bytes = [], 0
    for key in candidates:
        if owned(key, who):
            continue
        try:
            size = store.size_bytes(key)
        except FileNotFoundError:  # removed meanwhile (a dataset deleted just now)
            continue
        store.delete(key)
        removed.append(key)
        removed_bytes += size
    if removed:
        log.warning("janitor removed %s unowned objects (%s bytes)", len(removed), removed_bytes)
    store.prune_empty_folders(cutoff)
    return Sweep(tuple(removed), removed_bytes, aborted)


def _abort_unowned_parts(
    store: ObjectStore, parts_keys: tuple[str, ...], who: Owners
) -> tuple[str, ...]:
    aborted = tuple(key for key in parts_keys if key not in who.keys)
    for key in aborted:
        store.abort_parts(key)
    if aborted:
        log.warning("janitor aborted the parts of %s uploads no row owns", len(aborted))
    return aborted


def _all_keys(store: ObjectStore) -> list[str]:
    return [key for prefix in PREFIXES for key in store.list(prefix)]
