"""Recommendations over HTTP: computed from the finished report by the engine, at the SLA
thresholds the caller gives (the analysis' own for the classes left out), per server for SCT
analyses; 409 before the report exists, 404 outside the workspace, readable by viewers."""

import pytest
from analyses.test_analyses_api import create, ready_dataset
from analyses.test_sct_api import create_sct, trace_csv  # noqa: F401 (a fixture)

from headroom.analyses.run import capacity_body
from headroom.core.settings import Settings
from headroom.engine import recommend
from headroom.jobs.runner import run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in


def recommendations(client, analysis_id: int, thresholds_s: dict[str, float] | None = None):  # type: ignore[no-untyped-def]
    body = None if thresholds_s is None else {"thresholds_s": thresholds_s}
    return client.post(f"/api/v1/analyses/{analysis_id}/recommendations", json=body)


def test_a_capacity_analysis_serves_the_engine_recommendations(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "r1@example.com", "Shop"))
    viewer = signed_in(settings, member(settings, "r2@example.com", "Shop", Role.viewer))
    stranger = signed_in(settings, member(settings, "r3@example.com", "Theirs"))
    analysis = create(owner, ready_dataset(owner, settings), percentile=90).json()
    early = recommendations(owner, analysis["id"])
    assert early.status_code == 409 and early.json()["error"]["code"] == "analysis_not_done"
    assert run_job(settings, analysis["job"]["id"], capacity_body)
    report = owner.get(f"/api/v1/analyses/{analysis['id']}").json()["result"]

    served = recommendations(viewer, analysis["id"])
    assert served.status_code == 200, served.text
    body = served.json()
    own = report["classes"]["all"]["sla"]["threshold_s"]
    assert body["analysis_id"] == analysis["id"] and body["thresholds_s"] == {"all": own}
    expected = recommend.capacity_recommendations(report, 90, {"all": own})
    assert [r["text"] for r in body["items"]] == [r.text for r in expected]
    assert body["items"][0]["id"] == "all-rate" and body["items"][0]["class_name"] == "all"
    assert body["items"][0]["text"].startswith("Keep the site under")

    tighter = recommendations(owner, analysis["id"], {"all": own / 2, "nope": 1.0}).json()
    assert tighter["thresholds_s"] == {"all": own / 2}  # unknown classes are dropped
    assert tighter["items"][0]["text"] != body["items"][0]["text"]

    bad = recommendations(owner, analysis["id"], {"all": -1.0})
    assert bad.status_code == 422
    assert recommendations(stranger, analysis["id"]).status_code == 404


def test_an_sct_analysis_serves_one_recommendation_per_server(
    settings: Settings,
    trace_csv: bytes,  # noqa: F811
) -> None:
    client = signed_in(settings, member(settings, "r4@example.com", "Shop"))
    analysis = create_sct(client, ready_dataset(client, settings, trace_csv), window_s=None).json()
    assert run_job(settings, analysis["job"]["id"], capacity_body)
    server = client.get(f"/api/v1/analyses/{analysis['id']}").json()["result"]["servers"]["app-1"]
    body = recommendations(client, analysis["id"], {"all": 1.0}).json()
    assert body["thresholds_s"] == {}
    [rec] = body["items"]
    assert rec["id"] == "sct-app-1" and rec["chart"] == "throughput-chart"
    assert rec["text"].startswith(f"SCT puts app-1's best pool size at {server['q_lower']}")
    link = rec["link"]
    assert link["to"] == "/simulations/new"
    assert link["scenario"]["autoscaling"]["step_size"] == "band_middle"
    assert link["scenario"]["cluster"]["tiers"][1]["cores"] == server["q_lower"]
    assert pytest.approx(server["tp_max_per_s"], rel=0.01) == (
        server["q_lower"] / link["scenario"]["cluster"]["tiers"][1]["service_s"]["mean"]
    )
