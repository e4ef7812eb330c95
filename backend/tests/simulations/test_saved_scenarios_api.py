"""Saved scenarios over HTTP (CRUD scoped by workspace, roles, unique names, validation
naming the field), the live scenario check, and the editor's presets (the spec's
reference scenario as written in docs/methods/simulator.md, and a dataset's workload model)."""

from typing import Any

import yaml
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient
from simulations.scenarios import REFERENCE, mm1

from headroom.analyses.run import capacity_body
from headroom.characterizations.parts import characterize_body
from headroom.core.settings import Settings
from headroom.engine.sim.scenario import load_scenario
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

BASE = "/api/v1/simulations/scenarios"


def save(client: TestClient, name: str = "m/m/1", **extra: Any):  # type: ignore[no-untyped-def]
    return client.post(BASE, json={"name": name, "scenario": mm1(), **extra})


def test_a_saved_scenario_round_trips_renames_updates_and_deletes(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "a@example.com", "Sim"))
    created = save(client)
    assert created.status_code == 201, created.text
    item = created.json()
    assert item["scenario"] == mm1() and item["name"] == "m/m/1"
    assert client.get(f"{BASE}/{item['id']}").json() == item
    changed = mm1(duration_s=50.0)
    patched = client.patch(f"{BASE}/{item['id']}", json={"name": "short", "scenario": changed})
    assert patched.status_code == 200, patched.text
    assert patched.json()["name"] == "short" and patched.json()["scenario"] == changed
    assert [i["name"] for i in client.get(BASE).json()["items"]] == ["short"]
    assert client.delete(f"{BASE}/{item['id']}").status_code == 204
    assert client.get(f"{BASE}/{item['id']}").status_code == 404
    assert client.get(BASE).json()["items"] == []


def test_names_are_unique_per_workspace(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Sim"))
    first = save(client, "a").json()
    save(client, "b")
    again = save(client, "a")
    assert again.status_code == 409 and again.json()["error"]["code"] == "name_taken"
    renamed = client.patch(f"{BASE}/{first['id']}", json={"name": "b"})
    assert renamed.status_code == 409 and renamed.json()["error"]["field"] == "name"
    other = signed_in(settings, member(settings, "c@example.com", "Elsewhere"))
    assert save(other, "a").status_code == 201  # another workspace may reuse the name


def test_a_bad_scenario_is_422_naming_the_field_and_nothing_is_stored(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "d@example.com", "Sim"))
    bad = mm1()
    bad["cluster"]["vms"]["max"] = 0
    response = client.post(BASE, json={"name": "bad", "scenario": bad})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "scenario.cluster.vms.max"
    assert client.get(BASE).json()["items"] == []
    item = save(client).json()
    update = client.patch(f"{BASE}/{item['id']}", json={"scenario": bad})
    assert update.status_code == 422
    assert client.get(f"{BASE}/{item['id']}").json()["scenario"] == mm1()


def test_other_workspaces_see_nothing_and_viewers_cannot_write(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "e@example.com", "Sim"))
    item = save(owner).json()
    stranger = signed_in(settings, member(settings, "f@example.com", "Elsewhere"))
    assert stranger.get(f"{BASE}/{item['id']}").status_code == 404
    assert stranger.patch(f"{BASE}/{item['id']}", json={"name": "x"}).status_code == 404
    assert stranger.delete(f"{BASE}/{item['id']}").status_code == 404
    assert stranger.get(BASE).json()["items"] == []
    viewer = signed_in(settings, member(settings, "g@example.com", "Sim", Role.viewer))
    assert viewer.get(f"{BASE}/{item['id']}").status_code == 200
    assert save(viewer, "mine").status_code == 403
    assert viewer.delete(f"{BASE}/{item['id']}").status_code == 403


def test_the_live_check_answers_204_or_422_with_the_field_path(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "h@example.com", "Sim"))
    good = client.post("/api/v1/simulations/schema/check", json={"scenario": mm1()})
    assert good.status_code == 204
    bad = mm1()
    bad["workload"]["service_s"] = {"dist": "uniform", "low": 2, "high": 1}
    response = client.post("/api/v1/simulations/schema/check", json={"scenario": bad})
    assert response.status_code == 422
    assert response.json()["error"]["field"].startswith("scenario.workload.service_s")


def test_the_reference_preset_is_the_spec_scenario_with_an_attainable_sla(
    settings: Settings,
) -> None:
    """As written in the spec but for the SLA threshold (test_reference_sla.py says why)."""
    client = signed_in(settings, member(settings, "i@example.com", "Sim"))
    presets = client.get("/api/v1/simulations/presets").json()
    reference = next(p for p in presets if p["id"] == "reference")
    spec = yaml.safe_load(REFERENCE.read_text())
    assert spec["sla"] == {"percentile": 95, "threshold_s": 10}
    spec["sla"]["threshold_s"] = 30
    assert reference["scenario"] == spec
    load_scenario(reference["scenario"])


