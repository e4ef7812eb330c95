"""Characterizations over HTTP: a job per rules (idempotent), the engine's result plus
histograms, the model download, the schemas, workspace scoping and roles, on SQLite
and PostgreSQL, with jobs run inline."""

from typing import Any

import jsonschema
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient
from sqlalchemy import select

from headroom.analyses.tables import jsonable
from headroom.characterizations import repository
from headroom.characterizations.parts import characterize_body
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.followup import queue_characterization
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import Rules, characterize, rules_schema, workload_model_schema
from headroom.jobs.models import Job
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

SYNTH_LOG = combined_latency_lines(mm1_table())
CUSTOM = {
    "request": {"rules": [{"cls": "writes", "methods": ["POST", "PUT"]}], "default": "reads"},
    "user": {"rules": [], "default": "everyone"},
}


def ready_dataset(client: TestClient, settings: Settings, data: bytes = SYNTH_LOG) -> int:
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    return int(created.json()["id"])


def create(client: TestClient, dataset_id: int, body: Any = None):  # type: ignore[no-untyped-def]
    path = f"/api/v1/datasets/{dataset_id}/characterizations"
    return client.post(path) if body is None else client.post(path, json=body)


def engine_result(rules: dict[str, Any] | None = None) -> dict[str, Any]:
    table = parse_chunk(SYNTH_LOG, detect_format(SYNTH_LOG)).table.sort("ts")
    parsed_rules = Rules.model_validate(rules) if rules else None
    return jsonable(characterize(table, parsed_rules).to_dict())  # type: ignore[no-any-return]


