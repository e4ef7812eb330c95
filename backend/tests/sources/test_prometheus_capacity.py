"""Capacity and the SLA on a Prometheus dataset, against a real Prometheus server whose
TSDB holds an M/M/1 server with its load stepping up (support/prometheus.py): the knee
and MaxRate(T) come out of the interval table, each refresh re-checks the SLA over the
range it added and records a breach only when that range exceeds the target, and the
dataset's alert rules fire on refreshes."""

import json
import math
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest
from scipy.optimize import brentq
from sqlalchemy import select

from headroom.alerts.delivery import attempt
from headroom.alerts.models import AlertDelivery
from headroom.analyses.run import capacity_body
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.jobs.runner import run_job
from headroom.sources.imports import import_body
from headroom.workspaces.models import Role
from support.factories import member, signed_in
from support.prometheus import (
    MU_PER_S,
    RISING_BOUNDS_S,
    RISING_LOADS_PER_S,
    RISING_MINUTES,
    Truth,
    prometheus_server,
    rising_openmetrics,
)
from support.receivers import http_receiver

BASE = "/api/v1/sources/prometheus"
START_S = 1_769_904_000  # 2026-02-01T00:00:00Z
THRESHOLD_S = 0.1  # MaxRate(0.1 s) = MU - ln 20 / 0.1 = 70.04/s


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Truth]]:
    with prometheus_server(START_S, series=rising_openmetrics) as running:
        yield running


def body(url: str) -> dict[str, object]:
    return {
        "name": "rising",
        "base_url": url,
        "requests_selector": "http_requests_total",
        "latency_selector": "http_request_duration_seconds_bucket",
        "refresh": False,
    }


def iso(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, UTC).isoformat()