def _characterized_dataset(client: TestClient, settings: Settings) -> int:
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=combined_latency_lines(mm1_table()),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    dataset_id = int(created.json()["id"])
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations").json()
    assert run_job(settings, item["job"]["id"], characterize_body)
    return dataset_id


def test_the_dataset_preset_carries_the_workload_model(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "j@example.com", "Sim"))
    dataset_id = _characterized_dataset(client, settings)
    preset = client.get(f"/api/v1/simulations/presets/datasets/{dataset_id}")
    assert preset.status_code == 200, preset.text
    scenario = preset.json()["scenario"]
    items = client.get(f"/api/v1/datasets/{dataset_id}/characterizations").json()["items"]
    model = client.get(f"/api/v1/characterizations/{items[0]['id']}/model").json()
    assert scenario["duration_s"] == model["duration_s"]
    classes = scenario["workload"]["classes"]
    assert [c["name"] for c in classes] == [c["name"] for c in model["classes"]]
    for ours, theirs in zip(classes, model["classes"], strict=True):
        assert ours["arrivals"]["profile"] == theirs["profile"]
    load_scenario(scenario)
    stranger = signed_in(settings, member(settings, "k@example.com", "Elsewhere"))
    assert stranger.get(f"/api/v1/simulations/presets/datasets/{dataset_id}").status_code == 404


def test_a_dataset_without_a_characterization_has_no_preset(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "l@example.com", "Sim"))
    created = client.post(
        "/api/v1/datasets",
        params={"name": "synth.log"},
        content=combined_latency_lines(mm1_table()),
        headers={"Content-Type": "application/octet-stream"},
    )
    response = client.get(f"/api/v1/simulations/presets/datasets/{created.json()['id']}")
    assert response.status_code == 404
    assert "characterize it first" in response.json()["error"]["message"]


def test_the_dataset_policy_presets_come_from_its_characterization(settings: Settings) -> None:
    """source=class_policies / virtual_queue: the policy pages' scenarios from the dataset,
    named for it with the scaling stated; the class-policies one carries its sweep."""
    client = signed_in(settings, member(settings, "jp@example.com", "Sim"))
    dataset_id = _characterized_dataset(client, settings)
    url = f"/api/v1/simulations/presets/datasets/{dataset_id}"
    classes = client.get(url, params={"source": "class_policies"})
    assert classes.status_code == 200, classes.text
    preset = classes.json()
    assert preset["id"] == f"dataset-{dataset_id}-class-policies"
    assert (
        "synth.log" in preset["scenario"]["name"] and "1.4x capacity" in preset["scenario"]["name"]
    )
    assert {c["user"] for c in preset["scenario"]["workload"]["classes"]} == {"top", "normal"}
    assert [v["policy"] for v in preset["sweep"]["values"]] == [
        "none",
        "switch_adm",
        "static_part",
        "dynamic_part",
    ]
    assert len(preset["sweep"]["second"]["values"]) == 5
    queue = client.get(url, params={"source": "virtual_queue"}).json()
    assert queue["id"] == f"dataset-{dataset_id}-virtual-queue" and queue["sweep"] is None
    assert "busiest hour is 130 req/s" in queue["description"]
    for scenario in (preset["scenario"], queue["scenario"]):
        load_scenario(scenario)


def test_the_dataset_preset_takes_the_sla_its_data_gives(settings: Settings) -> None:
    """Not the reference's 30 s: the log's own p99 at p95 before any analysis, then the
    SLA the dataset's capacity analysis derived."""
    client = signed_in(settings, member(settings, "s@example.com", "Sim"))
    dataset_id = _characterized_dataset(client, settings)
    summary = client.get(f"/api/v1/datasets/{dataset_id}/summary").json()
    url = f"/api/v1/simulations/presets/datasets/{dataset_id}"
    before = client.get(url).json()
    p99 = float(f"{summary['latency']['p99_s']:.3g}")
    assert before["scenario"]["sla"] == {"percentile": 95.0, "threshold_s": p99}
    assert "p99 response time" in before["description"]
    analysis = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses", json={"kind": "capacity", "threshold_s": 0.05}
    ).json()
    assert run_job(settings, analysis["job"]["id"], capacity_body)
    derived = client.get(f"/api/v1/analyses/{analysis['id']}").json()["result"]["classes"]
    sla = derived["all"]["sla"]
    after = client.get(url).json()
    assert after["scenario"]["sla"] == {
        "percentile": float(sla["percentile"]),
        "threshold_s": sla["threshold_s"],
    }
    assert "capacity analysis" in after["description"]
    load_scenario(after["scenario"])
