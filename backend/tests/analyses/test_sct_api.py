"""SCT analyses of latency traces over HTTP: the job's report equals the engine's on the
same trace, access logs are refused, and the API process stays light."""

import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from analyses.test_analyses_api import SYNTH_LOG, ready_dataset
from fastapi.testclient import TestClient

from headroom.analyses.run import capacity_body
from headroom.core.settings import Settings
from headroom.engine.capacity import SctParams, analyze_trace, synth
from headroom.engine.logs import detect_format, parse_chunk
from headroom.jobs.runner import run_job
from support.factories import member, signed_in

RAMP = list(range(1, 41)) + list(range(40, 0, -1))  # users, one step per 2 s


@pytest.fixture(scope="module")
def trace_csv() -> bytes:
    """One server whose completion rate is flat from 10 to 20 requests inside, then falls."""
    rates = synth.plateau_rates(50.0, 10, 20, 0.02, 80)
    table = synth.pool_trace(RAMP, 2.0, 0.005, rates, np.random.default_rng(5), server="app-1")
    return synth.trace_csv(table)


def create_sct(client: TestClient, dataset_id: int, **params: object):  # type: ignore[no-untyped-def]
    return client.post(f"/api/v1/datasets/{dataset_id}/analyses/sct", json=params)


def test_an_sct_analysis_stores_the_engine_report(settings: Settings, trace_csv: bytes) -> None:
    client = signed_in(settings, member(settings, "s1@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings, trace_csv)
    created = create_sct(client, dataset_id, window_s=None)
    assert created.status_code == 202, created.text
    body = created.json()
    assert body["kind"] == "sct" and body["params"] == {
        "kind": "sct",
        "interval_ms": 50.0,
        "window_s": None,
        "service": None,
        "slice": None,
    }
    assert run_job(settings, body["job"]["id"], capacity_body)
    done = client.get(f"/api/v1/analyses/{body['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    # the reference: the engine on the same trace parsed directly (ms-resolution times)
    parsed = parse_chunk(trace_csv, detect_format(trace_csv)).table
    expected = analyze_trace(parsed, SctParams(window_s=None)).to_dict()
    got, want = done["result"]["servers"]["app-1"], expected["servers"]["app-1"]
    assert (got["q_lower"], got["q_upper"]) == (want["q_lower"], want["q_upper"])
    assert got["tp_max_per_s"] == pytest.approx(want["tp_max_per_s"])
    assert 8 <= got["q_lower"] <= 12 and got["q_upper"] is not None  # flat from 10 to 20
    assert got["usl"]["lambda_per_s"] > 0 and len(got["trend"]) == 4  # ends + 2 breakpoints
    assert [p["n"] for p in got["trend"]][1:3] == [got["q_lower"], got["q_upper"]]
    assert done["result"]["interval_ms"] == 50.0 and done["result"]["window_s"] is None


def test_sct_and_capacity_analyses_of_one_trace_are_kept_apart(
    settings: Settings, trace_csv: bytes
) -> None:
    client = signed_in(settings, member(settings, "s2@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings, trace_csv)
    sct = create_sct(client, dataset_id)
    assert sct.status_code == 202
    again = create_sct(client, dataset_id, interval_ms=50, window_s=None)  # defaults spelt out
    assert again.status_code == 200 and again.json()["id"] == sct.json()["id"]
    capacity = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json={})
    assert capacity.status_code == 202 and capacity.json()["id"] != sct.json()["id"]
    listed = client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()["items"]
    assert [(a["kind"], a["params"]["kind"]) for a in listed] == [
        ("capacity", "capacity"),
        ("sct", "sct"),
    ]


def test_an_access_log_is_not_a_trace(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "s3@example.com", "Shop"))
    dataset_id = ready_dataset(client, settings, SYNTH_LOG)
    refused = create_sct(client, dataset_id)
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "not_a_trace" and error["field"] == "kind"
    assert "latency trace" in error["message"]
    assert client.get(f"/api/v1/datasets/{dataset_id}/analyses").json()["total"] == 0


@pytest.mark.parametrize(
    "params, field",
    [({"interval_ms": 0}, "interval_ms"), ({"window_s": -1}, "window_s"), ({"bins": 3}, "bins")],
)
def test_bad_sct_parameters_are_422_naming_the_field(
    settings: Settings, params: dict[str, object], field: str
) -> None:
    client = signed_in(settings, member(settings, "s4@example.com", "Shop"))
    response = create_sct(client, 1, **params)
    assert response.status_code == 422
    assert response.json()["error"]["field"] == field


def test_a_trace_without_server_column_is_one_site(settings: Settings, trace_csv: bytes) -> None:
    client = signed_in(settings, member(settings, "s5@example.com", "Shop"))
    table = pl.read_csv(trace_csv).drop("server")
    dataset_id = ready_dataset(client, settings, table.write_csv().encode())
    body = create_sct(client, dataset_id, window_s=None).json()
    assert run_job(settings, body["job"]["id"], capacity_body)
    result = client.get(f"/api/v1/analyses/{body['id']}").json()["result"]
    assert list(result["servers"]) == ["site"]


def test_the_analyses_api_imports_no_numba_or_polars() -> None:
    """Startup time and memory of the API: the engine's heavy modules load in workers only."""
    code = (
        "import sys, headroom.analyses.router, headroom.analyses.service\n"
        "print(sorted({'numba', 'polars'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