def imported(settings: Settings, client, source_id: int, minutes: int) -> dict:
    """Imports the range from the start to ``minutes`` in (a refresh adds what is new)."""
    answer = client.post(
        f"{BASE}/{source_id}/import",
        json={"start": iso(START_S), "end": iso(START_S + 60 * minutes)},
    )
    assert answer.status_code == 202, answer.text
    assert run_job(settings, answer.json()["job"]["id"], import_body)
    done = client.get(f"{BASE}/{source_id}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    return done


def loads_between(first_minute: int, last_minute: int) -> list[float]:
    return [RISING_LOADS_PER_S[m // RISING_MINUTES] for m in range(first_minute, last_minute)]


def pooled_p95_s(loads: list[float]) -> float:
    """The p95 of the minutes' latencies pooled: each minute exponential with rate MU -
    load, weighted by its requests (solved on the mixture's distribution function)."""
    weights = np.array(loads) / sum(loads)
    rates = MU_PER_S - np.array(loads)

    def below(t: float) -> float:
        return float(weights @ (1 - np.exp(-rates * t))) - 0.95

    return brentq(below, 1e-6, 10.0)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_capacity_of_a_prometheus_dataset_gives_the_known_max_rate(settings: Settings, server):
    url, _ = server
    client = signed_in(settings, member(settings, "cap@example.com", "Cap"))
    source = client.post(BASE, json=body(url)).json()
    done = imported(settings, client, source["id"], 20 * RISING_MINUTES)
    dataset_id = done["dataset_id"]
    started = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses", json={"threshold_s": THRESHOLD_S}
    )
    assert started.status_code in (200, 201, 202), started.text
    assert run_job(settings, started.json()["job"]["id"], capacity_body)
    analysis = client.get(f"/api/v1/analyses/{started.json()['id']}").json()
    assert analysis["job"]["status"] == "succeeded", analysis["job"]
    report = analysis["result"]
    sla = report["classes"]["all"]["sla"]
    assert sla["max_rate_per_s"] == pytest.approx(MU_PER_S - math.log(20) / THRESHOLD_S, rel=0.03)
    curve = [p for p in report["classes"]["all"]["curve"] if p["source"] == "measured"]
    loads = np.array([p["load_per_s"] for p in curve])
    np.testing.assert_allclose(loads, RISING_LOADS_PER_S, rtol=1e-9)  # one load per bin
    exact = math.log(20) / (MU_PER_S - loads)
    np.testing.assert_allclose([p["latency_s"] for p in curve], exact, rtol=0.02)
    histogram = report["histogram"]
    assert histogram["bucket_bounds_s"] == [*RISING_BOUNDS_S, "+Inf"]
    assert histogram["windows"] == 20 * RISING_MINUTES
    assert "interpolated" in histogram["interpolated"]
    assert "not recorded" in histogram["not_recorded"]["concurrency"]
    assert report["virtual_queue"] is None  # it replays arrivals, which intervals lack
    assert any("histogram" in w for w in report["warnings"])


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_refreshes_record_a_breach_only_when_their_range_exceeds_the_target_and_alert(
    settings: Settings, server
):
    url, _ = server
    owner = member(settings, "sla@example.com", "Sla")
    client = signed_in(settings, owner)
    source = client.post(BASE, json=body(url)).json()
    first = imported(settings, client, source["id"], 60)
    dataset_id = first["dataset_id"]
    assert first["last_summary"]["refreshed"]["start"] == iso(START_S)  # all of it is new
    breaches = client.get(f"{BASE}/{source['id']}/breaches").json()
    assert breaches == {"target": None, "items": []}  # no target yet: nothing to breach

    with http_receiver() as receiver:
        channel = client.post(
            f"/api/v1/workspaces/{owner.workspace_id}/alert-channels",
            json={"name": "hook", "kind": "webhook", "target": receiver.url},
        ).json()
        rule = client.post(
            f"/api/v1/datasets/{dataset_id}/alert-rules",
            json={
                "name": "slow",
                "kind": "p95_above_sla",
                "threshold": THRESHOLD_S,
                "channel_ids": [channel["id"]],
            },
        ).json()

        within = imported(settings, client, source["id"], 80)  # adds loads 53..66/s
        refreshed = within["last_summary"]["refreshed"]
        assert refreshed["start"] == iso(START_S + 3600)
        assert refreshed["latency_p95_s"] == pytest.approx(
            pooled_p95_s(loads_between(60, 80)), rel=0.01
        )
        assert refreshed["latency_p95_s"] < THRESHOLD_S
        listed = client.get(f"{BASE}/{source['id']}/breaches").json()
        assert listed["target"] == {
            "percentile": 95.0,
            "threshold_s": THRESHOLD_S,
            "source": "alert_rule",
        }
        assert listed["items"] == []
        history = client.get(f"/api/v1/alert-rules/{rule['id']}/evaluations").json()["items"]
        assert [(e["trigger"], e["outcome"]) for e in history] == [("refresh", "ok")]

        imported(settings, client, source["id"], 120)  # adds loads 66..92/s
        items = client.get(f"{BASE}/{source['id']}/breaches").json()["items"]
        assert len(items) == 1
        breach = items[0]
        truth = pooled_p95_s(loads_between(80, 120))
        assert breach["observed_s"] == pytest.approx(truth, rel=0.01)
        assert breach["threshold_s"] == THRESHOLD_S and breach["target_from"] == "alert_rule"
        assert breach["range_start"].startswith(iso(START_S + 80 * 60)[:19])
        assert breach["intervals"] == 40
        history = client.get(f"/api/v1/alert-rules/{rule['id']}/evaluations").json()["items"]
        assert history[0]["trigger"] == "refresh" and history[0]["outcome"] == "fired"

        with session_scope(settings.resolved_database_url()) as session:
            ids = [
                d.id
                for d in session.scalars(
                    select(AlertDelivery).where(AlertDelivery.evaluation_id == history[0]["id"])
                )
            ]
        assert len(ids) == 1
        assert attempt(settings, ids[0], final=True)  # what the worker's task does
        assert len(receiver.requests) == 1
        payload = json.loads(receiver.requests[0].body)
        assert payload["event"] == "alert.fired"
        assert payload["evaluation"]["trigger"] == "refresh"
        assert payload["evaluation"]["value"] == pytest.approx(truth, rel=0.01)

    # a refresh adding nothing new records nothing more
    imported(settings, client, source["id"], 120)
    assert len(client.get(f"{BASE}/{source['id']}/breaches").json()["items"]) == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_breaches_are_refused_to_other_workspaces_and_shown_to_viewers(settings: Settings):
    owner = member(settings, "own@example.com", "A")
    source = signed_in(settings, owner).post(BASE, json=body("http://127.0.0.1:9")).json()
    stranger = signed_in(settings, member(settings, "str@example.com", "B"))
    assert stranger.get(f"{BASE}/{source['id']}/breaches").status_code == 404
    viewer = signed_in(settings, member(settings, "view@example.com", "A", Role.viewer))
    shown = viewer.get(f"{BASE}/{source['id']}/breaches")
    assert shown.status_code == 200 and shown.json() == {"target": None, "items": []}
