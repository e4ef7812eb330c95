"""Live datasets: a dataset that receivers append to instead of one upload. Each append
writes a Parquet part of the same request table an upload's ingest writes, keeps the parts
of the last RETENTION (by the data's own timestamps), merges parts once there are many,
and re-summarises, so every tab of the dataset reads it like an uploaded log.

A live dataset has one ingest job, recorded as succeeded when it is made; the job's Result
holds the summary and the part keys (what the dataset pages and analyses read), so the
janitor keeps the parts. Appends to one dataset run one at a time: its row is locked
(PostgreSQL) and, in one API process, a lock per dataset covers SQLite."""

import hashlib
import threading
import uuid
from datetime import UTC, datetime, timedelta
from typing import Final

import polars as pl
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.storage import ObjectStore
from headroom.datasets.ingest_outputs import (
    RejectJson,
    SummaryJson,
    parts_prefix,
    record_list_fields,
)
from headroom.datasets.meta import DatasetMetaJson, live_of, updated
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.datasets.service import INGEST
from headroom.engine.logs import Reject
from headroom.engine.workload.traffic import summarize
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus, Result
from headroom.telemetry import repository

LIVE: Final = "live"  # the dataset's meta key (datasets.meta.LiveMetaJson)
RETENTION = timedelta(days=7)
COMPACT_AFTER_PARTS = 64
LINKS_JOB = "otlp.links"  # a second job whose Result keeps the span links' parts
_locks: dict[int, threading.Lock] = {}
_locks_guard = threading.Lock()


def identity(kind: str, name: str) -> str:
    """The digest that names a live dataset in its workspace (its `sha256` column)."""
    return hashlib.sha256(f"live:{kind}:{name}".encode()).hexdigest()


def find(session: Session, workspace_id: int, kind: str, name: str) -> Dataset | None:
    return repository.by_identity(session, workspace_id, identity(kind, name))


def get_or_create(
    session: Session,
    principal: Principal,
    workspace_id: int,
    kind: str,
    name: str,
    meta: DatasetMetaJson,
    fmt: str | None,
) -> tuple[Dataset, bool]:
    """The workspace's live dataset of this kind and name, made when missing."""
    found = find(session, workspace_id, kind, name)
    if found is not None:
        return found, False
    dataset = Dataset(
        workspace_id=workspace_id,
        name=name,
        size_bytes=0,
        sha256=identity(kind, name),
        format=fmt,
        storage_key="",
        status=DatasetStatus.uploaded,
        uploaded_by_id=principal.user.id,
        meta=updated(meta, live={"kind": kind, "updated_at": None}),
    )
    try:
        with session.begin_nested():
            session.add(dataset)
            session.flush()
    except IntegrityError:  # made by a concurrent request just now
        raced = find(session, workspace_id, kind, name)
        if raced is None:
            raise
        return raced, False
    dataset.storage_key = f"datasets/{dataset.id}/live"
    _succeeded_job(session, dataset, INGEST)
    return dataset, True


def _succeeded_job(session: Session, dataset: Dataset, kind: str) -> Job:
    job = job_service.create(session, dataset.workspace_id, kind, dataset.id)
    job.status, job.stage, job.progress, job.sent_at = (
        JobStatus.succeeded,
        LIVE,
        1.0,
        job.created_at,
    )
    job.finished_at = job_service.now_utc()
    return job


def dataset_lock(dataset_id: int) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(dataset_id, threading.Lock())


def append(
    session: Session,
    store: ObjectStore,
    dataset: Dataset,
    requests: pl.DataFrame,
    size_bytes: int,
    rejects: tuple[int, list[Reject]] = (0, []),
) -> SummaryJson:
    """Append a table of requests (the caller holds `dataset_lock`); returns the new summary
    document. An empty table changes nothing but the receive time."""
    job_service.lock_dataset(session, dataset.id, for_update=True)
    session.refresh(dataset)
    result = _result(session, dataset, INGEST)
    keys = list(result.table_keys or [])
    if requests.height:
        keys.append(write_part(store, parts_prefix(dataset.id), requests))
        keys = _compacted(store, dataset.id, _retained(keys))
    dataset.size_bytes += size_bytes
    live = live_of(dataset.meta)
    live["updated_at"] = _now_iso()
    dataset.meta = updated(dataset.meta, live=live)
    if not keys:
        return dict(result.document or {})
    document = summary_document(store, keys, dataset, rejects, result.document or {})
    result.document, result.table_keys = document, keys
    dataset.status = DatasetStatus.ready
    record_list_fields(dataset, document)
    return document


