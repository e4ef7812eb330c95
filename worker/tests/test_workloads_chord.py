"""The characterization spread over workers: with a small memory budget the job plans
several partitions of clients, two real Celery workers (Redis broker and result backend)
spill the table in a chord whose callback has them map the partitions in a second chord
that reduces them; the result equals the engine's one-pass characterization of the same
log (exact fields identical, percentiles within the sketch's error) and the intermediate
files are gone afterwards."""

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.tables import jsonable
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize
from headroom.engine.workload.scan import scan
from support.close import compare
from support.services import Stack, wait_for_job

BUDGET_MB = 1  # 1,000 requests a partition


def test_a_characterization_is_mapped_over_two_workers_and_reduced_in_a_chord(
    make_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    stack = make_stack(memory_budget_mb=str(BUDGET_MB))
    stack.start_worker()
    stack.start_worker()
    client = stack.client(stack.token_for("chord@example.com", "Chord"))
    log = combined_latency_lines(mm1_table(segment_s=20.0))
    table = parse_chunk(log, detect_format(log)).table
    parts = scan(table.lazy(), memory_budget_mb=BUDGET_MB).parts
    assert parts >= 3  # the chord has several members
    created = client.post("/api/v1/datasets", files={"file": ("synth.log", log)})
    assert created.status_code == 202, created.text
    assert wait_for_job(client, created.json()["job"]["id"])["status"] == "succeeded"
    dataset_id = created.json()["id"]
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations")
    assert item.status_code in (200, 202), item.text
    job = wait_for_job(client, item.json()["job"]["id"], timeout_s=300)
    assert job["status"] == "succeeded" and job["stage"] == "done", job
    result = client.get(f"/api/v1/characterizations/{item.json()['id']}").json()["result"]
    expected = jsonable(characterize(table).to_dict())
    for key in ("requests", "arrivals", "classes", "pages", "sessions", "latency", "fits"):
        assert compare(expected[key], result[key], f"/{key}") == [], key
    assert result["requests"] == table.height
    logs = "".join(p.read_text(errors="replace") for p in tmp_path.glob("worker*.log"))
    tasks = ("characterize_spill", "characterize_maps", "characterize_part", "characterize_merge")
    assert all(f"workload.{task}" in logs for task in tasks)
    leftovers = list((tmp_path / "storage").rglob("characterization-job-*"))
    assert leftovers == []


def _wait_for_stage(client: httpx.Client, job_id: int, stage: str, progress: float) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        assert job["status"] in ("queued", "running"), job  # never done before the kill
        if job["stage"] == stage and job["progress"] >= progress:
            return
        time.sleep(0.05)
    raise TimeoutError(f"the job never reached {stage}")


def _characterized(client: httpx.Client, dataset_id: int) -> tuple[int, dict[str, Any]]:
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations")
    assert item.status_code in (200, 202), item.text
    return item.json()["job"]["id"], item.json()


@pytest.mark.parametrize(("stage", "progress"), [("characterizing", 0.15), ("merging", 0.9)])
def test_a_worker_killed_mid_map_or_mid_reduce_gives_the_undisturbed_result(
    make_stack: Callable[..., Stack], tmp_path: Path, stage: str, progress: float
) -> None:
    """SIGKILL of the only worker while it maps the partitions or merges them: the job is
    finished by the next worker (the chord's messages come back, or the job's lease runs
    out and it runs again), with the result of an undisturbed run of the same log, and no
    intermediate file is left."""
    stack = make_stack(memory_budget_mb=str(BUDGET_MB))
    victim = stack.start_worker()
    client = stack.client(stack.token_for("kill@example.com", "Kill"))
    other = stack.client(stack.token_for("calm@example.com", "Calm"))  # its own workspace
    log = combined_latency_lines(mm1_table(segment_s=150.0))  # about 51 partitions
    created = client.post("/api/v1/datasets", files={"file": ("access.log", log)})
    assert created.status_code == 202, created.text
    assert wait_for_job(client, created.json()["job"]["id"])["status"] == "succeeded"
    job_id, item = _characterized(client, created.json()["id"])  # started after the ingest
    _wait_for_stage(client, job_id, stage, progress)
    stack.kill_worker(victim)
    stack.start_worker()
    job = wait_for_job(client, job_id, timeout_s=300)
    assert job["status"] == "succeeded" and job["stage"] == "done", job
    killed = client.get(f"/api/v1/characterizations/{item['id']}").json()["result"]
    calm = other.post("/api/v1/datasets", files={"file": ("access.log", log)})
    assert wait_for_job(other, calm.json()["job"]["id"])["status"] == "succeeded"
    clean_job, clean = _characterized(other, calm.json()["id"])
    assert wait_for_job(other, clean_job, timeout_s=300)["status"] == "succeeded"
    undisturbed = other.get(f"/api/v1/characterizations/{clean['id']}").json()["result"]
    assert killed == undisturbed
    deadline = time.monotonic() + 30  # the reduce removes the folder right after saving
    while (leftovers := list((tmp_path / "storage").rglob("characterization-job-*"))) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.2)
    assert leftovers == []
