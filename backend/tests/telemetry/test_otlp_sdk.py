"""The OpenTelemetry Python SDK's own OTLP/HTTP exporter sends generated spans of known
start and end times to a running API (PostgreSQL, Redis); the dataset's per-service
counts, latency percentiles and concurrency are checked against figures computed here
from the generated times."""

from dataclasses import dataclass

import httpx
import numpy as np
import pytest
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import SpanKind, Status, StatusCode, set_span_in_context

from support.services import Stack

N = 240
MS = 1_000_000


@dataclass(frozen=True)
class Generated:
    front_start: np.ndarray  # ns
    front_end: np.ndarray
    back_start: np.ndarray
    back_end: np.ndarray
    client_ns: np.ndarray  # the frontend's call to the backend, per request
    errors: int  # backend requests ended with an error status


def generate(seed: int = 7) -> Generated:
    """Frontend requests every 20 ms lasting 30-150 ms (so several overlap), each calling
    the backend once: a client span from 5 ms after the start, and the backend's server
    span inside it (1 ms of network each way)."""
    rng = np.random.default_rng(seed)
    t0 = 1_700_000_000_000 * MS
    front_start = t0 + np.arange(N, dtype=np.int64) * 20 * MS + rng.integers(0, 5 * MS, N)
    front_took = rng.integers(30 * MS, 150 * MS, N)
    client_ns = (front_took * rng.uniform(0.3, 0.8, N)).astype(np.int64)
    back_start = front_start + 6 * MS
    back_end = back_start + client_ns - 2 * MS
    return Generated(front_start, front_start + front_took, back_start, back_end, client_ns, 12)


def provider(stack: Stack, token: str, service: str, gzip: bool) -> TracerProvider:
    exporter = OTLPSpanExporter(
        endpoint=f"{stack.base_url}/api/v1/otlp/v1/traces",
        headers={"Authorization": f"Bearer {token}"},
        compression=Compression.Gzip if gzip else Compression.NoCompression,
    )
    made = TracerProvider(resource=Resource.create({"service.name": service}))
    made.add_span_processor(BatchSpanProcessor(exporter, max_export_batch_size=100))
    return made


def export(stack: Stack, token: str, spans: Generated) -> None:
    front = provider(stack, token, "frontend", gzip=True)
    back = provider(stack, token, "backend", gzip=False)
    front_tracer, back_tracer = front.get_tracer("test"), back.get_tracer("test")
    for i in range(N):
        server = front_tracer.start_span(
            "GET /checkout",
            kind=SpanKind.SERVER,
            start_time=int(spans.front_start[i]),
            attributes={"http.route": "/checkout", "http.response.status_code": 200},
        )
        call_start = int(spans.back_start[i]) - MS
        client = front_tracer.start_span(
            "GET", set_span_in_context(server), kind=SpanKind.CLIENT, start_time=call_start
        )
        handler = back_tracer.start_span(
            "price", set_span_in_context(client), kind=SpanKind.SERVER,
            start_time=int(spans.back_start[i]),
        )  # fmt: skip
        if i % (N // spans.errors) == 0:
            handler.set_status(Status(StatusCode.ERROR))
        handler.end(int(spans.back_end[i]))
        client.end(call_start + int(spans.client_ns[i]))
        server.end(int(spans.front_end[i]))
    for made in (front, back):
        assert made.force_flush(30_000)
        made.shutdown()


def expected(start: np.ndarray, end: np.ndarray) -> dict[str, float]:
    took_s = (end - start) / 1e9
    covering = [np.count_nonzero((start <= s) & (end > s)) for s in start]  # brute force
    return {
        "request_count": start.size,
        "latency_p50_s": float(np.percentile(took_s, 50)),
        "latency_p95_s": float(np.percentile(took_s, 95)),
        "latency_p99_s": float(np.percentile(took_s, 99)),
        "concurrency_mean": float(took_s.sum() / ((end.max() - start.min()) / 1e9)),
        "concurrency_peak": max(covering),
    }


@pytest.mark.timeout(300)
def test_sdk_export_lands_as_a_dataset_with_per_service_figures(stack: Stack) -> None:
    token = stack.token_for("otel@a.example", "Traces")
    spans = generate()
    export(stack, token, spans)
    with stack.client(token) as client:
        datasets = client.get("/api/v1/datasets").raise_for_status().json()["items"]
        assert [(d["name"], d["format"], d["status"]) for d in datasets] == [
            ("OpenTelemetry traces", "otlp", "ready")
        ]
        dataset_id = datasets[0]["id"]
        summary = client.get(f"/api/v1/datasets/{dataset_id}/summary").raise_for_status().json()
        services = client.get(f"/api/v1/telemetry/datasets/{dataset_id}/services")
        found = {s["service"]: s for s in services.raise_for_status().json()["items"]}
    assert summary["request_count"] == 2 * N
    assert summary["status_counts"]["5xx"] == spans.errors
    assert set(found) == {"frontend", "backend"}
    for name, (start, end) in {
        "frontend": (spans.front_start, spans.front_end),
        "backend": (spans.back_start, spans.back_end),
    }.items():
        want = expected(start, end)
        got = found[name]
        assert got["request_count"] == want["request_count"]
        assert got["concurrency_peak"] == want["concurrency_peak"]
        for key in ("latency_p50_s", "latency_p95_s", "latency_p99_s", "concurrency_mean"):
            # times travel as integer nanoseconds: only float rounding separates the figures
            assert got[key] == pytest.approx(want[key], rel=1e-9), (name, key)
    assert found["frontend"]["concurrency_peak"] >= 2  # the requests do overlap
    assert found["backend"]["error_rate"] == pytest.approx(spans.errors / N)
    check_scenario(stack, token, dataset_id, spans)


def check_scenario(stack: Stack, token: str, dataset_id: int, spans: Generated) -> None:
    """Tiers in call order; the frontend's self time is its duration less the backend's
    (the backend's span lies within the frontend's, reached through the client span)."""
    with stack.client(token) as client:
        built = client.get(f"/api/v1/telemetry/datasets/{dataset_id}/scenario")
        assert built.status_code == 200, built.text
        body = built.json()
        run = client.post(
            "/api/v1/simulations", json={"name": "traces", "scenario": body["scenario"]}
        )
        assert run.status_code == 202, run.text
    tiers = body["scenario"]["cluster"]["tiers"]
    assert [t["name"] for t in tiers] == ["frontend", "backend"] and body["roots"] == N
    back_took = spans.back_end - spans.back_start
    front_self = np.sort(spans.front_end - spans.front_start - back_took) / 1e9
    assert tiers[0]["service_s"]["values"] == pytest.approx(front_self, abs=1e-9)
    assert tiers[1]["service_s"]["values"] == pytest.approx(np.sort(back_took) / 1e9, abs=1e-9)


def test_sct_accepts_a_trace_dataset(stack: Stack) -> None:
    token = stack.token_for("sct@a.example", "Pools")
    spans = generate(seed=3)
    export(stack, token, spans)
    with stack.client(token) as client:
        dataset_id = client.get("/api/v1/datasets").json()["items"][0]["id"]
        answer = client.post(
            f"/api/v1/datasets/{dataset_id}/analyses/sct", json={"service": "backend"}
        )
    assert answer.status_code == 202, answer.text
    assert answer.json()["params"]["service"] == "backend"


def post(stack: Stack, token: str | None, body: bytes, **headers: str) -> httpx.Response:
    sent = {"Content-Type": "application/x-protobuf", **headers}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    return httpx.post(f"{stack.base_url}/api/v1/otlp/v1/traces", content=body, headers=sent)
