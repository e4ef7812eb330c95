"""Background policy comparisons over HTTP: a demo or an uploaded CSV, the engine's numbers
(computed in a helper process), bad input as a 422 naming the line, sign-in required."""

from pathlib import Path

import pytest
from simulations.scenarios import mm1

from headroom.core.settings import Settings
from headroom.engine.background.compare import compare_csv
from headroom.jobs.runner import run_job
from headroom.simulations.run import simulation_body
from support.factories import member, signed_in

EPA = Path(__file__).parents[3] / "data" / "profiles" / "epa_cpu_demand.csv"
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def test_demo_matches_the_engine(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "p@example.com", "Shop"))
    demos = client.get("/api/v1/policies/background/demos").json()
    assert [d["id"] for d in demos][:2] == ["epa_day", "large_variation"]
    response = client.post("/api/v1/policies/background/compare", json={"demo": "epa_day"})
    assert response.status_code == 200, response.text
    body = response.json()
    expected = compare_csv(EPA.read_text(), None, 1.0)
    assert body["policies"] == expected["policies"]
    assert body["rounds"] == 1440 and body["round_s"] == 60
    assert len(body["series"]["quota_adaptive"]) <= 600


def test_rate_profile_demo_and_csv(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "q@example.com", "Shop"))
    spike = client.post("/api/v1/policies/background/compare", json={"demo": "big_spike"})
    assert spike.status_code == 200, spike.text
    assert max(spike.json()["series"]["demand"]) <= 0.9 + 1e-9
    csv = "t_s,busy_fraction\n0,0.2\n1,0.9\n2,0.1\n"
    own = client.post("/api/v1/policies/background/compare", json={"csv": csv})
    assert own.status_code == 200 and own.json()["rounds"] == 3


def test_bad_input(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "r@example.com", "Shop"))
    bad = client.post("/api/v1/policies/background/compare", json={"csv": "0,0.5\n1,7\n"})
    assert bad.status_code == 422
    error = bad.json()["error"]
    assert error["code"] == "bad_series" and "line 2" in error["message"]
    neither = client.post("/api/v1/policies/background/compare", json={})
    assert neither.status_code == 422 and neither.json()["error"]["code"] == "bad_series"
    unknown = client.post("/api/v1/policies/background/compare", json={"demo": "nope"})
    assert unknown.status_code == 422


def test_sign_in_required(settings: Settings) -> None:
    from fastapi.testclient import TestClient

    from headroom.api.app import create_app

    anonymous = TestClient(create_app(settings))
    assert anonymous.post("/api/v1/policies/background/compare", json={}).status_code == 401


def test_a_finished_simulation_runs_utilization_is_the_series(settings: Settings) -> None:
    """An M/M/1 at utilisation 0.8: the series is the run's stored utilization buckets,
    evenly spaced, averaging near 0.8; unknown, other workspaces' and unfinished runs are
    404, a sweep a 422 naming the field."""
    owner = member(settings, "sim@example.com", "Shop")
    client = signed_in(settings, owner)
    url = "/api/v1/policies/background/compare"
    body = {"name": "mm1", "scenario": mm1(duration_s=2000.0)}
    created = client.post("/api/v1/simulations", json=body).json()
    queued = client.post(url, json={"simulation_id": created["id"]})
    assert queued.status_code == 404 and queued.json()["error"]["code"] == "not_ready"
    assert run_job(settings, created["job"]["id"], simulation_body)

    response = client.post(url, json={"simulation_id": created["id"]})
    assert response.status_code == 200, response.text
    rates = client.get(f"/api/v1/simulations/{created['id']}").json()["result"]["rates"]
    assert response.json()["round_s"] == pytest.approx(rates["bucket_s"])
    assert response.json()["rounds"] in (len(rates["t_s"]), len(rates["t_s"]) - 1)
    demand = response.json()["series"]["demand"]
    assert sum(demand) / len(demand) == pytest.approx(0.8, abs=0.08)

    stranger = signed_in(settings, member(settings, "x@example.com", "Other"))
    assert stranger.post(url, json={"simulation_id": created["id"]}).status_code == 404
    assert client.post(url, json={"simulation_id": 10**6}).status_code == 404
    both = client.post(url, json={"simulation_id": created["id"], "demo": "epa_day"})
    assert both.status_code == 422
    sweep = {**body, "sweep": {"path": "seed", "values": [1, 2]}}
    swept = client.post("/api/v1/simulations", json=sweep).json()
    refused = client.post(url, json={"simulation_id": swept["id"]})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "simulation_id"
