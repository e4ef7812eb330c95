"""The characterization spread over workers: with a small memory budget the job plans
several partitions of clients, two real Celery workers (Redis broker and result backend)
map them and a chord reduces them; the result equals the engine's one-pass
characterization of the same log (exact fields identical, percentiles within the
sketch's error) and the intermediate files are gone afterwards."""

from collections.abc import Callable
from pathlib import Path

from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.tables import jsonable
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize
from headroom.engine.workload.mapreduce import scan
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
    assert "workload.characterize_part" in logs and "workload.characterize_merge" in logs
    leftovers = list((tmp_path / "storage").rglob("characterization-job-*"))
    assert leftovers == []
