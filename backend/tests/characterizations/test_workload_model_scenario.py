"""The workload model document is downloadable, editable and a simulator input.
Download a characterized dataset's model over the API, double every rate of its profile,
post it to /characterizations/model/scenario: the scenario's rates are the downloaded ones doubled
(and its duration the one asked for); a bad model is a 422 naming the field; the edited
file runs through `headroom simulate --model` and `headroom scenario-from-model` gives
the same scenario as the API."""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient

from headroom.characterizations.parts import characterize_body
from headroom.core.settings import Settings
from headroom.engine.sim.scenario import load_scenario
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

URL = "/api/v1/characterizations/model/scenario"


def _downloaded_model(client: TestClient, settings: Settings) -> dict[str, Any]:
    created = client.post(
        "/api/v1/datasets",
        params={"name": "mm1.log"},
        content=combined_latency_lines(mm1_table()),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    item = client.post(f"/api/v1/datasets/{created.json()['id']}/characterizations").json()
    assert run_job(settings, item["job"]["id"], characterize_body)
    response = client.get(f"/api/v1/characterizations/{item['id']}/model")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    model: dict[str, Any] = response.json()
    return model


def _doubled(model: dict[str, Any]) -> dict[str, Any]:
    edited = copy.deepcopy(model)
    for cls in edited["classes"]:
        cls["profile"] = [[t, 2 * r] for t, r in cls["profile"]]
    return edited


def _rates(scenario: dict[str, Any]) -> list[list[float]]:
    return [[r for _, r in c["arrivals"]["profile"]] for c in scenario["workload"]["classes"]]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "headroom.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_an_edited_model_becomes_a_scenario_and_runs(settings: Settings, tmp_path: Path) -> None:
    client = signed_in(settings, member(settings, "model-scenario@example.com", "Sim"))
    model = _downloaded_model(client, settings)
    original = client.post(URL, json={"model": model})
    assert original.status_code == 200, original.text
    assert original.json()["duration_s"] == model["duration_s"]
    edited = _doubled(model)
    doubled = client.post(URL, json={"model": edited, "duration_s": 300})
    assert doubled.status_code == 200, doubled.text
    scenario = doubled.json()
    assert scenario["duration_s"] == 300
    assert _rates(scenario) == [[2 * r for r in rates] for rates in _rates(original.json())]
    assert _rates(original.json()) == [[r for _, r in c["profile"]] for c in model["classes"]]
    load_scenario(scenario)

    path = tmp_path / "model.json"
    path.write_text(json.dumps(edited))
    printed = _cli("scenario-from-model", str(path), "--duration-s", "300")
    assert printed.returncode == 0, printed.stderr
    assert yaml.safe_load(printed.stdout) == scenario
    run = _cli("simulate", "--model", str(path), "--duration-s", "300", "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["requests"] > 0


def test_a_bad_model_is_a_422_naming_the_field(settings: Settings, tmp_path: Path) -> None:
    client = signed_in(settings, member(settings, "model-bad@example.com", "Sim"))
    model = {"duration_s": 60, "classes": [{"name": "a", "share": 2, "profile": [[0, 1]]}]}
    response = client.post(URL, json={"model": model})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "validation_error" and error["field"] == "model.classes.0.share"
    missing = client.post(URL, json={"model": {"classes": []}}).json()["error"]
    assert missing["field"].startswith("model.")
    assert client.post(URL, json={"model": model, "duration_s": -1}).status_code == 422

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(model))
    failed = _cli("simulate", "--model", str(path))
    assert failed.returncode == 2 and "classes.0.share" in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1
