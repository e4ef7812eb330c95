"""Scenarios that refer to datasets, end to end over HTTP: `arrivals: {dataset: <id>}`
replays the arrival times of the dataset's request table and `{dist: empirical, dataset:
<id>}` resamples its response times; bad references are 422s naming the field, at submit
and from the live check; the "replay" preset refers to its dataset.

Reference: the request table the log was written from (synth M/M/1), independently of the
ingest: Apache %t keeps whole seconds and %D whole microseconds, so the replayed arrivals
must be the table's times truncated to seconds (from the first), and the resampled values
its latencies rounded to microseconds; the engine given those arrays inline must produce
the job's result exactly (same seed, same draws)."""

from typing import Any

import numpy as np
import polars as pl
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient
from simulations.scenarios import mm1

from headroom.core.settings import Settings
from headroom.engine.sim import Simulation
from headroom.jobs.runner import ingest_body, run_job
from headroom.simulations.run import simulation_body
from support.factories import member, signed_in

TABLE = mm1_table(mu_per_s=10.0, segment_s=10.0, seed=3)  # 180 s, ~850 requests
SIMS = "/api/v1/simulations"


def upload(settings: Settings, client: TestClient, content: bytes, name: str) -> int:
    created = client.post(
        "/api/v1/datasets",
        params={"name": name},
        content=content,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    return int(created.json()["id"])


def no_latency_log() -> bytes:
    """The same requests as plain Combined lines (no %D): no response times."""
    lines = combined_latency_lines(TABLE).decode().splitlines()
    return ("\n".join(line.rsplit(" ", 1)[0] for line in lines) + "\n").encode()


def logged_times_s() -> np.ndarray:
    seconds = TABLE["ts"].dt.epoch("s").to_numpy()
    return np.sort(seconds - seconds.min()).astype(np.float64)


def logged_latency_s() -> np.ndarray:
    return np.round(TABLE["latency_s"].to_numpy() * 1e6) / 1e6


def replay(dataset: Any, time_scale: float = 1.0, duration_s: float = 400.0) -> dict[str, Any]:
    return {
        "name": "replay",
        "duration_s": duration_s,
        "seed": 2,
        "workload": {
            "arrivals": {"dataset": dataset, "time_scale": time_scale},
            "service_s": {"dist": "empirical", "dataset": dataset},
        },
        "cluster": {"vms": {"min": 1, "max": 2, "start": 2}},
        "sla": {"threshold_s": 1.0},
    }


def run(settings: Settings, client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    created = client.post(SIMS, json={"name": "r", **body})
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], simulation_body)
    done: dict[str, Any] = client.get(f"{SIMS}/{created.json()['id']}").json()
    return done


@pytest.mark.parametrize("time_scale", [1.0, 0.5])
def test_a_dataset_feeds_arrivals_and_service_times(settings: Settings, time_scale: float) -> None:
    client = signed_in(settings, member(settings, "dr1@example.com", "Sim"))
    dataset_id = upload(settings, client, combined_latency_lines(TABLE), "mm1.log")
    done = run(settings, client, {"scenario": replay(dataset_id, time_scale)})  # an integer id
    assert done["job"]["status"] == "succeeded", done["job"]
    assert done["scenario"]["workload"]["arrivals"]["dataset"] == str(dataset_id)
    summary = done["result"]["summary"]
    assert summary["requests"] == TABLE.height  # every logged request, scaled into 400 s
    inline = replay(None, time_scale)
    inline["workload"] = {
        "arrivals": {"times_s": logged_times_s().tolist(), "time_scale": time_scale},
        "service_s": {"dist": "empirical", "values": logged_latency_s().tolist()},
    }
    expected = Simulation(inline).run(2).summary()
    for key in ("requests", "latency_s", "events", "sla_violation_fraction"):
        assert summary[key] == expected[key], key


def test_references_inside_classes_and_mixtures_resolve(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "dr2@example.com", "Sim"))
    dataset_id = upload(settings, client, combined_latency_lines(TABLE), "mm1.log")
    empirical = {"dist": "empirical", "dataset": str(dataset_id)}
    scenario = mm1(duration_s=200)
    scenario["workload"] = {
        "classes": [
            {"name": "logged", "arrivals": {"dataset": dataset_id}, "service_s": empirical},
            {
                "name": "extra",
                "arrivals": {"rate_per_s": 1.0},
                "service_s": {"dist": "mixture", "parts": [[1.0, empirical]]},
            },
        ]
    }
    scenario["cluster"] = {"vms": {"min": 2, "max": 2, "start": 2}}
    done = run(settings, client, {"scenario": scenario})
    assert done["job"]["status"] == "succeeded", done["job"]
    assert [c["name"] for c in done["result"]["classes"]] == ["logged", "extra"]


