"""Simulations over HTTP: create (scenario and sweep validated by the engine), run inline as a
job with progress, cancel, sweeps, workspace scoping and roles, on SQLite and PostgreSQL."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from simulations.scenarios import mm1, scaling

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.engine.sim import Simulation, scenario_json_schema
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, JobStatus
from headroom.jobs.runner import run_job
from headroom.simulations.documents import SERIES_BUCKETS, SERIES_POINTS, STEP_POINTS
from headroom.simulations.run import simulation_body
from headroom.simulations.sweep import set_path
from headroom.workspaces.models import Role
from support.factories import member, signed_in


def create(client: TestClient, **body: Any):  # type: ignore[no-untyped-def]
    return client.post("/api/v1/simulations", json={"name": "s", **body})


def run(settings: Settings, client: TestClient, simulation: dict[str, Any]) -> dict[str, Any]:
    assert run_job(settings, simulation["job"]["id"], simulation_body)
    done: dict[str, Any] = client.get(f"/api/v1/simulations/{simulation['id']}").json()
    return done


def test_a_run_reports_progress_and_stores_summary_and_series(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    fractions: list[float] = []
    report = job_service.report

    def spy(session: Any, job_id: int, worker: str, progress: float, *args: Any) -> None:
        fractions.append(progress)
        report(session, job_id, worker, progress, *args)

    monkeypatch.setattr(job_service, "report", spy)
    client = signed_in(settings, member(settings, "a@example.com", "Sim"))
    response = create(client, scenario=scaling(), seed=7)
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/api/v1/simulations/{response.json()['id']}"
    body = response.json()
    assert body["kind"] == "run" and body["seed"] == 7 and body["sweep"] is None
    assert body["job"]["kind"] == "sim.run" and body["job"]["status"] == "queued"
    assert body["result"] is None and body["created_by"]["email"] == "a@example.com"
    done = run(settings, client, body)
    assert done["job"]["status"] == "succeeded" and done["job"]["progress"] == 1.0
    assert fractions[0] == 0.0 and len(fractions) > 3  # starting, then per simulated share
    assert fractions == sorted(fractions) and 0.5 < fractions[-1] <= 0.99
    result = done["result"]
    expected = Simulation(scaling()).run(7).summary()
    for key in ("requests", "latency_s", "events", "sla_violation_fraction"):
        assert result["summary"][key] == expected[key], key
    assert result["summary"]["vms"]["scaling_actions"] == len(result["actions"]) > 0
    steps = result["vm_steps"]
    assert len(steps["allocated_vms"]) == len(steps["t_s"]) <= STEP_POINTS
    assert max(steps["allocated_vms"]) == result["summary"]["vms"]["max_allocated"]
    assert len(result["rates"]["arrivals_per_s"]) <= SERIES_BUCKETS
    series = result["series"]
    assert len(series["allocated_vms"]) == len(series["allocated_vms_t_s"]) <= SERIES_POINTS
    assert result["classes"][0]["name"] == "default"
    listed = client.get("/api/v1/simulations").json()["items"][0]
    assert listed["result"] is None and listed["summary"] == result["summary"]


def test_cancel_stops_the_running_simulation(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Sim"))
    body = create(client, scenario=mm1(duration_s=20000)).json()
    simulation_id = body["id"]
    seen: list[float] = []
    report = job_service.report

    def cancel_midway(session: Any, job_id: int, worker: str, progress: float, *a: Any) -> None:
        seen.append(progress)
        if progress > 0.2 and len(seen) < 100:
            assert client.post(f"/api/v1/simulations/{simulation_id}/cancel").status_code == 200
            seen.extend([9.0] * 100)  # cancel once
        report(session, job_id, worker, progress, *a)

    monkeypatch.setattr(job_service, "report", cancel_midway)
    done = run(settings, client, body)
    assert done["job"]["status"] == "cancelled" and done["job"]["stage"] == "cancelled"
    assert done["result"] is None
    progressed = [p for p in seen if p < 9.0]
    assert max(progressed) < 0.5  # it stopped at the first report after the cancel
    again = client.post(f"/api/v1/simulations/{simulation_id}/cancel")
    assert again.status_code == 409 and again.json()["error"]["code"] == "job_finished"
    assert not run_job(settings, body["job"]["id"], simulation_body)  # not run again


def test_a_queued_simulation_cancelled_never_runs(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "c@example.com", "Sim"))
    body = create(client, scenario=mm1()).json()
    cancelled = client.post(f"/api/v1/simulations/{body['id']}/cancel").json()
    assert cancelled["job"]["status"] == "cancelled"
    assert not run_job(settings, body["job"]["id"], simulation_body)


def test_a_sweep_stores_one_row_per_run_with_its_summary(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "d@example.com", "Sim"))
    values = [0.5, 0.7, 0.9]
    sweep = {"path": "autoscaling.upper", "values": values}
    body = create(client, scenario=scaling(300), sweep=sweep).json()
    assert body["kind"] == "sweep" and body["sweep"]["path"] == "autoscaling.upper"
    done = run(settings, client, body)
    assert done["job"]["status"] == "succeeded", done["job"]
    result = done["result"]
    assert result["kind"] == "sweep" and result["axes"] == [sweep]
    assert [row["values"] for row in result["runs"]] == [{"autoscaling.upper": v} for v in values]
    for row, value in zip(result["runs"], values, strict=True):
        scenario = set_path(scaling(300), "autoscaling.upper", value)
        expected = Simulation(scenario).run().summary()
        assert row["summary"]["requests"] == expected["requests"]
        assert row["summary"]["latency_s"] == expected["latency_s"]
        assert row["vm_hours"] == expected["vms"]["vm_hours"] and row["cost"] >= 0
        assert row["sla_violation_fraction"] == expected["sla_violation_fraction"]


def test_a_grid_of_two_fields(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "e@example.com", "Sim"))
    sweep = {
        "path": "autoscaling.upper",
        "values": [0.6, 0.9],
        "second": {"path": "cluster.vms.max", "values": [2, 4]},
    }
    done = run(settings, client, create(client, scenario=scaling(120), sweep=sweep).json())
    runs = done["result"]["runs"]
    assert [r["values"] for r in runs] == [
        {"autoscaling.upper": u, "cluster.vms.max": m} for u in (0.6, 0.9) for m in (2, 4)
    ]
    assert all(r["summary"]["vms"]["max_allocated"] <= r["values"]["cluster.vms.max"] for r in runs)


@pytest.mark.parametrize(
    "body, field",
    [
        (
            {"scenario": {"duration_s": -1, "workload": {"arrivals": {"rate_per_s": 1}}}},
            "scenario.duration_s",
        ),
        ({"scenario": {"duration_s": 10}}, "scenario.workload"),
        ({"scenario": {**mm1(), "surprise": 1}}, "scenario.surprise"),
        ({"scenario": mm1(), "sweep": {"path": "cluster.vms.max", "values": [0]}}, "sweep.values"),
        ({"scenario": mm1(), "sweep": {"path": "duration_s.x", "values": [1]}}, "sweep.path"),
        ({"scenario": mm1(), "sweep": {"path": "bad path", "values": [1]}}, "sweep.path"),
        ({"scenario": mm1(), "sweep": {"path": "seed", "values": []}}, "sweep.values"),
        ({"scenario": mm1(), "seed": -1}, "seed"),
        ({"scenario": "duration_s: 10"}, "scenario"),
    ],
)
def test_bad_documents_are_422_naming_the_field(
    settings: Settings, body: dict[str, Any], field: str
) -> None:
    client = signed_in(settings, member(settings, "f@example.com", "Sim"))
    response = create(client, **body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error" and error["field"] == field, error
    assert error["message"].startswith(field)
    assert client.get("/api/v1/simulations").json()["total"] == 0


def test_listing_is_newest_first_and_the_schema_is_the_engines(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "g@example.com", "Sim"))
    ids = [create(client, scenario=mm1(), name=f"n{i}").json()["id"] for i in range(3)]
    listed = client.get("/api/v1/simulations", params={"limit": 2}).json()
    assert listed["total"] == 3 and [s["id"] for s in listed["items"]] == ids[::-1][:2]
    assert all(s["result"] is None for s in listed["items"])
    assert client.get("/api/v1/simulations/schema").json() == scenario_json_schema()


def test_other_workspaces_see_nothing_and_viewers_cannot_write(settings: Settings) -> None:
    owner_member = member(settings, "h@example.com", "Mine")
    owner = signed_in(settings, owner_member)
    stranger = signed_in(settings, member(settings, "i@example.com", "Theirs"))
    viewer = signed_in(settings, member(settings, "j@example.com", "Mine", Role.viewer))
    body = create(owner, scenario=mm1()).json()
    path = f"/api/v1/simulations/{body['id']}"
    assert stranger.get(path).status_code == 404
    assert stranger.post(f"{path}/cancel").status_code == 404
    assert stranger.get("/api/v1/simulations").json()["total"] == 0
    assert viewer.get(path).status_code == 200
    assert viewer.get("/api/v1/simulations").json()["total"] == 1
    assert create(viewer, scenario=mm1()).status_code == 403
    assert viewer.post(f"{path}/cancel").status_code == 403
    other = create(stranger, scenario=mm1(), workspace_id=owner_member.workspace_id)
    assert other.status_code == 404
    with session_scope(settings.resolved_database_url()) as session:
        job = session.get(Job, body["job"]["id"])
        assert job is not None and job.status == JobStatus.queued


def test_a_scenario_naming_an_unknown_dataset_is_refused_naming_the_field(
    settings: Settings,
) -> None:
    """Checked at submit (test_dataset_references_api.py has the rest)."""
    client = signed_in(settings, member(settings, "k@example.com", "Sim"))
    scenario = mm1()
    scenario["workload"]["arrivals"] = {"dataset": "nowhere"}
    for sweep in (None, {"path": "seed", "values": [1, 2]}):
        response = create(client, scenario=scenario, sweep=sweep)
        assert response.status_code == 422, response.text
        assert response.json()["error"]["field"] == "scenario.workload.arrivals.dataset"
