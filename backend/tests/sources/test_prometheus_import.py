"""Importing from a real Prometheus server (its TSDB backfilled by promtool with series of
known truth), and the refusals a server can answer with (a local stub for 422 and 503)."""

import itertools
import json
import math
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest
from click.testing import CliRunner

from headroom.cli.sources import import_group
from headroom.engine.prometheus import Grid, Split, summarize
from headroom.sources import prometheus_client as prom
from support.prometheus import GAP_S, Truth, prometheus_server
from support.prometheus_stub import ok, refused, stub

REQUESTS = "http_requests_total"
BUCKETS = "http_request_duration_seconds_bucket"
# The exponential's p95 lies in the (0.25, 0.3] bucket; linear interpolation there differs
# from the true quantile by 0.03 % (computed); 0.5 % leaves room and still fails on a wrong
# bucket (neighbours are 17 % away).
P95_TOLERANCE = 0.005
LOOKBACK_S = 300  # Prometheus' default --query.lookback-delta


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Truth]]:
    with prometheus_server() as running:
        yield running


def query(truth: Truth, step_s: float = 60.0, **changes: object) -> prom.Query:
    base = prom.Query(
        REQUESTS,
        BUCKETS,
        datetime.fromtimestamp(truth.start_s, UTC),
        datetime.fromtimestamp(truth.end_s, UTC),
        step_s,
        Split(class_label="route"),
    )
    return prom.Query(**{**base.__dict__, **changes})  # type: ignore[arg-type]


def test_import_gives_the_known_totals_rates_and_p95(server):
    url, truth = server
    with prom.client(url) as http:
        summary = summarize(prom.read(http, query(truth)))
    overall = summary.overall
    assert overall.requests_total == pytest.approx(truth.requests_total, rel=1e-9)
    assert overall.errors_total == pytest.approx(truth.errors_total, rel=1e-9)
    span_s = truth.end_s - truth.start_s
    assert overall.rate_per_s_mean == pytest.approx(truth.requests_total / span_s, rel=1e-9)
    assert overall.rate_per_s_peak == pytest.approx(15.0)  # both routes up: 10 + 4 + 1 per s
    assert overall.latency_p95_s == pytest.approx(truth.p95_s, rel=P95_TOLERANCE)
    for route, total in truth.requests_by_route.items():
        assert summary.classes[route].requests_total == pytest.approx(total, rel=1e-9)
        assert summary.classes[route].latency_p95_s == pytest.approx(truth.p95_s, rel=P95_TOLERANCE)


def test_p95_agrees_with_the_servers_own_histogram_quantile(server):
    url, truth = server
    with prom.client(url) as http:
        mine = summarize(prom.read(http, query(truth))).overall.latency_p99_s
        theirs = http.get(
            "/api/v1/query",
            params={
                "query": f"histogram_quantile(0.99, sum by (le) (increase({BUCKETS}[3h])))",
                "time": truth.end_s,
            },
        ).json()["data"]["result"][0]["value"][1]
    assert mine == pytest.approx(float(theirs), rel=1e-9)


def test_the_counter_reset_loses_nothing(server):
    """/a restarts an hour in; summed naively its counter would lose the first hour."""
    url, truth = server
    with prom.client(url) as http:
        series = prom.read(http, query(truth, split=Split()))
    assert np.nanmin(series.requests) >= 0
    assert summarize(series).overall.requests_total == pytest.approx(truth.requests_total)


def test_a_gap_is_missing_intervals_not_zero_traffic(server):
    url, truth = server
    with prom.client(url) as http:
        series = prom.read(http, query(truth))
    b = series.class_index == series.classes.index("/b")
    missing = series.start_s[b][np.isnan(series.requests[b])]
    assert missing.size >= 10
    assert ((missing >= GAP_S[0]) & (missing < GAP_S[1])).all()
    assert not np.isnan(series.requests[series.class_index == 0]).any()
    # Prometheus repeats a series' last value for its 5 min lookback: the gap's first
    # 5 min read as observed intervals without traffic, the rest as missing
    observed_s = truth.end_s - truth.start_s - (GAP_S[1] - GAP_S[0]) + LOOKBACK_S
    rate = summarize(series).classes["/b"].rate_per_s_mean
    assert rate == pytest.approx(truth.requests_by_route["/b"] / observed_s)


def test_pages_give_the_same_series_as_one_query(server):
    url, truth = server
    with prom.client(url) as http:
        whole = prom.read(http, query(truth, step_s=15.0))
        paged = prom.read(http, query(truth, step_s=15.0), page_points=97)
    assert paged.classes == whole.classes
    np.testing.assert_array_equal(paged.start_s, whole.start_s)
    np.testing.assert_array_equal(paged.requests, whole.requests)
    np.testing.assert_array_equal(paged.bucket_counts, whole.bucket_counts)


