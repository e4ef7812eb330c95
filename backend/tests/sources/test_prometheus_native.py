"""Importing a native histogram from a real Prometheus server (native histograms enabled,
fed through its remote-write receiver): the percentiles are the server's own
`histogram_quantile`, the requests its counter's, the buckets its exponential schema's."""

import math
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from headroom.engine.prometheus import Split, summarize, upper_bound
from headroom.sources import prometheus_client as prom
from support.remote_write import (
    INDEXES,
    MEAN_LATENCY_S,
    SCHEMA,
    NativeTruth,
    native_prometheus,
)

LATENCY = "http_request_duration_seconds"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, NativeTruth]]:
    with native_prometheus() as running:
        yield running


def query(truth: NativeTruth) -> prom.Query:
    return prom.Query(
        "http_requests_total",
        LATENCY,
        datetime.fromtimestamp(truth.start_s, UTC),
        datetime.fromtimestamp(truth.end_s, UTC),
        60.0,
        Split(class_label="route"),
    )


def servers_quantile(http, q: float, truth: NativeTruth, route: str | None = None) -> float:
    selector = f'{LATENCY}{{route="{route}"}}' if route else LATENCY
    answer = http.get(
        "/api/v1/query",
        params={
            "query": f"histogram_quantile({q}, sum(increase({selector}[2h])))",
            "time": truth.end_s,
        },
    ).json()
    return float(answer["data"]["result"][0]["value"][1])


def test_the_percentiles_are_the_servers_own(server):
    url, truth = server
    with prom.client(url) as http:
        summary = summarize(prom.read(http, query(truth)))
        overall = summary.overall
        for q, mine in ((0.95, overall.latency_p95_s), (0.99, overall.latency_p99_s)):
            assert mine == pytest.approx(servers_quantile(http, q, truth), rel=1e-9)
        for route in truth.requests_by_route:
            mine = summary.classes[route].latency_p95_s
            assert mine == pytest.approx(servers_quantile(http, 0.95, truth, route), rel=1e-9)
    assert summary.overall.requests_total == pytest.approx(truth.requests_total, rel=1e-9)


def test_the_p95_lies_within_a_bucket_of_the_true_one(server):
    """Exponential latencies: the true p95 is 0.1 ln 20; schema 3's buckets are 2^(1/8)
    (9 %) wide, so the interpolated p95 is in the same bucket."""
    url, truth = server
    with prom.client(url) as http:
        p95 = summarize(prom.read(http, query(truth))).overall.latency_p95_s
    true = MEAN_LATENCY_S * math.log(20)
    index = math.ceil(math.log2(true) * 2**SCHEMA)
    assert upper_bound(index - 1, SCHEMA) < p95 <= upper_bound(index, SCHEMA)


def test_the_bounds_follow_the_exponential_schema(server):
    url, truth = server
    with prom.client(url) as http:
        series = prom.read(http, query(truth))
    finite = series.bucket_bounds_s[:-1]
    expected = {upper_bound(i, SCHEMA) for i in range(INDEXES[0] - 1, INDEXES[-1] + 1)}
    assert all(min(abs(b - e) / e for e in expected) < 1e-12 for b in finite)
    assert math.isinf(series.bucket_bounds_s[-1])


def test_paged_reads_agree_with_one_page(server):
    """Pages hold different sets of populated buckets; joined, the answer is the same."""
    url, truth = server
    with prom.client(url) as http:
        whole = summarize(prom.read(http, query(truth)))
        paged = summarize(prom.read(http, query(truth), page_points=7))
    assert paged.overall.latency_p95_s == pytest.approx(whole.overall.latency_p95_s, rel=1e-9)
    assert paged.overall.requests_total == pytest.approx(whole.overall.requests_total, rel=1e-9)
