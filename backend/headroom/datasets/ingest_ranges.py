"""Parallel ingest of a large plain log: byte ranges cut at line starts, each parsed by any
worker into its own Parquet part, then merged (the Celery chord's header and body)."""

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.ingest import PARSE_SHARE, Prepared
from headroom.datasets.ingest_outputs import (
    RejectJson,
    RejectTally,
    detection_meta,
    finish,
    write_part,
)
from headroom.datasets.meta import DetectionJson
from headroom.engine.logs import Detection, Reject, parse_chunk
from headroom.engine.logs.w3c import OFFSET_DIRECTIVE, format_after
from headroom.jobs import service as job_service
from headroom.jobs.progress import part_done

PROBE_BYTES = 1 << 16
SCAN_BACK_BYTES = 1 << 20
FIELDS = b"#Fields:"
OFFSET = OFFSET_DIRECTIVE.encode()


class PreparedJson(TypedDict):  # ingest.Prepared, as the tasks pass it (Celery sends JSON)
    dataset_id: int
    key: str
    size_bytes: int
    detection: DetectionJson


class RangeOutcomeJson(TypedDict):  # what parse_range returns to the merge
    index: int
    key: str
    line_count: int
    reject_count: int
    skip_count: NotRequired[int]  # absent from the outcomes of earlier versions
    rejects: list[RejectJson]


@dataclass(frozen=True)
class ByteRange:
    index: int
    start: int
    end: int


def plan_ranges(store: ObjectStore, key: str, size_bytes: int, chunk_bytes: int) -> list[ByteRange]:
    """Ranges of about chunk_bytes, each starting at the beginning of a line."""
    starts = [0]
    with store.open(key) as handle:
        for target in range(chunk_bytes, size_bytes, chunk_bytes):
            start = _next_line_start(handle, max(target, starts[-1]))
            if start is None or start >= size_bytes:
                break
            if start > starts[-1]:
                starts.append(start)
    ends = [*starts[1:], size_bytes]
    return [ByteRange(i, s, e) for i, (s, e) in enumerate(zip(starts, ends, strict=True))]


def _next_line_start(handle: Any, offset: int) -> int | None:
    handle.seek(offset - 1)
    position = offset - 1
    while probe := handle.read(PROBE_BYTES):
        newline = probe.find(b"\n")
        if newline >= 0:
            return position + newline + 1
        position += len(probe)
    return None


def format_at(store: ObjectStore, key: str, start: int, fmt: str) -> str:
    """The format of a range starting at `start`. W3C logs may change their `#Fields:`
    (and `#GMT-Offset:`) mid-file: a range reads its lines with the last directives before
    it (scanning back)."""
    if start == 0 or fmt.partition(":")[0] != "w3c":
        return fmt
    with store.open(key) as handle:
        lines = [_directive_line(handle, start, d) for d in (FIELDS, OFFSET)]
    return format_after(fmt, b"".join(line for line in lines if line is not None))


def _directive_line(handle: Any, start: int, directive: bytes) -> bytes | None:
    at = _last_directive_before(handle, start, directive)
    if at is None:
        return None
    handle.seek(at)
    return bytes(handle.readline().rstrip(b"\r\n") + b"\n")


def _last_directive_before(handle: Any, start: int, directive: bytes = FIELDS) -> int | None:
    """Offset of the last line starting with `directive` that ends before `start`."""
    hi = start
    while hi > 0:
        lo = max(0, hi - SCAN_BACK_BYTES)
        handle.seek(lo)
        block = handle.read(min(hi + len(directive), start) - lo)  # overlap: no split line
        i = len(block)
        while (i := block.rfind(directive, 0, i)) >= 0:
            if (i == 0 and lo == 0) or (i > 0 and block[i - 1] == 10):
                return lo + i
        hi = lo
    return None


def detection_to_dict(detection: Detection) -> DetectionJson:
    return detection_meta(detection)


def detection_from_dict(data: DetectionJson) -> Detection:
    return Detection(
        format=data["format"] or "",  # always set: the ingest's own detection
        confidence=data["confidence"],
        parsed_fraction=data.get("parsed_fraction", 0.0),
        latency_unit=data.get("latency_unit"),
        notes=tuple(data.get("notes", ())),
    )


def parse_range(
    settings: Settings, job_id: int, worker: str, prepared: PreparedJson, part: ByteRange
) -> RangeOutcomeJson:
    """Parse one range into its Parquet part; returns what the merge needs (plain data)."""
    _check_owned(settings, job_id, worker)  # a lost lease: stop before doing the work
    store = open_store(settings.resolved_storage_url())
    data = store.read_range(prepared["key"], part.start, part.end)
    detection = detection_from_dict(prepared["detection"])
    fmt = format_at(store, prepared["key"], part.start, detection.format)
    parsed = parse_chunk(data, fmt, first_line_number=1)
    key = write_part(store, prepared["dataset_id"], part.index, parsed.table)
    share = PARSE_SHARE * (part.end - part.start) / max(prepared["size_bytes"], 1)
    part_done(settings, job_id, worker, part.index, share, "parsing")
    rejects: list[RejectJson] = [
        {"line_number": r.line_number, "reason": r.reason, "text": r.text} for r in parsed.rejects
    ]
    return {
        "index": part.index,
        "key": key,
        "line_count": parsed.line_count,
        "reject_count": parsed.reject_count,
        "skip_count": parsed.skip_count,
        "rejects": rejects,
    }


def _check_owned(settings: Settings, job_id: int, worker: str) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job_service.owned(session, job_id, worker)


def merge(
    settings: Settings,
    job_id: int,
    worker: str,
    prepared: PreparedJson,
    outcomes: list[RangeOutcomeJson],
) -> None:
    """The chord body: line numbers made absolute, rejects tallied, the summary saved."""
    rejects, line_offset = RejectTally(), 0
    for outcome in sorted(outcomes, key=lambda o: o["index"]):
        kept = tuple(Reject(**r) for r in outcome["rejects"])
        rejects.add(kept, outcome["reject_count"], line_offset, outcome.get("skip_count", 0))
        line_offset += outcome["line_count"]
    keys = [o["key"] for o in sorted(outcomes, key=lambda o: o["index"])]
    store = open_store(settings.resolved_storage_url())
    finish(
        settings,
        store,
        job_id,
        worker,
        prepared["dataset_id"],
        keys,
        detection_from_dict(prepared["detection"]),
        rejects,
    )


def prepared_to_dict(prepared: Prepared) -> PreparedJson:
    return {
        "dataset_id": prepared.dataset_id,
        "key": prepared.key,
        "size_bytes": prepared.size_bytes,
        "detection": detection_to_dict(prepared.detection),
    }
