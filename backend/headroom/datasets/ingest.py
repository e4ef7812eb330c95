"""The ingest job: an uploaded log becomes a Parquet request table and a traffic summary.

Small or compressed files are parsed in one pass here; a large plain file is cut into byte
ranges at line boundaries that workers parse in parallel (datasets/ingest_ranges.py, run as a
Celery chord). Idempotent: a retry clears and rewrites this dataset's own outputs."""

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets import otlp_files
from headroom.datasets.ingest_outputs import RejectTally, finish, parts_prefix, write_part
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.datasets.parse_options import ParseOptions, ZipMembers, from_meta
from headroom.engine.logs import (
    Detection,
    check_format,
    detect_format,
    iter_chunks,
    open_log,
    parse_chunk,
)
from headroom.engine.logs.compression import sniff_compression
from headroom.engine.logs.w3c import format_after
from headroom.jobs import service as job_service

SNIFF_BYTES = 1 << 20
PARSE_SHARE = 0.95  # of the progress bar; the summary takes the rest

Report = Callable[[float, str], None]


@dataclass(frozen=True)
class Prepared:
    dataset_id: int
    key: str
    size_bytes: int
    compressed: bool
    detection: Detection
    zip_members: ZipMembers = "first"


def prepare(settings: Settings, job_id: int, worker: str) -> Prepared:
    """Mark the dataset as processing, clear earlier outputs, detect the format."""
    store = open_store(settings.resolved_storage_url())
    with session_scope(settings.resolved_database_url()) as session:
        job = job_service.owned(session, job_id, worker)
        dataset = session.get(Dataset, job.dataset_id) if job.dataset_id else None
        if dataset is None:
            raise LookupError(f"the dataset of job {job_id} was deleted")
        dataset.status = DatasetStatus.processing
        dataset_id, key, size_bytes = dataset.id, dataset.storage_key, dataset.size_bytes
        options = from_meta(dataset.meta)
    store.delete_prefix(parts_prefix(dataset_id))
    compressed = sniff_compression(store.read_range(key, 0, 8)) is not None
    detection = _detect(store, key, options)
    return Prepared(dataset_id, key, size_bytes, compressed, detection, options.zip_members)


def _detect(store: ObjectStore, key: str, options: ParseOptions) -> Detection:
    """Detect the format, or check the one the uploader gave (its parser's notes kept)."""
    with open_log(store.open(key), zip_members=options.zip_members) as stream:
        sample = stream.read(SNIFF_BYTES)
    cut = sample.rfind(b"\n")
    sample = sample[: cut + 1] if len(sample) == SNIFF_BYTES and cut > 0 else sample
    name = options.parser_name
    if name is None and (otlp := otlp_files.detection(sample)) is not None:
        return otlp
    return detect_format(sample) if name is None else check_format(sample, name)


def fans_out(settings: Settings, prepared: Prepared) -> bool:
    """Parallel ranges pay off for a large plain file when several workers share a broker."""
    parallel = settings.parallel_ingest
    if parallel is None:
        parallel = settings.resolved_broker_url().startswith(("redis", "rediss"))
    return (
        parallel
        and not prepared.compressed
        and prepared.detection.format != otlp_files.FORMAT
        and (prepared.size_bytes > 2 * settings.ingest_chunk_bytes)
    )


def run_sequential(
    settings: Settings, prepared: Prepared, job_id: int, worker: str, report: Report
) -> None:
    store = open_store(settings.resolved_storage_url())
    keys: list[str] = []
    rejects = RejectTally()
    report(0.0, "parsing")
    with (
        CountingReader(store.open(prepared.key)) as raw,
        open_log(raw, zip_members=prepared.zip_members) as stream,  # type: ignore[arg-type]
    ):
        fmt = prepared.detection.format
        for chunk in iter_chunks(stream, settings.ingest_chunk_bytes):
            is_otlp = fmt == otlp_files.FORMAT
            parsed = otlp_files.parse(chunk) if is_otlp else parse_chunk(chunk, fmt)
            fmt = format_after(fmt, chunk.data)
            rejects.add(parsed.rejects, parsed.reject_count, skipped=parsed.skip_count)
            keys.append(write_part(store, prepared.dataset_id, chunk.index, parsed.table))
            report(PARSE_SHARE * raw.bytes_read / max(prepared.size_bytes, 1), "parsing")
    report(PARSE_SHARE, "summarising")
    finish(settings, store, job_id, worker, prepared.dataset_id, keys, prepared.detection, rejects)


class CountingReader(io.RawIOBase):
    """Counts the bytes read from storage, so progress is right for compressed files too."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.bytes_read = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.bytes_read = self.raw.seek(offset, whence)
        return self.bytes_read

    def readinto(self, buffer: Any) -> int:
        data = self.raw.read(len(buffer))
        buffer[: len(data)] = data
        self.bytes_read += len(data)
        return len(data)

    def close(self) -> None:
        self.raw.close()
        super().close()