def expect_422(response: Any, field: str, words: str) -> None:
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field and words in error["message"], error


def test_bad_references_are_422_at_submit_and_in_the_live_check(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "dr3@example.com", "Sim"))
    with_latency = upload(settings, client, combined_latency_lines(TABLE), "mm1.log")
    without = upload(settings, client, no_latency_log(), "plain.log")
    other = signed_in(settings, member(settings, "dr4@example.com", "Elsewhere"))
    foreign = upload(settings, other, combined_latency_lines(TABLE), "theirs.log")
    empirical_of_plain = replay(with_latency)
    empirical_of_plain["workload"]["service_s"]["dataset"] = str(without)
    cases = [
        (replay(foreign), "scenario.workload.arrivals.dataset", "not a dataset of this workspace"),
        (replay("nowhere"), "scenario.workload.arrivals.dataset", "is not a dataset id"),
        (empirical_of_plain, "scenario.workload.service_s.dataset", "no response times"),
    ]
    for scenario, field, words in cases:
        expect_422(client.post(SIMS, json={"name": "x", "scenario": scenario}), field, words)
        check = client.post(f"{SIMS}/schema/check", json={"scenario": scenario})
        expect_422(check, field, words)
    # a plain log's arrival times are fine to replay
    arrivals_only = replay(without)
    arrivals_only["workload"]["service_s"] = {"dist": "exponential", "mean": 0.05}
    assert client.post(f"{SIMS}/schema/check", json={"scenario": arrivals_only}).status_code == 204
    # a sweep's values are references too
    sweep = {"path": "workload.arrivals.dataset", "values": [str(with_latency), str(foreign)]}
    response = client.post(
        SIMS, json={"name": "s", "scenario": replay(with_latency), "sweep": sweep}
    )
    expect_422(response, "scenario.workload.arrivals.dataset", "not a dataset of this workspace")


def test_a_dataset_gone_before_the_run_fails_the_job_naming_the_field(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "dr5@example.com", "Sim"))
    dataset_id = upload(settings, client, combined_latency_lines(TABLE), "mm1.log")
    created = client.post(SIMS, json={"name": "r", "scenario": replay(dataset_id)}).json()
    assert client.delete(f"/api/v1/datasets/{dataset_id}").status_code == 204
    run_job(settings, created["job"]["id"], simulation_body)
    job = client.get(f"{SIMS}/{created['id']}").json()["job"]
    assert job["status"] == "failed" and job["error_code"] == "invalid_scenario", job
    assert job["error_message"].startswith("workload.arrivals.dataset: dataset")


def test_the_replay_preset_refers_to_its_dataset_and_runs(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "dr6@example.com", "Sim"))
    dataset_id = upload(settings, client, combined_latency_lines(TABLE), "mm1.log")
    response = client.get(f"{SIMS}/presets/datasets/{dataset_id}", params={"source": "replay"})
    assert response.status_code == 200, response.text
    scenario = response.json()["scenario"]
    workload = scenario["workload"]
    assert workload["arrivals"] == {"dataset": str(dataset_id)}
    assert workload["service_s"] == {"dist": "empirical", "dataset": str(dataset_id)}
    assert "page" not in workload
    span_s = float(np.ptp(TABLE["ts"].dt.epoch("s").to_numpy()))
    assert scenario["duration_s"] == pytest.approx(span_s, abs=1.0)
    p99 = float(pl.Series(logged_latency_s()).quantile(0.99, "nearest") or 0)
    assert scenario["sla"]["threshold_s"] == pytest.approx(p99, rel=0.05)
    scenario["duration_s"] = 60
    done = run(settings, client, {"scenario": scenario})
    assert done["job"]["status"] == "succeeded", done["job"]
    plain = upload(settings, client, no_latency_log(), "plain.log")
    preset = client.get(f"{SIMS}/presets/datasets/{plain}", params={"source": "replay"}).json()
    assert preset["scenario"]["workload"]["service_s"]["dist"] == "mixture"  # the reference's
    assert "sla" not in preset["scenario"]
