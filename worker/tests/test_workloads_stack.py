"""Workload characterization through the whole stack: API and a real Celery worker as
processes, PostgreSQL and Redis, driven over HTTP with an API token."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.tables import jsonable
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize
from support.services import Stack, free_port, stack_env, wait_for_job


@pytest.fixture
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stack]:
    from conftest import fresh_database

    database_url = fresh_database("postgresql", request, tmp_path)
    env = stack_env(
        tmp_path,
        database_url,
        request.getfixturevalue("redis_url"),
        job_lease_s="5",
        reaper_interval_s="1",
        static_dir=str(tmp_path / "no-ui"),
    )
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.start_api(port)
    yield running
    running.stop()
    shutil.rmtree(tmp_path / "storage", ignore_errors=True)


def test_pipeline_characterization_and_model_download(stack: Stack) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("wl@example.com", "Workload"))
    log = combined_latency_lines(mm1_table())
    created = client.post("/api/v1/datasets", files={"file": ("synth.log", log)})
    assert created.status_code == 201, created.text
    assert wait_for_job(client, created.json()["job"]["id"])["status"] == "succeeded"
    dataset_id = created.json()["id"]
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations")
    assert item.status_code == 201, item.text
    job = wait_for_job(client, item.json()["job"]["id"])
    assert job["status"] == "succeeded" and job["stage"] == "done", job
    result = client.get(f"/api/v1/characterizations/{item.json()['id']}").json()["result"]
    expected = jsonable(characterize(parse_chunk(log, detect_format(log)).table).to_dict())
    for key in ("requests", "arrivals", "classes", "pages", "sessions"):
        assert result[key] == expected[key], key
    assert set(result["histograms"]) == set(expected["fits"])
    model = client.get(f"/api/v1/characterizations/{item.json()['id']}/model")
    assert model.status_code == 200 and model.json() == expected["model"]
    assert "attachment" in model.headers["content-disposition"]
    again = client.post(f"/api/v1/datasets/{dataset_id}/characterizations", json={})
    assert again.status_code == 200 and again.json()["id"] == item.json()["id"]
