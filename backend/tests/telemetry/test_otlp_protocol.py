"""OTLP/HTTP answers as the specification gives them, against a running API: 200 with an
ExportTraceServiceResponse (partial_success for rejected spans), 400 for an undecodable
body, 401/403 for a missing, wrong or read-only token, 413 for an oversize body, gzip and
OTLP/JSON (hex ids, int64 as strings); another workspace's token sees nothing."""

import base64
import gzip
import json

import httpx
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from headroom.telemetry.bodies import MAX_BODY_BYTES
from support.services import Stack

T0 = 1_700_000_000_000_000_000
TRACE = "5b8efff798038103d269b633813fc60c"


def span(span_id: str, start_ms: int, took_ms: int, **extra: object) -> dict[str, object]:
    return {
        "traceId": TRACE,
        "spanId": span_id,
        "name": "GET /items/{id}",
        "kind": 2,
        "startTimeUnixNano": str(T0 + start_ms * 1_000_000),
        "endTimeUnixNano": str(T0 + (start_ms + took_ms) * 1_000_000),
        "attributes": [
            {"key": "http.route", "value": {"stringValue": "/items/{id}"}},
            {"key": "http.response.status_code", "value": {"intValue": "404"}},
        ],
        **extra,
    }


def request_json(spans: list[dict[str, object]], service: str = "shop") -> dict[str, object]:
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": spans}]}]}


def post(stack: Stack, token: str | None, body: bytes, **headers: str) -> httpx.Response:
    sent = {"Content-Type": "application/x-protobuf", **headers}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    return httpx.post(
        f"{stack.base_url}/api/v1/otlp/v1/traces", content=body, headers=sent, timeout=60
    )


def status_message(response: httpx.Response) -> tuple[int, str]:
    """The google.rpc.Status of an error answer (protobuf: field 1 code, field 2 message)."""
    data = response.content
    assert data[0] == 0x08
    code, i = data[1], 2
    assert data[i] == 0x12
    length, shift, i = 0, 0, i + 1
    while True:
        byte = data[i]
        length |= (byte & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if not byte & 0x80:
            break
    return code, data[i : i + length].decode()


def test_otlp_answers(stack: Stack) -> None:
    token = stack.token_for("otlp@a.example", "Shop")
    reader = stack.token_for("reader@a.example", "Shop", scope="read")
    proto = ExportTraceServiceRequest()
    good = json.dumps(request_json([span("eee19b7ec3c1b174", 0, 250)])).encode()
    # OTLP/JSON, gzip: the ids are hex, the times int64 strings
    answer = post(stack, token, gzip.compress(good), **{
        "Content-Type": "application/json", "Content-Encoding": "gzip"})  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json().get("partialSuccess") is None
    # protobuf with one bad span (ends before it starts): the other is kept, one rejected
    mixed = request_json([span("eee19b7ec3c1b175", 1000, 100), span("eee19b7ec3c1b176", 2000, -5)])
    for item in mixed["resourceSpans"][0]["scopeSpans"][0]["spans"]:  # type: ignore[index]
        for key in ("traceId", "spanId"):
            item[key] = base64.b64encode(bytes.fromhex(item[key])).decode()
    json_format.ParseDict(mixed, proto)
    answer = post(stack, token, proto.SerializeToString())
    assert answer.status_code == 200
    partial = ExportTraceServiceResponse.FromString(answer.content).partial_success
    assert partial.rejected_spans == 1 and "ending before it starts" in partial.error_message
    # refusals
    assert post(stack, None, b"").status_code == 401
    wrong = post(stack, "hr_not-a-token", proto.SerializeToString())
    assert wrong.status_code == 401 and status_message(wrong)[0] == 16  # UNAUTHENTICATED
    read_only = post(stack, reader, proto.SerializeToString())
    assert read_only.status_code == 403 and status_message(read_only)[0] == 7
    garbage = post(stack, token, b"\xff\xff\xff not protobuf")
    assert garbage.status_code == 400 and status_message(garbage)[0] == 3
    bad_json = post(stack, token, b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": '
                    b'"zz"}]}]}]}', **{"Content-Type": "application/json"})  # fmt: skip
    assert bad_json.status_code == 400 and bad_json.json()["code"] == 3
    assert post(stack, token, b"x" * (MAX_BODY_BYTES + 1)).status_code == 413
    bomb = gzip.compress(b"\0" * (80 * 1024**2))
    assert post(stack, token, bomb, **{"Content-Encoding": "gzip"}).status_code == 413
    assert post(stack, token, b"", **{"Content-Type": "text/plain"}).status_code == 415
    with stack.client(token) as client:
        dataset = client.get("/api/v1/datasets").json()["items"][0]
        summary = client.get(f"/api/v1/datasets/{dataset['id']}/summary").json()
    assert (dataset["request_count"], summary["status_counts"]["4xx"]) == (2, 2)
    assert summary["latency"]["max_s"] == 0.25
    # the list marks the trace dataset live, with the time its last spans arrived
    assert (dataset["source"]["kind"], dataset["source"]["live"]) == ("otlp", True)
    assert dataset["source"]["refreshed_at"] is not None


def test_another_workspace_sees_nothing(stack: Stack) -> None:
    mine = stack.token_for("a@a.example", "A")
    theirs = stack.token_for("b@b.example", "B")
    body = json.dumps(request_json([span("eee19b7ec3c1b174", 0, 250)])).encode()
    assert post(stack, mine, body, **{"Content-Type": "application/json"}).status_code == 200
    with stack.client(mine) as client:
        dataset = client.get("/api/v1/datasets").json()["items"][0]
    workspace_id = dataset["workspace_id"]
    # their token naming my workspace: not found (its existence is not revealed)
    named = httpx.post(
        f"{stack.base_url}/api/v1/otlp/v1/traces",
        params={"workspace_id": workspace_id},
        content=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {theirs}"},
    )
    assert named.status_code == 404
    with stack.client(theirs) as client:
        assert client.get(f"/api/v1/telemetry/datasets/{dataset['id']}/services").status_code == 404
        assert client.get(f"/api/v1/datasets/{dataset['id']}").status_code == 404
        lines = client.post(
            f"/api/v1/telemetry/streams/{dataset['id']}/lines",
            content=b"x\n",
            headers={"Content-Type": "text/plain"},
        )
        assert lines.status_code == 404
        assert client.get("/api/v1/datasets").json()["items"] == []
