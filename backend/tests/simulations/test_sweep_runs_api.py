"""A sweep keeps every run's full result: GET /simulations/{id}/runs/{index} returns the
stored document (no new simulation), equal to the engine's own run of that point."""

from typing import Any

from fastapi.testclient import TestClient
from simulations.scenarios import mm1, scaling

from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.engine.sim import Simulation
from headroom.jobs.runner import run_job
from headroom.simulations import stored_runs
from headroom.simulations.documents import run_document
from headroom.simulations.result_models import stored
from headroom.simulations.run import simulation_body
from headroom.simulations.sweep import set_path
from support.factories import member, signed_in

VALUES = [0.5, 0.9]


def finished_sweep(settings: Settings, client: TestClient) -> dict[str, Any]:
    sweep = {"path": "autoscaling.upper", "values": VALUES}
    body = {"name": "upper", "scenario": scaling(300), "sweep": sweep, "seed": 4}
    created = client.post("/api/v1/simulations", json=body).json()
    assert run_job(settings, created["job"]["id"], simulation_body)
    done: dict[str, Any] = client.get(f"/api/v1/simulations/{created['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    return done


def test_each_run_of_a_sweep_opens_its_stored_result(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "sr1@example.com", "Sim"))
    sweep = finished_sweep(settings, client)
    total = client.get("/api/v1/simulations").json()["total"]
    for index, value in enumerate(VALUES):
        response = client.get(f"/api/v1/simulations/{sweep['id']}/runs/{index}")
        assert response.status_code == 200, response.text
        run = response.json()
        scenario = set_path(scaling(300), "autoscaling.upper", value)
        assert run["values"] == {"autoscaling.upper": value} and run["index"] == index
        assert run["scenario"] == scenario and run["seed"] == 4 and run["name"] == "upper"
        # the stored document is the engine's run of that point, charts and all
        expected = stored(run_document(Simulation(scenario).run(4)))
        expected["summary"].pop("wall_s")
        run["result"]["summary"].pop("wall_s")
        assert run["result"] == expected
        row = dict(sweep["result"]["runs"][index]["summary"])
        row.pop("wall_s")
        assert run["result"]["summary"] == row  # the frontier's point is this run
    assert client.get("/api/v1/simulations").json()["total"] == total  # nothing re-ran


def test_missing_runs_are_404_with_a_reason(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "sr2@example.com", "Sim"))
    sweep = finished_sweep(settings, client)
    out_of_range = client.get(f"/api/v1/simulations/{sweep['id']}/runs/{len(VALUES)}")
    assert out_of_range.status_code == 404
    assert out_of_range.json()["error"]["field"] == "index"
    single = client.post("/api/v1/simulations", json={"name": "one", "scenario": mm1()}).json()
    response = client.get(f"/api/v1/simulations/{single['id']}/runs/0")
    assert response.status_code == 404 and "not a sweep" in response.json()["error"]["message"]
    # a sweep whose runs were not kept (one from before they were) says so
    open_store(settings.resolved_storage_url()).delete(stored_runs.key(sweep["job"]["id"], 1))
    gone = client.get(f"/api/v1/simulations/{sweep['id']}/runs/1")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "run_not_stored"
    stranger = signed_in(settings, member(settings, "sr3@example.com", "Elsewhere"))
    assert stranger.get(f"/api/v1/simulations/{sweep['id']}/runs/0").status_code == 404


def test_an_unfinished_sweep_has_no_runs_yet(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "sr4@example.com", "Sim"))
    body = {"name": "q", "scenario": mm1(), "sweep": {"path": "seed", "values": [1, 2]}}
    created = client.post("/api/v1/simulations", json=body).json()
    response = client.get(f"/api/v1/simulations/{created['id']}/runs/0")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_ready"
