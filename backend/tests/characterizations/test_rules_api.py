"""Rules stored per dataset (GET/PUT), the characterization under them, and the chart data
the dataset page draws, with jobs run inline."""

import json
from typing import Any

from fastapi.testclient import TestClient

from headroom.characterizations.parts import characterize_body
from headroom.core.settings import REPO_ROOT, Settings
from headroom.engine.workload import rules_schema
from headroom.jobs.runner import run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

from .test_characterizations_api import CUSTOM, SYNTH_LOG, create, ready_dataset


def rules_path(dataset_id: int) -> str:
    return f"/api/v1/datasets/{dataset_id}/rules"


def put(client: TestClient, dataset_id: int, rules: Any):  # type: ignore[no-untyped-def]
    return client.put(rules_path(dataset_id), json=rules)


def test_saved_rules_drive_the_current_characterization(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "r1@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    before = client.get(rules_path(dataset_id)).json()
    assert before["is_default"] and before["updated_by"] is None
    assert before["rules"] == client.get("/api/v1/characterizations/rules/default").json()
    missing = client.get(f"/api/v1/datasets/{dataset_id}/characterization")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"

    saved = put(client, dataset_id, CUSTOM)
    assert saved.status_code == 200, saved.text
    item = saved.json()["characterization"]
    assert item["rules"] == saved.json()["rules"]["rules"] and item["job"]["status"] == "queued"
    after = client.get(rules_path(dataset_id)).json()
    assert not after["is_default"] and after["updated_by"]["email"] == "r1@example.com"
    assert after["rules"]["request"]["default"] == "reads"
    assert create(client, dataset_id).json()["id"] == item["id"]  # no body: the stored rules

    assert run_job(settings, item["job"]["id"], characterize_body)
    current = client.get(f"/api/v1/datasets/{dataset_id}/characterization").json()
    assert current["id"] == item["id"] and current["job"]["status"] == "succeeded"
    result = current["result"]
    display = result["display"]
    for view in display["arrivals"].values():
        assert view["stats"]["total"] == result["requests"] == SYNTH_LOG.count(b"\n")
        assert set(view["by_class"]) <= {"reads", "writes"} and len(view["count"]) <= 2000
    assert sum(r["requests"] for r in display["paths"]) == result["requests"]
    assert display["latency"]["every_s"] == 60 and set(display["latency"]["by_class"]) == {"reads"}
    assert put(client, dataset_id, CUSTOM).json()["characterization"]["id"] == item["id"]


def test_bad_rules_are_refused_naming_the_field_and_nothing_is_stored(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "r2@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings)
    office = {"cls": "office", "clients": ["10.0.0.0/33"]}
    bad = {**CUSTOM, "user": {"rules": [office], "default": "x"}}
    response = put(client, dataset_id, bad)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "validation_error" and error["field"] == "user.rules.0.clients"
    assert client.get(rules_path(dataset_id)).json()["is_default"]


def test_viewers_read_rules_but_cannot_save_them(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "r3@example.com", "Mine"))
    viewer = signed_in(settings, member(settings, "r4@example.com", "Mine", Role.viewer))
    stranger = signed_in(settings, member(settings, "r5@example.com", "Theirs"))
    dataset_id = ready_dataset(owner, settings)
    assert viewer.get(rules_path(dataset_id)).status_code == 200
    assert put(viewer, dataset_id, CUSTOM).status_code == 403
    assert stranger.get(rules_path(dataset_id)).status_code == 404
    assert put(stranger, dataset_id, CUSTOM).status_code == 404
    assert owner.get(rules_path(dataset_id)).json()["is_default"]


def test_the_rules_editor_validates_against_the_published_schema() -> None:
    """The UI's copy of the schema (its validator's tests use it) is the one the API serves."""
    copy = REPO_ROOT / "frontend/src/features/characterization/rulesSchema.fixture.json"
    assert json.loads(copy.read_text()) == rules_schema()
