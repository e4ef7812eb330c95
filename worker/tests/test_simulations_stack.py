"""Simulations through the whole stack: API and real Celery workers as processes,
PostgreSQL and Redis, driven over HTTP with an API token."""

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from simulations.scenarios import reference

from headroom.engine.sim import Simulation
from headroom.simulations.sweep import set_path
from support.services import Stack, free_port, stack_env, wait_for_job


@pytest.fixture
def stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stack]:
    from conftest import fresh_database

    database_url = fresh_database("postgresql", request, tmp_path)
    env = stack_env(
        tmp_path,
        database_url,
        request.getfixturevalue("redis_url"),
        job_lease_s="5",
        reaper_interval_s="1",
        static_dir=str(tmp_path / "no-ui"),
    )
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.start_api(port)
    yield running
    running.stop()
    shutil.rmtree(tmp_path / "storage", ignore_errors=True)


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
    assert created.status_code == 201, created.text
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
    assert created.status_code == 201, created.text
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
