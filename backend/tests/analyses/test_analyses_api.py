"""Analyses over HTTP: create (idempotent), list, read, the job's report and its failures,
workspace scoping and roles, on SQLite and PostgreSQL."""

from pathlib import Path
from typing import Any

import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient

from headroom.analyses.run import capacity_body
from headroom.analyses.tables import for_capacity
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.engine.capacity import CapacityParams, analyze
from headroom.engine.logs import detect_format, parse_chunk
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

SYNTH_LOG = combined_latency_lines(mm1_table())


def ready_dataset(client: TestClient, settings: Settings, data: bytes = SYNTH_LOG) -> int:
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    assert client.get(f"/api/v1/datasets/{created.json()['id']}").json()["status"] == "ready"
    return int(created.json()["id"])


def create(client: TestClient, dataset_id: int, **params: Any):  # type: ignore[no-untyped-def]
    return client.post(f"/api/v1/datasets/{dataset_id}/analyses", json=params)


def test_an_analysis_runs_as_a_job_and_stores_the_engine_report(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    stages: list[str] = []
    report = job_service.report

    def spy(session: Any, job_id: int, worker: str, *args: Any) -> None:
        stages.append(args[1])
        report(session, job_id, worker, *args)

    monkeypatch.setattr(job_service, "report", spy)
    client = signed_in(settings, member(settings, "a@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    response = create(client, dataset_id, percentile=90, stance="strict")
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/api/v1/analyses/{response.json()['id']}"
    body = response.json()
    assert body["kind"] == "capacity" and body["dataset_id"] == dataset_id
    assert body["params"]["percentile"] == 90 and body["params"]["window_s"] == 10
    assert body["job"]["kind"] == "capacity.analyze" and body["job"]["status"] == "queued"
    assert body["result"] is None
    assert run_job(settings, body["job"]["id"], capacity_body)
    done = client.get(f"/api/v1/analyses/{body['id']}").json()
    assert done["job"]["status"] == "succeeded" and done["job"]["stage"] == "done"
    assert stages[-2:] == ["loading", "analysing"]
    parsed = parse_chunk(SYNTH_LOG, detect_format(SYNTH_LOG))
    params = CapacityParams(percentile=90, stance="strict")
    expected = analyze(for_capacity(parsed.table), params).to_dict()
    assert done["result"]["classes"]["all"]["knee"] == expected["classes"]["all"]["knee"]
    assert done["result"]["classes"]["all"]["sla"] == expected["classes"]["all"]["sla"]
    assert done["result"]["capacity"] == expected["capacity"]
    assert set(done["result"]["classes"]) == {"all"}


def test_same_parameters_return_the_same_analysis_and_others_are_kept(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    first = create(client, dataset_id, percentile=95)
    assert first.status_code == 202
    again = create(client, dataset_id, percentile=95.0, stance="balanced")  # defaults spelt out
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other = create(client, dataset_id, percentile=99)
    assert other.status_code == 202 and other.json()["id"] != first.json()["id"]
    listed = client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()
    assert listed["total"] == 2
    assert [a["id"] for a in listed["items"]] == [other.json()["id"], first.json()["id"]]
    assert listed["items"][0]["job"]["status"] == "queued"


@pytest.mark.parametrize(
    "params, field",
    [
        ({"percentile": 20}, "percentile"),
        ({"percentile": 99.99}, "percentile"),
        ({"stance": "reckless"}, "stance"),
        ({"threshold_s": 0}, "threshold_s"),
        ({"window_s": 0.1}, "window_s"),
        ({"bins": 1}, "bins"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_parameters_are_422_naming_the_field(
    settings: Settings, params: dict[str, Any], field: str
) -> None:
    client = signed_in(settings, member(settings, "c@example.com", "Shop"))
    response = client.post("/api/v1/datasets/1/analyses", json=params)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "validation_error"
    assert response.json()["error"]["field"] == field


def test_a_dataset_not_yet_ingested_is_409(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "d@example.com", "Shop"))
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=SYNTH_LOG,
        headers={"Content-Type": "application/octet-stream"},
    ).json()
    response = create(client, created["id"])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "dataset_not_ready"
    assert client.get(f"/api/v1/datasets/{created['id']}/analyses").json()["total"] == 0


def test_a_log_without_latencies_is_refused_with_422_no_latency(
    settings: Settings, sample_log: Path
) -> None:
    """What the ingest knows (no response times) refuses the analysis before a job runs."""
    client = signed_in(settings, member(settings, "e@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings, sample_log.read_bytes())
    response = create(client, dataset_id)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "no_latency" and "response times" in error["message"]
    assert "threshold_s" not in error["message"] and "%D" in error["message"]
    assert client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()["total"] == 0
    assert client.get(f"/api/v1/datasets/{dataset_id}").json()["status"] == "ready"


def test_asking_again_reruns_a_job_that_failed_through_no_fault_of_the_input(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "k@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    first = create(client, dataset_id).json()
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, first["job"]["id"])
        assert job is not None
        job_service.fail(session, job, "internal_error", "unexpected error: the disk vanished")
    again = create(client, dataset_id)
    assert again.status_code == 202 and again.json()["id"] == first["id"]
    new_job = again.json()["job"]
    assert new_job["id"] != first["job"]["id"] and new_job["status"] == "queued"
    assert run_job(settings, new_job["id"], capacity_body)
    done = client.get(f"/api/v1/analyses/{first['id']}").json()
    assert done["job"]["status"] == "succeeded" and done["result"]["classes"]["all"]["knee"]
    assert client.get(f"/api/v1/jobs/{first['job']['id']}").json()["status"] == "failed"


def test_other_workspaces_see_nothing_and_viewers_cannot_create(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "f@example.com", "Mine"))
    viewer = signed_in(settings, member(settings, "g@example.com", "Mine", Role.viewer))
    stranger = signed_in(settings, member(settings, "h@example.com", "Theirs"))
    dataset_id = ready_dataset(owner, settings)
    analysis = create(owner, dataset_id).json()
    for path in (
        f"/api/v1/analyses/{analysis['id']}",
        f"/api/v1/datasets/{dataset_id}/analyses",
        f"/api/v1/jobs/{analysis['job']['id']}",
    ):
        assert stranger.get(path).status_code == 404, path
        assert viewer.get(path).status_code == 200, path
    assert create(stranger, dataset_id).status_code == 404
    refused = create(viewer, dataset_id, percentile=99)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert owner.get(f"/api/v1/datasets/{dataset_id}/analyses").json()["total"] == 1


def test_deleting_the_dataset_deletes_its_analyses(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "i@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    analysis = create(client, dataset_id).json()
    assert client.delete(f"/api/v1/datasets/{dataset_id}").status_code == 204
    assert client.get(f"/api/v1/analyses/{analysis['id']}").status_code == 404


def test_a_log_too_short_for_the_windows_is_refused_with_422(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "l@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)  # 720 s of traffic
    response = create(client, dataset_id, window_s=600)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "log_too_short" and error["field"] == "window_s"
    assert "shorter windows" in error["message"]
    assert client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()["total"] == 0
    assert create(client, dataset_id, window_s=60).status_code == 202  # 12 windows: fine
