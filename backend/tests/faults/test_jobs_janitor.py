"""Stored objects no row owns are removed by the janitor (`headroom admin janitor`, and
periodically in the worker): the Parquet part of a dataset deleted during its ingest, the
parts of a failed ingest, the staging file of an upload that never completed. What a row
owns, and anything written within the grace period, stays."""

import os
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.ingest_outputs import mark_failed, write_part
from headroom.datasets.ingest_ranges import parse_range, plan_ranges, prepared_to_dict
from headroom.jobs import janitor
from headroom.jobs import service as job_service
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in
from support.services import stack_env

pytestmark = pytest.mark.faults
GRACE_S = 600.0


def claim_and_prepare(settings: Settings, job_id: int, worker: str) -> dict:  # type: ignore[type-arg]
    with session_scope(settings.resolved_database_url()) as session:
        assert job_service.claim(session, job_id, worker, settings.job_lease_s)
    return prepared_to_dict(ingest.prepare(settings, job_id, worker))


def first_range(settings: Settings, job_id: int, worker: str, payload: dict) -> None:  # type: ignore[type-arg]
    ranges = plan_ranges(
        open_store(settings.resolved_storage_url()),
        payload["key"],
        payload["size_bytes"],
        payload["size_bytes"] // 3,
    )
    parse_range(settings, job_id, worker, payload, ranges[0])


def test_the_janitor_removes_what_no_row_owns(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "jan@example.com", "Janitor"))
    data = sample_log.read_bytes()

    def upload(extra: bytes, name: str) -> dict:  # type: ignore[type-arg]
        created = client.post("/api/v1/datasets", params={"name": name}, content=data + extra)
        assert created.status_code == 202, created.text
        return created.json()  # type: ignore[no-any-return]

    kept = upload(b"", "kept.log")  # ingested: its upload and its parts are owned
    run_job(settings, kept["job"]["id"], ingest_body)
    failed = upload(data[:900].rsplit(b"\n", 1)[0] + b"\n", "failed.log")
    payload = claim_and_prepare(settings, failed["job"]["id"], "w2")
    first_range(settings, failed["job"]["id"], "w2", payload)
    store = open_store(settings.resolved_storage_url())
    assert store.list(f"datasets/{failed['id']}/requests")
    mark_failed(settings, failed["job"]["id"], "internal_error", "a part failed", "w2")
    assert store.list(f"datasets/{failed['id']}/requests") == []  # removed with the failure
    # a part of the failed ingest that another worker was still writing
    failed_part = write_part(store, failed["id"], 5, pl.DataFrame({"a": [1]}))
    resumable = client.post("/api/v1/uploads", json={"name": "r.log", "size_bytes": 2000})
    chunk = client.put(
        f"/api/v1/uploads/{resumable.json()['id']}/chunks",
        params={"offset": 0},
        content=data[:1000],
        headers={"Content-Type": "application/octet-stream"},
    )
    assert chunk.status_code == 200, chunk.text  # an upload under way: its chunk is owned

    deleted = upload(data[:500].rsplit(b"\n", 1)[0] + b"\n", "deleted.log")
    payload = claim_and_prepare(settings, deleted["job"]["id"], "w1")
    assert client.delete(f"/api/v1/datasets/{deleted['id']}").status_code == 204
    # a part whose write was under way when the dataset went
    late_part = write_part(
        open_store(settings.resolved_storage_url()), deleted["id"], 7, pl.DataFrame({"a": [1]})
    )
    root = Path(settings.resolved_storage_url().removeprefix("file://"))
    staging = root / "uploads" / "staging" / "4f1c0ffee"  # an upload that crashed mid-way
    staging.parent.mkdir(parents=True, exist_ok=True)
    staging.write_bytes(b"x" * 1000)
    before = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    old = time.time() - 2 * GRACE_S
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (old, old))
    in_flight = root / "uploads" / "staging" / "young"  # being written right now
    in_flight.write_bytes(b"y")
    assert {late_part, failed_part} <= before
    assert any(k.startswith("uploads/chunks/") for k in before)
    orphans = {late_part, failed_part, "uploads/staging/4f1c0ffee"}

    env = stack_env(Path(settings.data_dir), settings.resolved_database_url(), "")
    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "admin", "janitor", "--grace-s", str(GRACE_S)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith(f"removed {len(orphans)} objects"), done.stdout
    after = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    assert after == (before - orphans) | {"uploads/staging/young"}
    assert client.get(f"/api/v1/datasets/{kept['id']}/summary").status_code == 200
    assert janitor.sweep(settings, GRACE_S).removed_keys == ()  # nothing left to remove