def test_a_month_at_15_s_is_read_in_pages_under_the_servers_limit():
    grid = Grid(0.0, 15.0, 30 * 86400 // 15 + 1)
    pages = list(prom.pages(grid))
    assert max(p.points for p in pages) <= 11_000
    assert pages[0].start_s == 0.0
    for before, after in itertools.pairwise(pages):
        assert after.start_s == before.start_s + (before.points - 1) * 15.0  # one shared point
    assert sum(p.points - 1 for p in pages) == grid.intervals


def test_a_wrong_selector_is_refused_by_name(server):
    url, truth = server
    with prom.client(url) as http, pytest.raises(prom.PrometheusError, match="matched no series"):
        prom.read(http, query(truth, requests='http_requests_total{route="/nowhere"}'))


def test_invalid_promql_is_the_servers_400(server):
    url, truth = server
    with prom.client(url) as http, pytest.raises(prom.PrometheusError, match="not valid PromQL"):
        prom.read(http, query(truth, requests="http_requests_total{"))


def test_an_unreachable_server():
    from support.services import free_port

    t = datetime(2026, 1, 1, tzinfo=UTC)
    unreachable = prom.Query(REQUESTS, None, t, t.replace(hour=1))
    with (
        prom.client(f"http://127.0.0.1:{free_port()}") as http,
        pytest.raises(prom.PrometheusError, match="cannot reach Prometheus"),
    ):
        prom.read(http, unreachable)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (
            refused(422, "execution", "expanding series: too many"),
            "HTTP 422 .*could not be executed",
        ),
        (refused(503, "timeout", "query timed out"), "HTTP 503 .*timed out"),
    ],
)
def test_refusals_are_said_in_words(answer, words):
    t = datetime(2026, 1, 1, tzinfo=UTC)
    with (
        stub([answer]) as (url, _),
        prom.client(url) as http,
        pytest.raises(prom.PrometheusError, match=words),
    ):
        prom.read(http, prom.Query(REQUESTS, None, t, t.replace(minute=2)))


def test_a_failing_later_page_leaves_nothing_half_read():
    t = datetime(2026, 1, 1, tzinfo=UTC)
    answers = [ok(), refused(503, "unavailable", "shutting down")]
    with (
        stub(answers) as (url, seen),
        prom.client(url) as http,
        pytest.raises(prom.PrometheusError, match="HTTP 503"),
    ):
        prom.read(http, prom.Query(REQUESTS, None, t, t.replace(minute=3)), page_points=2)
    assert len(seen) == 2


def test_credentials_are_sent():
    t = datetime(2026, 1, 1, tzinfo=UTC)
    q = prom.Query(REQUESTS, None, t, t.replace(minute=1))
    with stub([ok()]) as (url, seen):
        with prom.client(url, prom.Auth(bearer_token="s3cret")) as http:
            prom.read(http, q)
        with prom.client(url, prom.Auth(username="ops", password="pw")) as http:
            prom.read(http, q)
    assert seen[0]["Authorization"] == "Bearer s3cret"
    assert seen[1]["Authorization"] == "Basic b3BzOnB3"  # base64 of ops:pw


def test_the_cli_prints_the_summary_as_json(server):
    url, truth = server
    start = datetime.fromtimestamp(truth.start_s, UTC).isoformat()
    end = datetime.fromtimestamp(truth.end_s, UTC).isoformat()
    args = ["prometheus", url, "--requests", REQUESTS, "--latency-histogram", BUCKETS]
    args += ["--start", start, "--end", end, "--step", "60", "--class-label", "route", "--json"]
    result = CliRunner().invoke(import_group, args)
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["requests_total"] == pytest.approx(truth.requests_total)
    assert document["rate_per_s"]["peak"] == pytest.approx(15.0)
    assert document["latency_p95_s"] == pytest.approx(truth.p95_s, rel=P95_TOLERANCE)
    assert set(document["classes"]) == {"/a", "/b"}
    assert document["bucket_bounds_s"][-1] == "+Inf"
    assert not math.isnan(document["latency_p99_s"])


def test_the_cli_says_why_it_failed():
    result = CliRunner().invoke(
        import_group, ["prometheus", "http://127.0.0.1:1", "--requests", "x", "--start", "now-1h"]
    )
    assert result.exit_code == 2
    assert "cannot reach Prometheus" in result.output
