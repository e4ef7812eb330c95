"""Live datasets: a dataset that receivers append to instead of one upload. Each append
writes a Parquet part of the same request table an upload's ingest writes, keeps the parts
of the last RETENTION (by the data's own timestamps), merges parts once there are many,
and keeps its summary current, so every tab of the dataset reads it like an uploaded log.

The summary costs the size of the append: each part is reduced once, when written, to a
mergeable partial summary (engine.workload.summary_partial) stored beside it, and the
summary is made from the merge of the kept parts' partials, so retention drops a part's
contribution with it. Every figure is the one a summary of the whole kept table gives,
but the latency percentiles, which are a log-bucket sketch's, within a relative 1%.

A live dataset has one ingest job, recorded as succeeded when it is made; the job's Result
holds the summary and the part keys (what the dataset pages and analyses read), so the
janitor keeps the parts. Appends to one dataset run one at a time: its row is locked
(PostgreSQL) and, in one API process, a lock per dataset covers SQLite."""

import hashlib
import json
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
from headroom.engine.workload.summary_partial import (
    SummaryPartial,
    merge,
    partial_of,
    summary_of_parts,
)
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus, Result
from headroom.telemetry import repository

LIVE: Final = "live"  # the dataset's meta key (datasets.meta.LiveMetaJson)
RETENTION = timedelta(days=7)
COMPACT_AFTER_PARTS = 64
LINKS_JOB = "otlp.links"  # a second job whose Result keeps the span links' parts
PARTIALS_JOB = "live.partials"  # a third, whose Result keeps the parts' partial summaries
_RESULT_KINDS = {
    INGEST: "traffic_summary",
    LINKS_JOB: "span_links",
    PARTIALS_JOB: "summary_partials",
}
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
        key = write_part(store, parts_prefix(dataset.id), requests)
        write_partial(store, key, partial_of(requests))
        keys = _compacted(store, dataset.id, _retained([*keys, key]))
    dataset.size_bytes += size_bytes
    live = live_of(dataset.meta)
    live["updated_at"] = _now_iso()
    dataset.meta = updated(dataset.meta, live=live)
    if not keys:
        return dict(result.document or {})
    partials = [partial_for(store, k) for k in keys]
    _result(session, dataset, PARTIALS_JOB).table_keys = [partial_key(k) for k in keys]
    document = summary_document(store, keys, partials, dataset, rejects, result.document or {})
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
    return _RESULT_KINDS[job_kind]


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
    """One part of many; its partial the merge of theirs."""
    if len(keys) <= COMPACT_AFTER_PARTS:
        return keys
    merged = merge([partial_for(store, k) for k in keys])
    key = write_part(store, parts_prefix(dataset_id), store.scan_parquet(keys).collect())
    write_partial(store, key, merged)
    return [key]


def partial_key(part_key: str) -> str:
    """Where a part's partial summary is kept: beside the parts' folder."""
    folder, name = part_key.rsplit("/", 1)
    return f"{folder}-summaries/{name.removesuffix('.parquet')}.json"


def write_partial(store: ObjectStore, part_key: str, partial: SummaryPartial) -> None:
    with store.writer(partial_key(part_key)) as handle:
        handle.write(json.dumps(partial.to_json()).encode())


def partial_for(store: ObjectStore, part_key: str) -> SummaryPartial:
    """The part's partial summary; made from the part (once) when it has none yet (a part
    written before partials were kept)."""
    key = partial_key(part_key)
    if store.exists(key):
        with store.open(key) as handle:
            return SummaryPartial.from_json(json.loads(handle.read()))
    partial = partial_of(store.scan_parquet([part_key]).collect())
    write_partial(store, part_key, partial)
    return partial


def summary_document(
    store: ObjectStore,
    keys: list[str],
    partials: list[SummaryPartial],
    dataset: Dataset,
    rejects: tuple[int, list[Reject]],
    previous: SummaryJson,
) -> SummaryJson:
    """The traffic summary of all kept parts (from their partials), with the parse figures
    of every append so far."""
    count, kept = rejects
    earlier = list(previous.get("rejects") or [])
    summary = summary_of_parts(partials, lambda: store.scan_parquet(keys))
    document = summary.model_dump(mode="json")
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
