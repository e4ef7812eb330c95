"""A Prometheus dataset's Overview and Traffic figures (the dataset's traffic route), read
from the interval table a real Prometheus server's import wrote, against the series' known
truth: routes /a (10/s) and /b (4/s ok, 1/s errors), /a's counter reset an hour in, /b down
for 20 minutes two hours in, exponential latencies (mean 0.1 s)."""

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest

from headroom.core.settings import Settings
from headroom.engine.prometheus import IntervalSeries
from headroom.engine.prometheus.traffic import range_traffic
from headroom.jobs.runner import run_job
from headroom.sources.imports import import_body
from headroom.workspaces.models import Role
from support.factories import member, signed_in
from support.prometheus import BOUNDS_S, GAP_S, START_S, Truth, prometheus_server

BASE = "/api/v1/sources/prometheus"
P95_TOLERANCE = 0.005  # see test_prometheus_import.py: the (0.25, 0.3] bucket's interpolation
LOOKBACK_S = 300  # Prometheus repeats a series' last value this long into a gap


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Truth]]:
    with prometheus_server(START_S) as running:
        yield running


def iso(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, UTC).isoformat()


def imported(settings: Settings, client, url: str, truth: Truth, **changes: object) -> int:
    """A source over the whole series (classes by route), imported; its dataset's id."""
    body = {
        "name": f"shop{changes.get('error_label', '')}",
        "base_url": url,
        "requests_selector": "http_requests_total",
        "latency_selector": "http_request_duration_seconds_bucket",
        "class_label": "route",
        "refresh": False,
        **changes,
    }
    source = client.post(BASE, json=body).json()
    span = {"start": iso(truth.start_s), "end": iso(truth.end_s)}
    job = client.post(f"{BASE}/{source['id']}/import", json=span).json()["job"]
    assert run_job(settings, job["id"], import_body)
    done = client.get(f"{BASE}/{source['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    return int(done["dataset_id"])


def by_name(answer: dict) -> dict[str, dict]:
    return {c["name"]: c for c in answer["classes"]}


def test_the_whole_range_gives_the_known_figures(settings: Settings, server):
    url, truth = server
    owner = member(settings, "owner@example.com", "Shop")
    client = signed_in(settings, owner)
    dataset_id = imported(settings, client, url, truth)
    answer = client.get(f"{BASE}/datasets/{dataset_id}/traffic")
    assert answer.status_code == 200, answer.text
    found = answer.json()
    span_s = truth.end_s - truth.start_s
    assert found["step_s"] == 60 and found["interval_s"] == 60
    assert found["span_s"] == span_s
    assert found["start"].startswith("2026-01-01T00:00:00")
    assert found["bucket_bounds_s"] == list(BOUNDS_S)
    assert found["note"] == "percentiles are interpolated within histogram buckets"
    assert set(found["not_recorded"]) == {"bytes", "clients", "latency_max_s", "status_mix"}
    classes = by_name(found)
    assert [c["name"] for c in found["classes"]] == ["all", "/a", "/b"]
    everything = classes["all"]
    assert everything["requests"] == pytest.approx(truth.requests_total, rel=1e-9)
    assert everything["errors"] == pytest.approx(truth.errors_total, rel=1e-9)
    assert everything["error_share"] == pytest.approx(truth.errors_total / truth.requests_total)
    assert everything["intervals"] == span_s // 60 and everything["gap_intervals"] == 0
    assert everything["rate_per_s_mean"] == pytest.approx(truth.requests_total / span_s)
    assert everything["rate_per_s_peak"] == pytest.approx(15.0)
    assert everything["latency_p95_s"] == pytest.approx(truth.p95_s, rel=P95_TOLERANCE)
    assert (everything["p95_bucket_low_s"], everything["p95_bucket_high_s"]) == (0.25, 0.3)
    for route, total in truth.requests_by_route.items():
        assert classes[route]["requests"] == pytest.approx(total, rel=1e-9)
        assert classes[route]["latency_p95_s"] == pytest.approx(truth.p95_s, rel=P95_TOLERANCE)
    assert classes["/a"]["errors"] == 0 and classes["/b"]["rate_per_s_peak"] == pytest.approx(5)
    # the median of an exponential: 0.1 ln 2 = 0.0693 s, in the (0.05, 0.1] bucket
    assert 0.05 < everything["latency_p50_s"] <= 0.1
    assert len(everything["points"]) == span_s // 60
    np.testing.assert_allclose([p["rate_per_s"] for p in classes["/a"]["points"]], 10.0)

    stranger = signed_in(settings, member(settings, "nosy@example.com", "Elsewhere"))
    assert stranger.get(f"{BASE}/datasets/{dataset_id}/traffic").status_code == 404
    viewer = signed_in(settings, member(settings, "look@example.com", "Shop", Role.viewer))
    assert viewer.get(f"{BASE}/datasets/{dataset_id}/traffic").status_code == 200


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_range_holds_its_intervals_only_and_a_gap_is_not_zero(settings: Settings, server):
    url, truth = server
    client = signed_in(settings, member(settings, "range@example.com", "Range"))
    dataset_id = imported(settings, client, url, truth)
    # 30 to 90 minutes in: every route up, /a's counter reset inside
    start_ms, end_ms = (START_S + 1800) * 1000, (START_S + 5400) * 1000
    found = client.get(
        f"{BASE}/datasets/{dataset_id}/traffic", params={"from": start_ms, "to": end_ms}
    ).json()
    classes = by_name(found)
    assert found["span_s"] == 3600 and classes["all"]["intervals"] == 60
    assert classes["all"]["requests"] == pytest.approx(15.0 * 3600)
    assert classes["/a"]["requests"] == pytest.approx(10.0 * 3600)
    assert classes["all"]["errors"] == pytest.approx(3600.0)
    assert classes["all"]["error_share"] == pytest.approx(1 / 15)
    assert classes["all"]["rate_per_s_mean"] == pytest.approx(15.0)
    np.testing.assert_allclose([p["error_share"] for p in classes["/b"]["points"]], 0.2)
    # /b's gap: after the lookback its intervals are missing (null), never a zero rate
    gap = client.get(
        f"{BASE}/datasets/{dataset_id}/traffic",
        params={"from": GAP_S[0] * 1000, "to": GAP_S[1] * 1000},
    ).json()
    points = by_name(gap)["/b"]["points"]
    missing = [p for p in points if p["rate_per_s"] is None]
    assert len(missing) == (GAP_S[1] - GAP_S[0] - LOOKBACK_S) // 60
    assert all(p["error_share"] is None for p in missing)
    assert by_name(gap)["/b"]["gap_intervals"] == len(missing)
    assert by_name(gap)["/a"]["rate_per_s_mean"] == pytest.approx(10.0)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_without_an_error_label_errors_are_not_recorded(settings: Settings, server):
    url, truth = server
    client = signed_in(settings, member(settings, "plain@example.com", "Plain"))
    dataset_id = imported(settings, client, url, truth, error_label=None)
    everything = by_name(client.get(f"{BASE}/datasets/{dataset_id}/traffic").json())["all"]
    assert everything["errors"] is None and everything["error_share"] is None
    assert all(p["error_share"] is None for p in everything["points"])
    assert everything["requests"] == pytest.approx(truth.requests_total, rel=1e-9)


def test_points_merge_intervals_when_the_range_holds_more_than_a_chart_shows():
    """Ten 60 s intervals, one a gap, at most four points: groups of three."""
    requests = np.array([60, 120, np.nan, 60, 60, 60, 240, 0, 60, 120], np.float64)
    errors = np.array([6, 0, np.nan, 0, 0, 6, 24, 0, 0, 12], np.float64)
    series = IntervalSeries(
        step_s=60.0,
        classes=("all",),
        start_s=np.arange(10, dtype=np.float64) * 60.0,
        class_index=np.zeros(10, np.int64),
        requests=requests,
        errors=errors,
        bucket_bounds_s=np.empty(0),
        bucket_counts=np.empty((10, 0)),
    )
    found = range_traffic(series, max_points=4)
    assert found.point_s == 180.0
    everything = found.classes[0]
    np.testing.assert_array_equal(everything.point_start_s, [0, 180, 360, 540])
    # (60 + 120) over the two observed minutes; 180, then 300, over 180 s; 120 over 60 s
    np.testing.assert_allclose(everything.point_rate_per_s, [1.5, 1.0, 300 / 180, 2.0])
    np.testing.assert_allclose(everything.point_error_share, [6 / 180, 6 / 180, 24 / 300, 0.1])
    assert everything.gap_intervals == 1 and everything.rate_per_s_peak == 4.0
    assert everything.latency_s[0.95] is None  # no histogram: not recorded, not zero
    assert everything.rate_per_s_mean == pytest.approx(780 / (9 * 60))
