"""What an ingest leaves behind: Parquet parts of the request table, the traffic summary
(the Result), and the dataset's state. Every write checks the job is still ours."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

import polars as pl

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.meta import DetectionJson, updated
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.engine.logs import Detection, LogInputError, Reject
from headroom.engine.workload.traffic import summarize
from headroom.jobs import service as job_service
from headroom.jobs.models import Job

MAX_REJECTS_KEPT = 20
INGEST_KIND = "logs.ingest"
# The traffic summary as the ingest's Result stores it: the engine's TrafficSummary dumped,
# with the parse figures added (TrafficSummaryOut is its contract, checked when served).
SummaryJson = dict[str, Any]


class RejectJson(TypedDict):  # schemas.Reject, as stored
    line_number: int
    reason: str
    text: str


@dataclass
class RejectTally:
    """All rejects counted, the first few kept (line numbers made absolute by the caller);
    `skipped` counts the structure lines (blank, directives, headers), which are neither."""

    count: int = 0
    kept: list[RejectJson] = field(default_factory=list)
    skipped: int = 0

    def add(
        self, rejects: tuple[Reject, ...], count: int, line_offset: int = 0, skipped: int = 0
    ) -> None:
        self.count += count
        self.skipped += skipped
        room = max(MAX_REJECTS_KEPT - len(self.kept), 0)
        self.kept.extend(
            {"line_number": r.line_number + line_offset, "reason": r.reason, "text": r.text}
            for r in rejects[:room]
        )


def parts_prefix(dataset_id: int) -> str:
    return f"datasets/{dataset_id}/requests"


def write_part(store: ObjectStore, dataset_id: int, index: int, table: pl.DataFrame) -> str:
    key = f"{parts_prefix(dataset_id)}/part-{index:05d}.parquet"
    with store.writer(key) as handle:
        table.write_parquet(handle, compression="zstd", statistics=True)
    return key


def finish(
    settings: Settings,
    store: ObjectStore,
    job_id: int,
    worker: str,
    dataset_id: int,
    keys: list[str],
    detection: Detection,
    rejects: RejectTally,
) -> None:
    """Summarise the parts and mark the dataset ready and the job succeeded."""
    document = _summary_document(store, keys, dataset_id, detection, rejects)
    with session_scope(settings.resolved_database_url()) as session:
        job_service.lock_dataset(session, dataset_id, for_update=True)
        dataset = session.get(Dataset, dataset_id)
        if dataset is None:
            raise LookupError("the dataset was deleted while it was being ingested")
        job_service.save_result(
            session, job_id, worker, "traffic_summary", document, dataset_id, keys
        )
        dataset.status, dataset.format = DatasetStatus.ready, detection.format
        dataset.meta = updated(dataset.meta, detection=detection_meta(detection))
        record_list_fields(dataset, document)


def record_list_fields(dataset: Dataset, summary: SummaryJson) -> None:
    """What the datasets list shows and sorts by, from the ingest's summary."""
    dataset.request_count = summary["request_count"]
    dataset.first_request_at = _moment(summary.get("first_ts"))
    dataset.last_request_at = _moment(summary.get("last_ts"))
    dataset.span_s = summary.get("span_s")
    dataset.has_latency = summary.get("latency") is not None


def _moment(value: datetime | str | None) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def detection_meta(detection: Detection) -> DetectionJson:
    """What the dataset's metadata records of the parse: the format, why, and the notes
    (e.g. that arrival = completion - duration)."""
    return {
        "format": detection.format,
        "confidence": detection.confidence,
        "parsed_fraction": detection.parsed_fraction,
        "latency_unit": detection.latency_unit,
        "notes": list(detection.notes),
    }


def _summary_document(
    store: ObjectStore, keys: list[str], dataset_id: int, detection: Detection, rejects: RejectTally
) -> SummaryJson:
    if not keys:
        raise LogInputError("empty_log", "the file holds no log lines")
    summary = summarize(store.scan_parquet(keys))
    if summary.request_count == 0:
        first = rejects.kept[0] if rejects.kept else None
        shown = f": line {first['line_number']}: {first['reason']}" if first else ""
        raise LogInputError("unparseable_log", f"no line of the file could be parsed{shown}")
    document = summary.model_dump()
    document.update(
        dataset_id=dataset_id,
        format=detection.format,
        format_confidence=detection.confidence,
        rejected_count=rejects.count,
        skipped_count=rejects.skipped,
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


def mark_failed(
    settings: Settings, job_id: int, code: str, message: str, worker: str | None = None
) -> None:
    """Fail the job (and its dataset, removing the parts it wrote); a worker that lost the
    job leaves it alone."""
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, job_id)
        if job is None or (worker is not None and job.worker != worker):
            return
        job_service.fail(session, job, code, message)
        if job.kind != INGEST_KIND or job.dataset_id is None:
            return  # a failed analysis leaves its (healthy) dataset alone
        dataset = session.get(Dataset, job.dataset_id)
        if dataset is not None:
            dataset.status = DatasetStatus.failed
            open_store(settings.resolved_storage_url()).delete_prefix(parts_prefix(dataset.id))
