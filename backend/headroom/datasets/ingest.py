"""The ingest job: stream an uploaded log through the parser into a Parquet request table,
then summarise its traffic. Idempotent: a retry overwrites this dataset's own outputs."""

import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import polars as pl
from sqlalchemy import delete
from sqlalchemy.orm import Session

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import LocalStore, open_store
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.engine.logs import (
    Detection,
    LogInputError,
    ParsedChunk,
    detect_format,
    iter_chunks,
    open_log,
    parse_chunk,
)
from headroom.engine.workload.traffic import summarize
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, Result

MAX_REJECTS_KEPT = 20
SNIFF_BYTES = 1 << 20

Report = Callable[[float, str], None]


class CountingReader(io.RawIOBase):
    """Wraps the raw upload so that progress is measured on the bytes read from disk, which
    is right for compressed files too."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.bytes_read = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        position = self.raw.seek(offset, whence)
        self.bytes_read = position
        return position

    def readinto(self, buffer: Any) -> int:
        data = self.raw.read(len(buffer))
        buffer[: len(data)] = data
        self.bytes_read += len(data)
        return len(data)

    def close(self) -> None:
        self.raw.close()
        super().close()


@dataclass
class RejectTally:
    count: int = 0
    kept: list[dict[str, Any]] = field(default_factory=list)

    def add(self, parsed: ParsedChunk) -> None:
        self.count += parsed.reject_count
        room = MAX_REJECTS_KEPT - len(self.kept)
        self.kept.extend(
            {"line_number": r.line_number, "reason": r.reason, "text": r.text}
            for r in parsed.rejects[: max(room, 0)]
        )


def run(settings: Settings, job_id: int, worker: str, report: Report) -> None:
    """Parse, store and summarise; raises LogInputError for bad input (a final failure)."""
    url = settings.resolved_database_url()
    store = open_store(settings.resolved_storage_url())
    with session_scope(url) as session:
        job = _job(session, job_id)
        dataset = _dataset(session, job)
        dataset.status = DatasetStatus.processing
        dataset_id, upload_key, size = dataset.id, dataset.storage_key, dataset.size_bytes
    prefix = f"datasets/{dataset_id}/requests"
    store.delete_prefix(prefix)
    detection = _detect(store, upload_key)
    report(0.0, "parsing")
    keys, rejects = _parse_all(store, upload_key, size, detection, prefix, report)
    report(0.95, "summarising")
    document = _summary_document(store, keys, dataset_id, detection, rejects)
    with session_scope(url) as session:
        _save(session, job_id, worker, dataset_id, document, keys, detection)


def _job(session: Session, job_id: int) -> Job:
    job = session.get(Job, job_id)
    if job is None:
        raise LookupError(f"job {job_id} vanished")
    return job


def _dataset(session: Session, job: Job) -> Dataset:
    dataset = session.get(Dataset, job.dataset_id) if job.dataset_id else None
    if dataset is None:
        raise LookupError(f"dataset of job {job.id} vanished")
    return dataset


def _detect(store: LocalStore, key: str) -> Detection:
    with open_log(store.local_path(key)) as stream:
        sample = stream.read(SNIFF_BYTES)
    cut = sample.rfind(b"\n")
    return detect_format(sample[: cut + 1] if len(sample) == SNIFF_BYTES and cut > 0 else sample)


def _parse_all(
    store: LocalStore,
    upload_key: str,
    size_bytes: int,
    detection: Detection,
    prefix: str,
    report: Report,
) -> tuple[list[str], RejectTally]:
    keys: list[str] = []
    rejects = RejectTally()
    with (
        CountingReader(open(store.local_path(upload_key), "rb")) as raw,
        open_log(
            raw  # type: ignore[arg-type]
        ) as stream,
    ):
        for chunk in iter_chunks(stream):
            parsed = parse_chunk(chunk, detection)
            rejects.add(parsed)
            keys.append(_write_part(store, prefix, chunk.index, parsed.table))
            report(0.95 * raw.bytes_read / max(size_bytes, 1), "parsing")
    return keys, rejects


def _write_part(store: LocalStore, prefix: str, index: int, table: pl.DataFrame) -> str:
    key = f"{prefix}/part-{index:05d}.parquet"
    with store.writer(key) as handle:
        table.write_parquet(handle, compression="zstd", statistics=True)
    return key


def _summary_document(
    store: LocalStore, keys: list[str], dataset_id: int, detection: Detection, rejects: RejectTally
) -> dict[str, Any]:
    if not keys:
        raise LogInputError("empty_log", "the file holds no log lines")
    requests = pl.scan_parquet([store.local_path(k) for k in keys])
    summary = summarize(requests)
    if summary.request_count == 0:
        first = rejects.kept[0] if rejects.kept else None
        shown = f": line {first['line_number']}: {first['reason']}" if first else ""
        raise LogInputError("unparseable_log", f"no line of the file could be parsed{shown}")
    document = summary.to_dict()
    document.update(
        dataset_id=dataset_id,
        format=detection.format,
        format_confidence=detection.confidence,
        rejected_count=rejects.count,
        rejects=rejects.kept,
        notes=list(detection.notes),
    )
    return _jsonable(document)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _save(
    session: Session,
    job_id: int,
    worker: str,
    dataset_id: int,
    document: dict[str, Any],
    keys: list[str],
    detection: Detection,
) -> None:
    job = job_service.owned(session, job_id, worker)
    dataset = session.get(Dataset, dataset_id)
    if dataset is None:
        raise LookupError("the dataset was deleted while it was being ingested")
    session.execute(delete(Result).where(Result.job_id == job_id))
    session.add(
        Result(
            job_id=job_id,
            dataset_id=dataset_id,
            kind="traffic_summary",
            document=document,
            table_keys=keys,
        )
    )
    dataset.status, dataset.format = DatasetStatus.ready, detection.format
    job_service.succeed(session, job)


def mark_failed(settings: Settings, job_id: int, code: str, message: str) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is None:
            return
        job_service.fail(session, job, code, message)
        dataset = session.get(Dataset, job.dataset_id) if job.dataset_id else None
        if dataset is not None:
            dataset.status = DatasetStatus.failed


class ProgressReporter:
    """Writes progress at most every few percent (or seconds), with an ETA."""

    def __init__(
        self,
        settings: Settings,
        job_id: int,
        worker: str,
        min_step: float = 0.02,
        min_interval_s: float = 2.0,
    ) -> None:
        self.url = settings.resolved_database_url()
        self.job_id, self.worker = job_id, worker
        self.min_step, self.min_interval_s = min_step, min_interval_s
        self.started = time.monotonic()
        self.last_fraction, self.last_time, self.last_stage = -1.0, 0.0, ""

    def __call__(self, fraction: float, stage: str) -> None:
        now = time.monotonic()
        due = fraction - self.last_fraction >= self.min_step or (
            now - self.last_time >= self.min_interval_s
        )
        if stage == self.last_stage and not due:
            return
        elapsed = now - self.started
        eta_s = elapsed * (1 - fraction) / fraction if fraction > 0.01 else None
        with session_scope(self.url) as session:
            job_service.report(session, self.job_id, self.worker, fraction, stage, eta_s)
        self.last_fraction, self.last_time, self.last_stage = fraction, now, stage
