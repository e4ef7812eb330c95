"""Workload characterization through the whole stack: API and a real Celery worker as
processes, PostgreSQL and Redis, driven over HTTP with an API token."""

from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.tables import jsonable
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize
from support.services import Stack, wait_for_job


def test_pipeline_characterization_and_model_download(stack: Stack) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("wl@example.com", "Workload"))
    log = combined_latency_lines(mm1_table())
    created = client.post("/api/v1/datasets", files={"file": ("synth.log", log)})
    assert created.status_code == 202, created.text
    assert wait_for_job(client, created.json()["job"]["id"])["status"] == "succeeded"
    dataset_id = created.json()["id"]
    # the ingest's follow-up may have queued it already (200) or not yet (202)
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations")
    assert item.status_code in (200, 202), item.text
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
