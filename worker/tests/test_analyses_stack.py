"""Capacity analyses through the whole stack: API and a real Celery worker as processes,
PostgreSQL and Redis, driven over HTTP with an API token."""

from pathlib import Path

import httpx
from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.tables import for_capacity
from headroom.engine.capacity import CapacityParams, analyze
from headroom.engine.logs import detect_format, parse_chunk
from support.services import Stack, wait_for_job

PASSWORD = "pipeline-password"


def ingested(client: httpx.Client, data: bytes, name: str) -> int:
    created = client.post("/api/v1/datasets", files={"file": (name, data)})
    assert created.status_code == 202, created.text
    job = wait_for_job(client, created.json()["job"]["id"])
    assert job["status"] == "succeeded", job
    return int(created.json()["id"])


def test_pipeline_analysis_of_a_log_with_latencies(stack: Stack) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("cap@example.com", "Capacity"))
    log = combined_latency_lines(mm1_table())
    dataset_id = ingested(client, log, "synth.log")
    storage = Path(stack.env["HEADROOM_DATA_DIR"]) / "storage" / "datasets" / str(dataset_id)
    assert len(list(storage.rglob("*.parquet"))) > 1  # the request table came in parts
    created = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json={"percentile": 90})
    assert created.status_code == 202, created.text
    job = wait_for_job(client, created.json()["job"]["id"])
    assert job["status"] == "succeeded" and job["stage"] == "done", job
    result = client.get(f"/api/v1/analyses/{created.json()['id']}").json()["result"]
    table = for_capacity(parse_chunk(log, detect_format(log)).table)
    expected = analyze(table, CapacityParams(percentile=90)).to_dict()
    assert result["classes"]["all"]["knee"] == expected["classes"]["all"]["knee"]
    assert result["classes"]["all"]["sla"] == expected["classes"]["all"]["sla"]
    assert result["capacity"] == expected["capacity"]
    again = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json={"percentile": 90.0})
    assert again.status_code == 200 and again.json()["id"] == created.json()["id"]


def test_a_log_without_latencies_is_refused_before_any_job(stack: Stack, sample_log: Path) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("plain@example.com", "Plain"))
    dataset_id = ingested(client, sample_log.read_bytes(), "access.log")
    refused = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json={})
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "no_latency" and "%D" in error["message"]
    listed = client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()
    assert listed["items"] == []  # nothing stored, nothing queued
    assert client.get(f"/api/v1/datasets/{dataset_id}").json()["status"] == "ready"
