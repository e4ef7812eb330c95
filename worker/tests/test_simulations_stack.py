"""Simulations through the whole stack: API and real Celery workers as processes,
PostgreSQL and Redis, driven over HTTP with an API token."""

import time
from typing import Any

import httpx
from analyses.synth_logs import combined_latency_lines, mm1_table
from simulations.scenarios import reference

from headroom.engine.sim import Simulation
from headroom.simulations.sweep import set_path
from support.services import Stack, wait_for_job

LOG = combined_latency_lines(mm1_table(segment_s=5.0))


def watch(client: httpx.Client, job_id: int, timeout_s: float = 180.0) -> list[dict[str, Any]]:
    """Every state of the job seen while polling, until it ends."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        seen.append(client.get(f"/api/v1/jobs/{job_id}").raise_for_status().json())
        if seen[-1]["status"] in ("succeeded", "failed", "cancelled"):
            return seen
        time.sleep(0.05)
    raise TimeoutError(f"job {job_id} did not finish in {timeout_s} s")


def test_a_run_reports_live_progress_and_stores_its_result(stack: Stack) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("sim@example.com", "Sim"))
    scenario = reference(86400.0)  # the whole reference day: a few seconds of simulation
    created = client.post("/api/v1/simulations", json={"name": "day", "scenario": scenario})
    assert created.status_code == 202, created.text
    seen = watch(client, created.json()["job"]["id"])
    assert seen[-1]["status"] == "succeeded", seen[-1]
    midway = [s["progress"] for s in seen if s["stage"] == "simulating"]
    assert midway and all(0.0 < p < 1.0 for p in midway), seen
    assert midway == sorted(midway)
    result = client.get(f"/api/v1/simulations/{created.json()['id']}").json()["result"]
    expected = Simulation(scenario).run().summary()
    assert result["summary"]["requests"] == expected["requests"]
    assert result["summary"]["plt_s"] == expected["plt_s"]
    assert result["summary"]["vms"]["scaling_actions"] == len(result["actions"])


def test_a_sweep_fans_out_over_two_workers_and_merges_one_row_per_run(stack: Stack) -> None:
    stack.start_worker()
    stack.start_worker()
    client = stack.client(stack.token_for("sweep@example.com", "Sweep"))
    scenario = reference(32400.0)  # ~2 s per run: long enough for both workers to take one
    values = [0.6, 0.7, 0.8]
    sweep = {"path": "autoscaling.upper", "values": values}
    created = client.post(
        "/api/v1/simulations", json={"name": "thresholds", "scenario": scenario, "sweep": sweep}
    )
    assert created.status_code == 202, created.text
    job = wait_for_job(client, created.json()["job"]["id"], timeout_s=180)
    assert job["status"] == "succeeded" and job["progress"] == 1.0, job
    result = client.get(f"/api/v1/simulations/{created.json()['id']}").json()["result"]
    assert result["kind"] == "sweep" and [r["index"] for r in result["runs"]] == [0, 1, 2]
    for row, value in zip(result["runs"], values, strict=True):
        assert row["values"] == {"autoscaling.upper": value}
        expected = Simulation(set_path(scenario, "autoscaling.upper", value)).run().summary()
        assert row["summary"]["requests"] == expected["requests"]
        assert row["sla_violation_fraction"] == expected["sla_violation_fraction"]
        assert row["vm_hours"] == expected["vms"]["vm_hours"]
    logs = [(stack.log_dir / f"worker{i}.log").read_text() for i in range(2)]
    parts = [log.count("sim.run_point[") for log in logs]
    assert all(count > 0 for count in parts), parts  # both workers ran runs of the sweep


def test_a_cancelled_sweep_stops_its_runs_and_the_workers_go_on(stack: Stack) -> None:
    stack.start_worker()
    stack.start_worker()
    client = stack.client(stack.token_for("stop@example.com", "Stop"))
    sweep = {"path": "seed", "values": [1, 2, 3, 4]}
    body = {"name": "long", "scenario": reference(86400.0 * 4), "sweep": sweep}
    created = client.post("/api/v1/simulations", json=body).json()
    job_id = created["job"]["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/v1/jobs/{job_id}").json()["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(2)  # the runs are under way
    cancelled = client.post(f"/api/v1/simulations/{created['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["job"]["status"] == "cancelled"
    quick = {"name": "after", "scenario": reference(600.0)}
    after = client.post("/api/v1/simulations", json=quick).json()
    # each run takes well over 20 s; the quick one can only finish this soon if they stopped
    assert wait_for_job(client, after["job"]["id"], timeout_s=20)["status"] == "succeeded"
    final = client.get(f"/api/v1/simulations/{created['id']}").json()
    assert final["job"]["status"] == "cancelled" and final["result"] is None
    logs = "".join((stack.log_dir / f"worker{i}.log").read_text() for i in range(2))
    assert "SimulationCancelled" in logs and "Errback 'sim.failed' raised" not in logs


def test_a_sweep_run_the_engine_refuses_fails_the_job_once(stack: Stack) -> None:
    """A dataset the scenario replays is deleted after the submit (which checked it) and
    before a worker runs it: the job fails once, naming the field, and is not re-sent."""
    worker = stack.start_worker()
    client = stack.client(stack.token_for("bad@example.com", "Bad"))
    uploaded = client.post("/api/v1/datasets", files={"file": ("m.log", LOG)}).json()
    assert wait_for_job(client, uploaded["job"]["id"])["status"] == "succeeded"
    stack.kill_worker(worker)
    scenario = reference(600.0)
    scenario["workload"]["arrivals"] = {"dataset": uploaded["id"]}
    body = {"name": "bad", "scenario": scenario, "sweep": {"path": "seed", "values": [1, 2]}}
    created = client.post("/api/v1/simulations", json=body)
    assert created.status_code == 202, created.text
    assert client.delete(f"/api/v1/datasets/{uploaded['id']}").status_code == 204
    stack.start_worker()
    job = wait_for_job(client, created.json()["job"]["id"], timeout_s=60)
    assert job["status"] == "failed" and job["attempts"] == 1, job
    assert job["error_code"] == "invalid_scenario"
    assert "workload.arrivals.dataset: dataset" in str(job["error_message"])
    time.sleep(3)  # longer than the reaper's interval: nothing re-sends it
    assert client.get(f"/api/v1/jobs/{job['id']}").json()["status"] == "failed"