def append_links(
    session: Session, store: ObjectStore, dataset: Dataset, links: pl.DataFrame
) -> None:
    """Keep the span links (non-request spans) beside the requests, with the same retention."""
    if not links.height:
        return
    result = _result(session, dataset, LINKS_JOB)
    prefix = f"datasets/{dataset.id}/links"
    stamped = links.with_columns(
        pl.from_epoch(pl.col("start_ns"), "ns").dt.replace_time_zone("UTC").alias("ts")
    )
    keys = _retained([*(result.table_keys or []), write_part(store, prefix, stamped)])
    if len(keys) > COMPACT_AFTER_PARTS:
        keys = [write_part(store, prefix, store.scan_parquet(keys).collect())]
    result.table_keys = keys
    result.document = {"dataset_id": dataset.id, "parts": len(keys)}


def _result(session: Session, dataset: Dataset, job_kind: str) -> Result:
    """The Result of the dataset's job of `job_kind` (made with the job when missing)."""
    result = repository.result_of_kind(session, dataset.id, job_kind)
    if result is not None:
        return result
    job = repository.latest_job(session, dataset.id, job_kind) or _succeeded_job(
        session, dataset, job_kind
    )
    result = Result(
        job_id=job.id,
        dataset_id=dataset.id,
        kind=_result_kind(job_kind),
        document={},
        table_keys=[],
    )
    session.add(result)
    session.flush()
    return result


def _result_kind(job_kind: str) -> str:
    return "traffic_summary" if job_kind == INGEST else "span_links"


def write_part(store: ObjectStore, prefix: str, table: pl.DataFrame) -> str:
    """A part named by its newest timestamp (retention reads it from the name)."""
    newest = table["ts"].max()
    stamp = int(newest.timestamp() * 1e9) if isinstance(newest, datetime) else 0
    key = f"{prefix}/live-{stamp:020d}-{uuid.uuid4().hex[:12]}.parquet"
    with store.writer(key) as handle:
        table.sort("ts").write_parquet(handle, compression="zstd", statistics=True)
    return key


def _stamp(key: str) -> int:
    name = key.rsplit("/", 1)[-1]
    try:
        return int(name.split("-")[1])
    except (IndexError, ValueError):
        return 0


def _retained(keys: list[str]) -> list[str]:
    """The parts with data newer than RETENTION before the newest; the rest are left to the
    janitor (no Result owns them once this commits)."""
    newest = max((_stamp(k) for k in keys), default=0)
    oldest = newest - int(RETENTION.total_seconds() * 1e9)
    return [k for k in keys if _stamp(k) >= oldest]


def _compacted(store: ObjectStore, dataset_id: int, keys: list[str]) -> list[str]:
    if len(keys) <= COMPACT_AFTER_PARTS:
        return keys
    return [write_part(store, parts_prefix(dataset_id), store.scan_parquet(keys).collect())]


def summary_document(
    store: ObjectStore,
    keys: list[str],
    dataset: Dataset,
    rejects: tuple[int, list[Reject]],
    previous: SummaryJson,
) -> SummaryJson:
    """The traffic summary of all kept parts, with the parse figures of every append so far."""
    count, kept = rejects
    earlier = list(previous.get("rejects") or [])
    document = summarize(store.scan_parquet(keys)).model_dump(mode="json")
    detection = dataset.meta.get("detection") if dataset.meta else None
    confidence = detection.get("confidence") if detection else None
    document.update(
        dataset_id=dataset.id,
        format=dataset.format or "",
        format_confidence=float(confidence or 1.0),
        rejected_count=int(previous.get("rejected_count") or 0) + count,
        skipped_count=0,
        rejects=(earlier + [_reject(r) for r in kept])[:20],
        notes=list(detection.get("notes") or []) if detection else [],
    )
    return document


def _reject(reject: Reject) -> RejectJson:
    return {"line_number": reject.line_number, "reason": reject.reason, "text": reject.text}


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()
