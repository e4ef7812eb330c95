"""An upload's ingest starts its workload characterization (no extra click): upload over
HTTP, run the worker's ingest task with Celery eager (the link's task runs inline), then
the dataset's characterization holds the engine's result for the same bytes."""

from typing import Any

import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient

from headroom.analyses.tables import jsonable
from headroom.core.settings import Settings
from headroom.datasets.followup import queue_characterization
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize
from headroom_worker import tasks
from headroom_worker.app import app
from support.factories import member, signed_in

LOG = combined_latency_lines(mm1_table())


@pytest.fixture
def eager(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setattr(tasks, "get_settings", lambda: settings)
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    return settings


def upload(client: TestClient, data: bytes, name: str) -> dict[str, Any]:
    created = client.post(
        "/api/v1/datasets",
        params={"name": name},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    return created.json()  # type: ignore[no-any-return]


def test_an_ingested_log_is_characterized_without_a_request(eager: Settings) -> None:
    client = signed_in(eager, member(eager, "up@example.com", "Shop"))
    dataset = upload(client, LOG, "synth.log")
    before = client.get(f"/api/v1/datasets/{dataset['id']}/characterization")
    assert before.status_code == 404  # nothing until the ingest finishes
    tasks.ingest_log.run(dataset["job"]["id"])
    current = client.get(f"/api/v1/datasets/{dataset['id']}/characterization")
    assert current.status_code == 200, current.text
    body = current.json()
    assert body["job"]["kind"] == "workload.characterize"
    assert body["job"]["status"] == "succeeded", body["job"]
    assert body["created_by"]["email"] == "up@example.com"
    table = parse_chunk(LOG, detect_format(LOG)).table.sort("ts")
    expected = jsonable(characterize(table).to_dict())
    for key in ("requests", "arrivals", "classes", "pages", "sessions", "model"):
        assert body["result"][key] == expected[key], key
    # asking for it afterwards finds the same one (no second job)
    again = client.post(f"/api/v1/datasets/{dataset['id']}/characterizations")
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    listed = client.get(f"/api/v1/datasets/{dataset['id']}/characterizations").json()
    assert listed["total"] == 1


def test_only_a_ready_dataset_is_characterized_and_only_once(eager: Settings) -> None:
    client = signed_in(eager, member(eager, "once@example.com", "Shop"))
    dataset = upload(client, LOG, "synth.log")
    assert queue_characterization(eager, dataset["id"]) is None  # not ingested yet
    tasks.ingest_log.run(dataset["job"]["id"])
    tasks.characterize_after_ingest(dataset["id"])  # a redelivered link: nothing new
    assert queue_characterization(eager, dataset["id"]) is None
    listed = client.get(f"/api/v1/datasets/{dataset['id']}/characterizations").json()
    assert listed["total"] == 1
