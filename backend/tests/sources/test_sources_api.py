"""Prometheus sources through the API: CRUD with role checks, the credential encrypted at
rest and never returned, test connection, and imports run as jobs against a real
Prometheus server (its data in the last hours, so the rolling window holds it)."""

import json
import math
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs.models import Result
from headroom.jobs.runner import run_job
from headroom.sources import secrets
from headroom.sources.imports import import_body
from headroom.sources.models import PrometheusSource
from headroom.sources.schedule import refresh_due
from headroom.workspaces.models import Role
from support.factories import member, signed_in
from support.prometheus import BOUNDS_S, Truth, prometheus_server

BASE = "/api/v1/sources/prometheus"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Truth]]:
    start = (math.floor(time.time() / 3600) - 5) * 3600  # 3 hours of data ending 2 h ago
    with prometheus_server(start) as running:
        yield running


def body(url: str, **changes: object) -> dict[str, object]:
    return {
        "name": "checkout",
        "base_url": url,
        "requests_selector": "http_requests_total",
        "latency_selector": "http_request_duration_seconds_bucket",
        "class_label": "route",
        "window_s": 8 * 3600,
        **changes,
    }


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_import_now_makes_a_live_dataset_with_the_known_figures(settings: Settings, server):
    url, truth = server
    owner = member(settings, "owner@example.com", "Shop")
    client = signed_in(settings, owner)
    created = client.post(BASE, json=body(url))
    assert created.status_code == 201, created.text
    source = created.json()
    tested = client.post(f"{BASE}/{source['id']}/test").json()
    assert tested["ok"] and tested["series"] == 3, tested
    started = client.post(f"{BASE}/{source['id']}/import")
    assert started.status_code == 202
    assert run_job(settings, started.json()["job"]["id"], import_body)
    done = client.get(f"{BASE}/{source['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    assert done["last_error"] is None and done["last_refresh_at"] is not None
    summary = done["last_summary"]
    assert summary["requests_total"] == pytest.approx(truth.requests_total)
    assert summary["latency_p95_s"] == pytest.approx(truth.p95_s, rel=0.005)
    dataset = client.get(f"/api/v1/datasets/{done['dataset_id']}").json()
    assert dataset["status"] == "ready" and dataset["format"] == "prometheus"
    assert dataset["source"]["live"] and dataset["source"]["source_id"] == source["id"]
    assert dataset["request_count"] == round(truth.requests_total)
    forecast = client.get(f"/api/v1/datasets/{done['dataset_id']}/forecast")
    assert forecast.status_code == 200, forecast.text  # the forecast reads interval rates
    assert forecast.json()["forecast"]
    latency = client.get(f"{BASE}/datasets/{done['dataset_id']}/latency")
    assert latency.status_code == 200, latency.text
    chart = latency.json()
    assert chart["bucket_bounds_s"] == list(BOUNDS_S)
    assert chart["note"] == "percentiles are interpolated within histogram buckets"
    seen = [i for i in chart["intervals"] if i["p95_s"] is not None]
    assert len(seen) > 100
    # exponential latencies: every interval's p95 (true 0.2996 s) is in the (0.25, 0.3] bucket
    assert {(i["p95_bucket_low_s"], i["p95_bucket_high_s"]) for i in seen} == {(0.25, 0.3)}
    assert all(0.25 < i["p95_s"] <= 0.3 for i in seen)
    stranger = signed_in(settings, member(settings, "nosy@example.com", "Elsewhere"))
    assert stranger.get(f"{BASE}/datasets/{done['dataset_id']}/latency").status_code == 404
    viewer = signed_in(settings, member(settings, "look@example.com", "Shop", Role.viewer))
    assert viewer.get(f"{BASE}/datasets/{done['dataset_id']}/latency").status_code == 200


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_refresh_replaces_the_table_and_removes_the_old_one(settings: Settings, server):
    url, _ = server
    client = signed_in(settings, member(settings, "re@example.com", "Refresh"))
    source = client.post(BASE, json=body(url)).json()
    keys = []
    for _ in range(2):
        job = client.post(f"{BASE}/{source['id']}/import").json()["job"]
        assert run_job(settings, job["id"], import_body)
        with session_scope(settings.resolved_database_url()) as session:
            results = session.scalars(select(Result).where(Result.kind == "prometheus_intervals"))
            keys.append([k for r in results for k in r.table_keys])
    assert len(keys[1]) == 1 and keys[1] != keys[0]
    assert not (settings.data_dir / "storage" / keys[0][0]).exists()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_wrong_selector_fails_the_import_with_its_reason(settings: Settings, server):
    url, _ = server
    client = signed_in(settings, member(settings, "wrong@example.com", "Wrong"))
    source = client.post(BASE, json=body(url, requests_selector="nope_total")).json()
    assert client.post(f"{BASE}/{source['id']}/test").json()["ok"] is False
    job = client.post(f"{BASE}/{source['id']}/import").json()["job"]
    assert run_job(settings, job["id"], import_body)
    done = client.get(f"{BASE}/{source['id']}").json()
    assert done["job"]["status"] == "failed"
    assert done["job"]["error_code"] == "prometheus_error"
    assert "matched no series" in done["last_error"]
    assert client.get(f"/api/v1/datasets/{done['dataset_id']}").json()["status"] == "failed"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_credential_is_encrypted_and_never_returned(settings: Settings):
    client = signed_in(settings, member(settings, "sec@example.com", "Secret"))
    made = client.post(BASE, json=body("http://127.0.0.1:9", auth="bearer", secret="tok-123456789"))
    assert made.status_code == 201, made.text
    assert "tok-123456789" not in made.text and made.json()["has_secret"]
    assert "tok-123456789" not in client.get(BASE).text
    with session_scope(settings.resolved_database_url()) as session:
        stored = session.scalar(select(PrometheusSource.secret_encrypted))
    assert stored is not None and "tok-123456789" not in stored
    assert secrets.decrypt(settings.secret_key, stored) == "tok-123456789"
    with pytest.raises(secrets.CredentialUnreadable):
        secrets.decrypt("another-secret", stored)
    refused = client.post(BASE, json=body("http://127.0.0.1:9", auth="bearer"))
    assert refused.status_code == 422


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_other_workspaces_see_nothing_and_viewers_change_nothing(settings: Settings):
    owner = member(settings, "a@example.com", "A")
    source = signed_in(settings, owner).post(BASE, json=body("http://127.0.0.1:9")).json()
    stranger = signed_in(settings, member(settings, "b@example.com", "B"))
    assert stranger.get(f"{BASE}/{source['id']}").status_code == 404
    assert stranger.post(f"{BASE}/{source['id']}/import").status_code == 404
    assert stranger.delete(f"{BASE}/{source['id']}").status_code == 404
    assert stranger.get(BASE).json() == []
    viewer = signed_in(settings, member(settings, "v@example.com", "A", Role.viewer))
    assert viewer.get(f"{BASE}/{source['id']}").status_code == 200
    assert viewer.post(f"{BASE}/{source['id']}/import").status_code == 403
    assert viewer.patch(f"{BASE}/{source['id']}", json={"name": "x"}).status_code == 403
    assert viewer.post(BASE, json=body("http://127.0.0.1:9")).status_code == 403


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_schedule_queues_each_due_source_once(settings: Settings):
    client = signed_in(settings, member(settings, "due@example.com", "Due"))
    client.post(BASE, json=body("http://127.0.0.1:9"))
    client.post(BASE, json=body("http://127.0.0.1:9", refresh=False))
    first = refresh_due(settings)
    assert len(first) == 1
    assert refresh_due(settings) == []  # its import is still queued


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_cli_creates_then_refreshes_the_named_dataset(
    settings: Settings, server, monkeypatch: pytest.MonkeyPatch
):
    """`headroom import prometheus ... --dataset NAME` against the API (in process; the
    job is run where the CLI waits for it)."""
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from headroom.api.app import create_app
    from headroom.cli.sources import import_group
    from headroom.client import remote
    from support.factories import api_token

    url, truth = server
    owner = member(settings, "cli@example.com", "Cli")
    token = api_token(settings, owner, ["write"])
    api = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    monkeypatch.setattr(remote, "load_credentials", lambda: remote.Credentials("http://t", token))
    monkeypatch.setattr(remote, "client", lambda _credentials: api)

    def run_then_read(http, job_id, _on_update, poll_s=1.0):
        run_job(settings, job_id, import_body)
        return http.get(f"/api/v1/jobs/{job_id}").json()

    monkeypatch.setattr(remote, "wait_for_job", run_then_read)
    start, end = truth.start_s - 3600, truth.end_s + 600
    args = ["prometheus", url, "--requests", "http_requests_total", "--dataset", "live"]
    args += ["--start", iso(start), "--end", iso(end), "--json"]
    first = CliRunner().invoke(import_group, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(import_group, args)
    assert again.exit_code == 0, again.output
    ids = {json.loads(r.output)["dataset_id"] for r in (first, again)}
    assert len(ids) == 1  # refreshed, not a second dataset
    sources = api.get(BASE).json()
    assert [s["name"] for s in sources] == ["live"]
    assert sources[0]["last_summary"]["requests_total"] == pytest.approx(truth.requests_total)


def iso(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, UTC).isoformat()
