"""The characterization job spread over parts (docs/methods/workload.md, "Bounded
memory"): a plan (the table's metadata, stored; with a single partition, the streaming
scan as well), with several partitions one spill per share of the table (a contiguous
range of its rows, split into one Parquet piece per partition of clients, and counted:
its partial of the scan, stored), the scan of every share's partial (stored), one map
per partition (it reads its own pieces only, in share order; its partial results stored
as Parquet files, then a marker saying the part is complete) and a reduce (the stored
parts merged frame by frame, the Result saved, the parts removed). The worker runs the
spills as a Celery group whose chord's callback makes the scan and starts the maps as
another group, with the reduce as that chord's callback; without a result backend all
of it runs in one task (`characterize_body`, the job body the API's in-process runs use
as well).

Intermediate files live under the dataset's folder (``datasets/<id>/characterization-
job-<job>/``): the janitor keeps a dataset's files while a job of it runs and removes
what a job that died left behind. A retried spill or map overwrites its own files."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from headroom.characterizations import run
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.engine.logs import LogInputError
from headroom.engine.workload import Rules, scan
from headroom.engine.workload.fitting import MAX_FIT_N
from headroom.engine.workload.mapreduce import finish, map_partition, map_spilled
from headroom.engine.workload.partial import merge_stored
from headroom.engine.workload.scan import (
    SCAN_PARTIAL,
    Plan,
    Scan,
    ScanCounter,
    plan_from_json,
    plan_to_json,
    scan_from,
    scan_from_json,
    scan_share,
    scan_to_json,
)
from headroom.engine.workload.slices import sliced
from headroom.engine.workload.spill import spill, spill_shares
from headroom.engine.workload.time_counts import TIME_COUNTS
from headroom.jobs import service as job_service
from headroom.jobs.runner import JobContext

# the job's progress bar: the spill up to 0.1, the maps up to 0.9, then the reduce
SPILL_SHARE_OF_PROGRESS = 0.1
MAP_SHARE_OF_PROGRESS = 0.8


@dataclass(frozen=True)
class Planned:
    dataset_id: int
    parts: int
    shares: int  # of the spill (none: a single partition reads the table itself)


def folder(dataset_id: int, job_id: int) -> str:
    return f"datasets/{dataset_id}/characterization-job-{job_id}/"


def plan(settings: Settings, job_id: int, worker: str) -> Planned:
    """The plan of the scan (the table's metadata and its few cheap aggregates), stored
    for the spills; with a single partition, the scan itself, stored for the map and
    reduce."""
    store = open_store(settings.resolved_storage_url())
    inputs = _inputs(settings, job_id, worker, (0.0, "planning"))
    table = run.load_table(store, inputs.table_keys, inputs.where)
    base = folder(inputs.dataset_id, job_id)
    with _usable():
        planned = scan.plan(table, inputs.rules, memory_budget_mb=settings.memory_budget_mb)
        if planned.parts == 1:
            _write_scan(store, base, scan_from(planned, [scan_share(table, planned)]))
            return Planned(inputs.dataset_id, planned.parts, 0)
    table_rows = store.scan_parquet(inputs.table_keys).select(pl.len()).collect().item()
    with store.writer(base + "table.json") as out:
        out.write(json.dumps({"rows": table_rows}).encode())
    with store.writer(base + "plan.json") as out:  # last: the plan is complete
        out.write(json.dumps(plan_to_json(planned)).encode())
    return Planned(inputs.dataset_id, planned.parts, len(spill_shares(table_rows)))


def spill_one(settings: Settings, job_id: int, worker: str, share: int) -> dict[str, Any]:
    """Share ``share`` of the table spilled: its requests of each partition stored as a
    piece of their own, and its partial of the scan (a retry overwrites them); returns
    its index (a Celery result)."""
    store = open_store(settings.resolved_storage_url())
    inputs = _inputs(settings, job_id, worker)
    base = folder(inputs.dataset_id, job_id)
    planned = _load_plan(store, base, inputs.rules)
    shares = spill_shares(_table_rows(store, base))
    table = store.scan_parquet(inputs.table_keys)  # the slice is kept slice by slice
    where = inputs.where
    keep = None if where is None else lambda requests: sliced(requests, where)
    counter = ScanCounter(planned, table.collect_schema().names())
    with tempfile.TemporaryDirectory(prefix="headroom-partitions-") as spilled:
        pieces = spill(
            table, planned.parts, Path(spilled), shares[share], keep=keep, counter=counter
        )
        for index, path in enumerate(pieces):
            with path.open("rb") as source, store.writer(_piece(base, index, share)) as out:
                shutil.copyfileobj(source, out, 8 << 20)
            path.unlink()
    for name, frame in counter.partial().items():
        _write_frame(store, _share_scan(base, share, name), frame)
    done = (share + 1) / len(shares)
    _report(settings, job_id, worker, SPILL_SHARE_OF_PROGRESS * done, "splitting the table")
    return {"share": share}


def scan_shares(settings: Settings, job_id: int, worker: str) -> None:
    """The scan from every share's partial (the spills' callback), stored for the maps
    and the reduce."""
    store = open_store(settings.resolved_storage_url())
    inputs = _inputs(settings, job_id, worker)
    base = folder(inputs.dataset_id, job_id)
    planned = _load_plan(store, base, inputs.rules)
    shares = range(len(spill_shares(_table_rows(store, base))))
    partials = [
        {name: _read_frame(store, _share_scan(base, share, name)) for name in SCAN_PARTIAL}
        for share in shares
    ]
    with _usable():
        found = scan_from(planned, partials)
    del partials
    _write_scan(store, base, found)  # the partials stay for a retry; the reduce removes them


def map_one(settings: Settings, job_id: int, worker: str, index: int) -> dict[str, Any]:
    """Partition ``index``'s partial results, stored; returns its index (a Celery result)."""
    store = open_store(settings.resolved_storage_url())
    inputs = _inputs(settings, job_id, worker)
    base = folder(inputs.dataset_id, job_id)
    found = _load_scan(store, base, inputs.rules)
    with _usable():
        if found.parts == 1:
            partial = map_partition(
                run.load_table(store, inputs.table_keys, inputs.where), index, found
            )
        else:
            partial = map_spilled(store.scan_parquet(_pieces(store, base, index, found)), found)
    part = _part(base, index)
    store.delete(_complete(part))  # a retry: the part is incomplete until written again
    for name, frame in partial.frames.items():
        _write_frame(store, f"{part}{name}.parquet", frame)
    with store.writer(_complete(part)) as out:
        out.write(b"complete\n")
    done = (index + 1) / max(found.parts, 1)
    progress = SPILL_SHARE_OF_PROGRESS + MAP_SHARE_OF_PROGRESS * done
    _report(settings, job_id, worker, progress, "characterizing")
    return {"index": index}


