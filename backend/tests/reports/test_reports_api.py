"""Reports over HTTP: items copied from real results (figures checked against the source
documents), edits, workspace scoping, roles, private reports, on SQLite and PostgreSQL."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from reports.report_sources import Documents, Planted, plant
from sqlalchemy import update

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs.models import Job, JobStatus, Result
from headroom.workspaces.models import Role
from support.factories import Member, member, signed_in


def all_items(planted: Planted) -> list[dict[str, Any]]:
    return [
        {"kind": "capacity", "source_id": planted.analysis_id},
        {"kind": "characterization", "source_id": planted.characterization_id},
        {"kind": "simulation", "source_id": planted.simulation_id},
        {"kind": "traffic", "source_id": planted.dataset_id},
    ]


def figures(item: dict[str, Any]) -> dict[str, float | None]:
    return {f["key"]: f["value"] for f in item["figures"]}


@pytest.fixture
def owner(settings: Settings) -> Member:
    return member(settings, "owner@example.com", "Team")


@pytest.fixture
def planted(settings: Settings, documents: Documents, owner: Member) -> Planted:
    return plant(settings, documents, owner.workspace_id)


def create(client: TestClient, planted: Planted, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/reports", json={"title": "Q3", "items": all_items(planted), **body}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_items_copy_the_sources_figures_and_charts(
    settings: Settings, documents: Documents, owner: Member, planted: Planted
) -> None:
    report = create(signed_in(settings, owner), planted, notes_md="Knee at *77* req/s")
    assert report["notes_html"] == "<p>Knee at <em>77</em> req/s</p>\n" and report["can_edit"]
    preview = signed_in(settings, owner).post(
        "/api/v1/reports/notes-preview", json={"notes_md": "Knee at *77* req/s"}
    )
    assert preview.json() == {"notes_html": report["notes_html"]}
    capacity, workload, simulation, traffic = report["items"]
    assert [i["position"] for i in report["items"]] == [0, 1, 2, 3]
    cls = documents.analysis["classes"]["all"]
    assert capacity["view"] == "all" and capacity["params"]["percentile"] == 95.0
    assert figures(capacity)["knee_load"] == cls["knee"]["load_per_s"]
    assert figures(capacity)["max_rate"] == cls["sla"]["max_rate_per_s"]
    knee = capacity["charts"][0]
    measured = [p for p in cls["curve"] if p["source"] == "measured"]
    assert knee["series"][0]["x"] == sorted(p["load_per_s"] for p in measured)
    assert [m["label"] for m in knee["marks"]] == ["Knee = MaxRate", "Breaking point"]  # one point
    summary = documents.simulation["summary"]
    assert figures(simulation)["latency_p95"] == summary["latency_s"]["p95"]
    assert figures(simulation)["vm_hours"] == summary["vms"]["vm_hours"]
    assert figures(traffic)["requests"] == documents.summary["request_count"]
    assert len(traffic["charts"][0]["series"][0]["x"]) == len(documents.summary["series"])
    assert figures(workload)["latency_p95"] == documents.characterization["latency"]["p95_s"]
    assert traffic["params"]["dataset"] == "mm4.log"


def test_a_rerun_source_does_not_change_the_report(
    settings: Settings, owner: Member, planted: Planted
) -> None:
    client = signed_in(settings, owner)
    report = create(client, planted)
    with session_scope(settings.resolved_database_url()) as session:
        session.execute(update(Result).values(document={"classes": {}, "kind": "gone"}))
    assert client.get(f"/api/v1/reports/{report['id']}").json()["items"] == report["items"]


def test_edit_reorder_remove_and_delete(
    settings: Settings, owner: Member, planted: Planted
) -> None:
    client = signed_in(settings, owner)
    report = create(client, planted)
    ids = [i["id"] for i in report["items"]]
    url = f"/api/v1/reports/{report['id']}"
    edited = client.patch(url, json={"title": "Q4", "item_ids": [ids[3], ids[0]]}).json()
    assert edited["title"] == "Q4" and [i["id"] for i in edited["items"]] == [ids[3], ids[0]]
    bad = client.patch(url, json={"item_ids": [ids[1]]})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "item_ids"
    after = client.delete(f"{url}/items/{ids[3]}").json()
    assert [i["id"] for i in after["items"]] == [ids[0]]
    added = client.post(
        f"{url}/items", json={"kind": "capacity", "source_id": planted.analysis_id, "view": "nope"}
    )
    assert added.status_code == 422 and "no class 'nope'" in added.json()["error"]["message"]
    tab = {"kind": "characterization", "source_id": planted.characterization_id}
    refused = client.post(f"{url}/items", json={**tab, "view": "paths"})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "view"
    latency = client.post(f"{url}/items", json={**tab, "view": "latency"})  # no chart data kept
    assert latency.status_code == 422 and "run it again" in latency.json()["error"]["message"]
    assert client.get("/api/v1/reports").json()["items"][0]["item_count"] == 1
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404


def test_other_workspaces_see_nothing_and_cannot_use_their_sources(
    settings: Settings, documents: Documents, owner: Member, planted: Planted
) -> None:
    report = create(signed_in(settings, owner), planted)
    stranger = member(settings, "stranger@example.com", "Elsewhere")
    theirs = plant(settings, documents, stranger.workspace_id, name="theirs.log")
    client = signed_in(settings, stranger)
    url = f"/api/v1/reports/{report['id']}"
    for method, path in [
        ("GET", url),
        ("PATCH", url),
        ("DELETE", url),
        ("GET", f"{url}/export"),
        ("GET", f"{url}/links"),
        ("POST", f"{url}/links"),
        ("POST", f"{url}/items"),
    ]:
        body = {"kind": "traffic", "source_id": theirs.dataset_id} if path.endswith("items") else {}
        response = client.request(method, path, json=body if method != "GET" else None)
        assert response.status_code == 404, (method, path, response.text)
    assert client.get("/api/v1/reports").json() == {"items": [], "total": 0}
    foreign = {"kind": "capacity", "source_id": planted.analysis_id}
    mine = client.post("/api/v1/reports", json={"title": "x", "items": [foreign]})
    assert mine.status_code == 404


def test_viewers_read_and_cannot_write_and_private_reports_stay_private(
    settings: Settings, owner: Member, planted: Planted
) -> None:
    owner_client = signed_in(settings, owner)
    shared = create(owner_client, planted)
    private = create(owner_client, planted, visibility="private", title="draft")
    viewer = signed_in(settings, member(settings, "viewer@example.com", "Team", Role.viewer))
    url = f"/api/v1/reports/{shared['id']}"
    seen = viewer.get(url).json()
    assert seen["can_edit"] is False and seen["items"] == shared["items"]
    assert viewer.get(f"{url}/export?format=json").status_code == 200
    assert viewer.patch(url, json={"title": "mine"}).status_code == 403
    assert viewer.delete(url).status_code == 403
    assert viewer.post(f"{url}/links", json={}).status_code == 403
    assert viewer.post("/api/v1/reports", json={"title": "v"}).status_code == 403
    assert viewer.get(f"/api/v1/reports/{private['id']}").status_code == 404
    assert [r["id"] for r in viewer.get("/api/v1/reports").json()["items"]] == [shared["id"]]
    assert owner_client.get(f"/api/v1/reports/{private['id']}").status_code == 200


def test_unfinished_or_missing_sources_are_refused(
    settings: Settings, owner: Member, planted: Planted
) -> None:
    client = signed_in(settings, owner)
    with session_scope(settings.resolved_database_url()) as session:
        session.execute(update(Job).where(Job.kind == "sim.run").values(status=JobStatus.running))
    url = f"/api/v1/reports/{create(client, planted, items=[])['id']}/items"
    running = client.post(url, json={"kind": "simulation", "source_id": planted.simulation_id})
    assert running.status_code == 409 and running.json()["error"]["code"] == "source_not_ready"
    assert client.post(url, json={"kind": "simulation", "source_id": 9999}).status_code == 404


def test_comparisons_of_reports_and_of_runs(
    settings: Settings, documents: Documents, owner: Member, planted: Planted
) -> None:
    """The second analysis's knee is 25 % higher (hand-made): +25 %, better; the rest equal."""
    faster = plant(settings, documents, owner.workspace_id, name="faster.log", scale=1.25)
    client = signed_in(settings, owner)
    a = create(
        client,
        planted,
        items=[
            {"kind": "capacity", "source_id": planted.analysis_id},
            {"kind": "simulation", "source_id": planted.simulation_id},
        ],
    )
    b = create(
        client,
        planted,
        items=[
            {"kind": "capacity", "source_id": faster.analysis_id},
            {"kind": "traffic", "source_id": faster.dataset_id},
        ],
    )
    compared = client.get(f"/api/v1/comparisons/reports?a={a['id']}&b={b['id']}").json()
    assert compared["only_in_a"] == ["Simulation scaling"]
    assert compared["only_in_b"] == ["Traffic of faster.log"]
    (item,) = compared["items"]
    deltas = {f["key"]: f for f in item["figures"]}
    knee = documents.analysis["classes"]["all"]["knee"]["load_per_s"]
    assert deltas["knee_load"]["a"] == knee and deltas["knee_load"]["verdict"] == "better"
    assert deltas["knee_load"]["change_pct"] == pytest.approx(25.0, rel=1e-12)
    assert deltas["max_rate"]["verdict"] == "same" and deltas["max_rate"]["delta"] == 0.0
    knee_chart = item["charts"][0]
    assert [s["label"][:2] for s in knee_chart["series"]].count("A:") == len(
        a["items"][0]["charts"][0]["series"]
    )
    runs = client.get(
        "/api/v1/comparisons/runs",
        params={"kind": "capacity", "a": planted.analysis_id, "b": faster.analysis_id},
    ).json()
    assert runs["items"][0]["figures"] == item["figures"]
    same = client.get(
        "/api/v1/comparisons/runs",
        params={"kind": "simulation", "a": planted.simulation_id, "b": planted.simulation_id},
    ).json()
    assert {f["verdict"] for f in same["items"][0]["figures"]} == {"same"}
    stranger = signed_in(settings, member(settings, "s@example.com", "Other"))
    assert stranger.get(f"/api/v1/comparisons/reports?a={a['id']}&b={b['id']}").status_code == 404
