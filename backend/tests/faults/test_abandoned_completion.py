"""A resumable upload's /complete that dies after registering the dataset, by a client that
never calls it again: the workers' reaper finishes the completion (the file placed, the
ingest job queued), or removes the dataset when the upload's bytes are gone. It used to
leave a dataset row with no job (and, once the upload expired, no bytes) for good."""

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.jobs.runner import ingest_body, run_job
from headroom.uploads import completion
from support.factories import member, signed_in

pytestmark = pytest.mark.faults


class SimulatedCrash(Exception):
    pass


def registered_then_abandoned(
    settings: Settings, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[TestClient, int, str]:
    """An upload whose /complete registered its dataset and died before the ingest job."""
    client = signed_in(settings, member(settings, "gone@example.com", "Gone"))
    data = sample_log.read_bytes()[:100_000]
    created = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": len(data)})
    upload_id = created.json()["id"]
    put = client.put(f"/api/v1/uploads/{upload_id}/chunks", params={"offset": 0}, content=data)
    assert put.status_code == 200, put.text

    def crash(*_: object, **__: object) -> None:
        raise SimulatedCrash

    with monkeypatch.context() as patched:
        patched.setattr(completion, "_place_and_queue", crash)
        dying = TestClient(client.app, raise_server_exceptions=False, cookies=client.cookies)
        assert dying.post(f"/api/v1/uploads/{upload_id}/complete").status_code == 500
    [dataset] = client.get("/api/v1/datasets").json()["items"]
    assert dataset["job"] is None  # the row the client would be left with
    return client, dataset["id"], f"uploads/partial/{upload_id}"


def test_the_reaper_finishes_an_abandoned_completion(
    settings: Settings, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, dataset_id, _ = registered_then_abandoned(settings, sample_log, monkeypatch)
    store = open_store(settings.resolved_storage_url())
    url = settings.resolved_database_url()
    assert completion.finish_abandoned(url, store, completion.ABANDONED_AFTER_S) == []  # young
    [job_id] = completion.finish_abandoned(url, store, 0.0)
    assert run_job(settings, job_id, ingest_body)
    dataset = client.get(f"/api/v1/datasets/{dataset_id}").json()
    assert dataset["job"]["id"] == job_id and dataset["status"] == "ready", dataset
    assert completion.finish_abandoned(url, store, 0.0) == []  # once


def test_the_reaper_removes_an_abandoned_dataset_whose_bytes_are_gone(
    settings: Settings, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, dataset_id, partial = registered_then_abandoned(settings, sample_log, monkeypatch)
    store = open_store(settings.resolved_storage_url())
    store.delete(partial)
    assert completion.finish_abandoned(settings.resolved_database_url(), store, 0.0) == []
    assert client.get(f"/api/v1/datasets/{dataset_id}").status_code == 404
    assert client.get("/api/v1/datasets").json()["items"] == []