def reduce_parts(settings: Settings, job_id: int, worker: str) -> None:
    """Merge every part's stored partial results (partial.merge_stored: frame by frame,
    read from the store), save the Result, remove the intermediate files."""
    store = open_store(settings.resolved_storage_url())
    inputs = _inputs(settings, job_id, worker, (0.9, "merging"))
    base = folder(inputs.dataset_id, job_id)
    found = _load_scan(store, base, inputs.rules)
    stored = [_stored_partial(store, _part(base, index)) for index in range(found.parts)]
    merged = merge_stored(stored, MAX_FIT_N)
    # read after the merge, so never held beside its batches
    found = replace(found, counts=_load_counts(store, base))
    with _usable():
        result = finish(merged, found)
    document = run.result_document(result).model_dump(mode="json")
    with session_scope(settings.resolved_database_url()) as session:
        job_service.save_result(
            session, job_id, worker, run.RESULT_KIND, document, inputs.dataset_id
        )
    store.delete_prefix(base)


def characterize_body(context: JobContext) -> None:
    """The job body for jobs.runner.run_job: every part in this process."""
    run.guarded(context, lambda: run_inline(context.settings, context.job_id, context.worker))


def run_inline(settings: Settings, job_id: int, worker: str) -> None:
    """Plan, every spill, every map and the reduce, one after another in this process."""
    planned = plan(settings, job_id, worker)
    for share in range(planned.shares):
        spill_one(settings, job_id, worker, share)
    if planned.shares:
        scan_shares(settings, job_id, worker)
    for index in range(planned.parts):
        map_one(settings, job_id, worker, index)
    reduce_parts(settings, job_id, worker)


def _table_rows(store: ObjectStore, base: str) -> int:
    """The rows of the dataset's whole table (the spill's shares cut them, sliced or not)."""
    if not store.exists(base + "table.json"):  # a plan written before shares were kept
        raise LogInputError("internal_error", "the characterization's plan is incomplete")
    with store.open(base + "table.json") as source:
        return int(json.loads(source.read())["rows"])