def test_a_characterization_runs_as_a_job_and_stores_the_engine_result(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "a@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    response = create(client, dataset_id)
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/api/v1/characterizations/{response.json()['id']}"
    body = response.json()
    assert body["job"]["kind"] == "workload.characterize" and body["job"]["status"] == "queued"
    assert body["result"] is None and body["dataset_id"] == dataset_id
    default = client.get("/api/v1/characterizations/rules/default").json()
    assert body["rules"] == default
    assert run_job(settings, body["job"]["id"], characterize_body)
    done = client.get(f"/api/v1/characterizations/{body['id']}").json()
    assert done["job"]["status"] == "succeeded" and done["job"]["stage"] == "done"
    result, expected = done["result"], engine_result()
    for key in ("requests", "arrivals", "classes", "pages", "sessions", "model"):
        assert result[key] == expected[key], key
    assert set(result["fits"]) == set(expected["fits"])
    for name, hist in result["histograms"].items():
        assert name in result["fits"] and len(hist["counts"]) <= 40
        assert len(hist["edges"]) == len(hist["counts"]) + 1 or not hist["counts"]
    table = parse_chunk(SYNTH_LOG, detect_format(SYNTH_LOG)).table.sort("ts")
    direct = characterize(table)
    for name in direct.fits:
        assert result["histograms"][name] == jsonable(direct.histogram(name, 40).to_dict()), name


def test_the_model_downloads_as_a_valid_attachment(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    body = create(client, dataset_id).json()
    early = client.get(f"/api/v1/characterizations/{body['id']}/model")
    assert early.status_code == 404 and early.json()["error"]["code"] == "not_ready"
    assert run_job(settings, body["job"]["id"], characterize_body)
    download = client.get(f"/api/v1/characterizations/{body['id']}/model")
    assert download.status_code == 200
    assert download.headers["content-disposition"].startswith("attachment; filename=")
    schema = client.get("/api/v1/characterizations/model/schema").json()
    assert schema == workload_model_schema()
    jsonschema.validate(download.json(), schema)
    assert download.json() == engine_result()["model"]


def test_same_rules_return_the_same_run_and_edited_rules_keep_both(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "c@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    first = create(client, dataset_id)
    assert first.status_code == 202
    default = client.get("/api/v1/characterizations/rules/default").json()
    again = create(client, dataset_id, {"rules": default})  # the defaults spelt out
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    edited = create(client, dataset_id, {"rules": CUSTOM})
    assert edited.status_code == 202 and edited.json()["id"] != first.json()["id"]
    listed = client.get(f"/api/v1/datasets/{dataset_id}/characterizations").json()
    assert listed["total"] == 2
    assert [c["id"] for c in listed["items"]] == [edited.json()["id"], first.json()["id"]]
    assert run_job(settings, edited.json()["job"]["id"], characterize_body)
    result = client.get(f"/api/v1/characterizations/{edited.json()['id']}").json()["result"]
    assert result["classes"] == engine_result(CUSTOM)["classes"]
    assert set(result["classes"]["user"]) == {"everyone"}


def test_a_characterization_created_at_the_same_moment_is_reused_not_refused(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ingest's follow-up queues the same characterization between the route's lookup
    and its insert: the request answers 200 with that one, and no second job is left."""
    client = signed_in(settings, member(settings, "race@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    lookup = repository.by_rules
    raced: list[int | None] = []

    def lookup_then_race(*args: Any) -> Any:
        found = lookup(*args)
        if not raced:
            raced.append(None)  # the follow-up's own lookup must not race again
            raced[0] = queue_characterization(settings, dataset_id)  # commits on its own
        return found

    monkeypatch.setattr(repository, "by_rules", lookup_then_race)
    response = create(client, dataset_id)
    assert response.status_code == 200, response.text
    assert raced[0] is not None and response.json()["job"]["id"] == raced[0]
    listed = client.get(f"/api/v1/datasets/{dataset_id}/characterizations").json()
    assert listed["total"] == 1
    with session_scope(settings.resolved_database_url()) as session:
        jobs = session.scalars(select(Job).where(Job.kind == "workload.characterize")).all()
        assert [job.id for job in jobs] == [raced[0]]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"rules": {"request": {"rules": [], "default": ""}, "user": CUSTOM["user"]}}, "default"),
        ({"rules": {**CUSTOM, "extra": 1}}, "extra"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_rules_are_422_naming_the_field(
    settings: Settings, body: dict[str, Any], field: str
) -> None:
    client = signed_in(settings, member(settings, "d@example.com", "Shop"))
    response = create(client, 1, body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "validation_error"
    assert field in str(response.json()["error"]["field"])


def test_the_schemas_are_published(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "e@example.com", "Shop"))
    schema = client.get("/api/v1/characterizations/rules/schema").json()
    assert schema == rules_schema()
    jsonschema.validate(client.get("/api/v1/characterizations/rules/default").json(), schema)
    jsonschema.validate(CUSTOM, schema)


def test_a_dataset_not_yet_ingested_is_409(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "f@example.com", "Shop"))
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=SYNTH_LOG,
        headers={"Content-Type": "application/octet-stream"},
    ).json()
    response = create(client, created["id"])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "dataset_not_ready"


def test_other_workspaces_see_nothing_and_viewers_cannot_create(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "g@example.com", "Mine"))
    viewer = signed_in(settings, member(settings, "h@example.com", "Mine", Role.viewer))
    stranger = signed_in(settings, member(settings, "i@example.com", "Theirs"))
    dataset_id = ready_dataset(owner, settings)
    item = create(owner, dataset_id).json()
    assert run_job(settings, item["job"]["id"], characterize_body)
    for path in (
        f"/api/v1/characterizations/{item['id']}",
        f"/api/v1/characterizations/{item['id']}/model",
        f"/api/v1/datasets/{dataset_id}/characterizations",
    ):
        assert stranger.get(path).status_code == 404, path
        assert viewer.get(path).status_code == 200, path
    assert create(stranger, dataset_id).status_code == 404
    refused = create(viewer, dataset_id, {"rules": CUSTOM})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert owner.delete(f"/api/v1/datasets/{dataset_id}").status_code == 204
    assert owner.get(f"/api/v1/characterizations/{item['id']}").status_code == 404
