"""An OTLP JSON file in the OpenTelemetry Collector file exporter's format (one
ExportTraceServiceRequest in OTLP/JSON per line: hex ids, int64 times as strings) uploaded
through the ordinary upload path: detected, ingested into server/root-span requests, and
read per service, against the figures of the spans written here."""

import json

import numpy as np
import pytest

from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

T0 = 1_764_000_000_000_000_000  # ns


def line(service: str, spans: list[dict[str, object]]) -> bytes:
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    scope = {"scope": {"name": "io.opentelemetry.test"}, "spans": spans}
    batch = {"resourceSpans": [{"resource": resource, "scopeSpans": [scope], "schemaUrl": ""}]}
    return json.dumps(batch, separators=(",", ":")).encode() + b"\n"


def server_span(i: int, start_ns: int, took_ns: int, parent: str = "") -> dict[str, object]:
    return {
        "traceId": f"{i + 1:032x}",
        "spanId": f"{i + 1:016x}",
        "parentSpanId": parent,
        "name": "POST /orders",
        "kind": 2,
        "startTimeUnixNano": str(start_ns),
        "endTimeUnixNano": str(start_ns + took_ns),
        "attributes": [{"key": "http.request.method", "value": {"stringValue": "POST"}}],
        "status": {"code": 2} if i % 10 == 0 else {},
    }


def test_collector_file_uploads_as_a_trace_dataset(settings: Settings) -> None:
    rng = np.random.default_rng(4)
    took = rng.integers(5_000_000, 400_000_000, 120)
    starts = T0 + np.arange(120, dtype=np.int64) * 100_000_000
    spans = [server_span(i, int(starts[i]), int(took[i])) for i in range(120)]
    body = b"".join(line("orders", spans[k : k + 40]) for k in range(0, 120, 40))
    body += b"\n" + line("orders", [])  # a blank line, and an empty batch
    client = signed_in(settings, member(settings, "files@example.com", "Files"))
    created = client.post("/api/v1/datasets", params={"name": "traces.json"}, content=body)
    assert created.status_code == 202, created.text
    assert created.json()["format"] == "otlp"
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    dataset_id = created.json()["id"]
    summary = client.get(f"/api/v1/datasets/{dataset_id}/summary").json()
    assert summary["request_count"] == 120 and summary["rejected_count"] == 0
    assert summary["status_counts"]["5xx"] == 12
    assert summary["latency"]["p95_s"] == pytest.approx(np.percentile(took / 1e9, 95), rel=1e-9)
    services = client.get(f"/api/v1/telemetry/datasets/{dataset_id}/services").json()["items"]
    assert [(s["service"], s["request_count"]) for s in services] == [("orders", 120)]
    span_s = ((starts + took).max() - starts.min()) / 1e9  # the last to end, not to start
    assert services[0]["concurrency_mean"] == pytest.approx(took.sum() / 1e9 / span_s, rel=1e-9)