def _share_scan(base: str, share: int, name: str) -> str:
    """Frame ``name`` of share ``share``'s partial of the scan."""
    return f"{base}share-{share:05d}-scan-{name}.parquet"


def _piece(base: str, index: int, share: int) -> str:
    """Partition ``index``'s requests among share ``share``'s rows, split by its spill."""
    return f"{base}input-{index:05d}-from-{share:05d}.parquet"


def _pieces(store: ObjectStore, base: str, index: int, found: Scan) -> list[str]:
    """Partition ``index``'s pieces in share order (its requests in the table's order)."""
    shares = spill_shares(_table_rows(store, base)) if found.parts > 1 else []
    keys = [_piece(base, index, share) for share in range(len(shares))]
    for share, key in enumerate(keys):
        if not store.exists(key):
            missing = f"partition {index}, share {share}"
            message = f"a piece of the characterization's input is missing ({missing})"
            raise LogInputError("internal_error", message)
    return keys


def _part(base: str, index: int) -> str:
    return f"{base}part-{index:05d}/"


def _complete(part: str) -> str:
    """The marker a map writes after every frame of its part (a map killed while writing
    leaves a part the reduce does not read)."""
    return part.rstrip("/") + ".complete"


def _report(settings: Settings, job_id: int, worker: str, progress: float, stage: str) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job_service.report(session, job_id, worker, progress, stage, None)


def _inputs(
    settings: Settings, job_id: int, worker: str, progress: tuple[float, str] | None = None
) -> run.Inputs:
    with session_scope(settings.resolved_database_url()) as session:
        inputs = run.job_inputs(session, job_id)
        if progress is not None:
            job_service.report(session, job_id, worker, progress[0], progress[1], None)
    return inputs


@contextmanager
def _usable() -> Iterator[None]:
    """The engine's refusals of unusable data, as the job's input error."""
    try:
        yield
    except LogInputError:  # a ValueError already saying what went wrong
        raise
    except ValueError as error:
        raise LogInputError("unusable_data", str(error)) from error


def _write_frame(store: ObjectStore, key: str, frame: pl.DataFrame) -> None:
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    with store.writer(key) as out:
        out.write(buffer.getvalue())


def _read_frame(store: ObjectStore, key: str) -> pl.DataFrame:
    with store.open(key) as source:
        return pl.read_parquet(io.BytesIO(source.read()))


def _write_scan(store: ObjectStore, base: str, found: Scan) -> None:
    _write_frame(store, base + "scan-quiet.parquet", found.context.quiet)
    for name, frame in found.counts.items():
        _write_frame(store, f"{base}scan-{name}.parquet", frame)
    with store.writer(base + "scan.json") as out:  # last: the scan is complete
        out.write(json.dumps(scan_to_json(found)).encode())


def _load_plan(store: ObjectStore, base: str, rules: Rules) -> Plan:
    if not store.exists(base + "plan.json"):
        raise LogInputError("internal_error", "the characterization's plan is missing")
    with store.open(base + "plan.json") as source:
        return plan_from_json(json.loads(source.read()), rules)


def _load_scan(store: ObjectStore, base: str, rules: Rules) -> Scan:
    """The stored scan, without its counts by time (which only the reduce reads)."""
    if not store.exists(base + "scan.json"):
        raise LogInputError("internal_error", "the characterization's plan is missing")
    with store.open(base + "scan.json") as source:
        data = json.loads(source.read())
    return scan_from_json(data, _read_frame(store, base + "scan-quiet.parquet"), rules)


def _load_counts(store: ObjectStore, base: str) -> dict[str, pl.DataFrame]:
    """The scan's counts by time."""
    keys = {name: f"{base}scan-{name}.parquet" for name in TIME_COUNTS}
    if not all(store.exists(key) for key in keys.values()):  # a plan of an older version
        raise LogInputError("internal_error", "the characterization's plan is incomplete")
    return {name: _read_frame(store, key) for name, key in keys.items()}


def _stored_partial(store: ObjectStore, part: str) -> dict[str, pl.LazyFrame]:
    """A complete part's frames, as scans of their stored files."""
    keys = store.list(part) if store.exists(_complete(part)) else []
    if not keys:
        raise LogInputError("internal_error", f"a part of the characterization is missing ({part})")
    return {k.rsplit("/", 1)[-1].removesuffix(".parquet"): store.scan_parquet([k]) for k in keys}
