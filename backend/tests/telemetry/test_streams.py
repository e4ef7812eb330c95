"""Log shippers' posts replayed against a running API, in the request shapes their HTTP
outputs send: Vector's http sink (`encoding.codec = "json"` with newline-delimited
framing: application/x-ndjson, records with `message`; its default JSON array; the `text`
codec: text/plain) and Fluent Bit's http output (`format json_lines`: application/x-ndjson;
`format json`: application/json array; records with `date` and `log`; `compress gzip`)."""

import gzip
import json
from datetime import UTC, datetime

import numpy as np
import pytest

from headroom.engine.workload.sketch import ALPHA
from support.services import Stack

RNG_SEED = 11


def access_lines(n: int, first_s: int, seed: int) -> tuple[list[str], np.ndarray]:
    """Combined-format lines with a trailing response time in seconds (nginx
    $request_time), one a second from `first_s` past 12:00, and their response times."""
    took = np.round(np.random.default_rng(seed).uniform(0.005, 0.900, n), 3)
    lines = [
        f"10.0.0.{i % 7} - - [26/Nov/2026:12:{(first_s + i) // 60:02d}:{(first_s + i) % 60:02d}"
        f' +0000] "GET /items/{i % 5} HTTP/1.1" 200 {100 + i} "-" "curl/8.5" {took[i]:.3f}'
        for i in range(n)
    ]
    return lines, took


def vector_ndjson(lines: list[str]) -> bytes:
    records = [
        {"message": line, "timestamp": "2026-11-26T12:00:00Z", "host": "web1",
         "source_type": "file", "file": "/var/log/nginx/access.log"}
        for line in lines
    ]  # fmt: skip
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def fluent_bit_records(lines: list[str]) -> list[dict[str, object]]:
    return [{"date": 1795694400.0 + i, "log": line} for i, line in enumerate(lines)]


@pytest.mark.timeout(300)
def test_shippers_posts_append_parsed_lines(stack: Stack) -> None:
    token = stack.token_for("ship@a.example", "Logs")
    started = datetime.now(UTC)
    batches = [access_lines(40, 40 * k, RNG_SEED + k) for k in range(5)]
    with stack.client(token) as client:
        created = client.post(
            "/api/v1/telemetry/streams", json={"name": "edge", "format": "combined_latency_s"}
        )
        assert created.status_code == 201, created.text
        url = created.json()["lines_url"]
        again = client.post(
            "/api/v1/telemetry/streams", json={"name": "edge", "format": "combined_latency_s"}
        )
        assert (
            again.status_code == 200
            and again.json()["dataset"]["id"] == created.json()["dataset"]["id"]
        )
        other_options = client.post(
            "/api/v1/telemetry/streams", json={"name": "edge", "format": "common"}
        )
        assert other_options.status_code == 409
        fresh = created.json()["dataset"]["id"]
        before = client.get(f"/api/v1/datasets/{fresh}").json()["source"]
        assert before == {"kind": "stream", "source_id": None, "live": True, "refreshed_at": None}
        sent = [
            # Vector: json codec, newline-delimited framing, gzip compression
            (gzip.compress(vector_ndjson(batches[0][0])),
             {"Content-Type": "application/x-ndjson", "Content-Encoding": "gzip"}),
            # Vector: json codec with its default framing (a JSON array)
            (json.dumps([{"message": m} for m in batches[1][0]]).encode(),
             {"Content-Type": "application/json"}),
            # Fluent Bit: format json_lines
            (b"\n".join(json.dumps(r).encode() for r in fluent_bit_records(batches[2][0])),
             {"Content-Type": "application/x-ndjson", "User-Agent": "Fluent-Bit"}),
            # Fluent Bit: format json (an array), compress gzip
            (gzip.compress(json.dumps(fluent_bit_records(batches[3][0])).encode()),
             {"Content-Type": "application/json", "Content-Encoding": "gzip"}),
            # Vector: text codec (the raw lines), plus one line that is not a request
            (("\n".join(batches[4][0]) + "\nnot an access log line\n").encode(),
             {"Content-Type": "text/plain"}),
        ]  # fmt: skip
        answers = [client.post(url, content=body, headers=headers) for body, headers in sent]
        assert [a.status_code for a in answers] == [200] * 5, [a.text for a in answers]
        assert [a.json()["accepted"] for a in answers] == [40] * 5
        assert [a.json()["rejected"] for a in answers] == [0, 0, 0, 0, 1]
        dataset_id = created.json()["dataset"]["id"]
        summary = client.get(f"/api/v1/datasets/{dataset_id}/summary").raise_for_status().json()
        dataset = client.get(f"/api/v1/datasets/{dataset_id}").json()
        listed = client.get("/api/v1/datasets").json()
    took = np.concatenate([t for _, t in batches])
    assert summary["request_count"] == 200 and summary["rejected_count"] == 1
    assert summary["rejects"][0]["line_number"] == 201  # counted across posts
    # a live dataset's percentiles are its partial summaries' log-bucket sketch's: within 1%
    assert summary["latency"]["p95_s"] == pytest.approx(float(np.percentile(took, 95)), rel=ALPHA)
    assert summary["latency"]["max_s"] == float(took.max())
    assert summary["span_s"] == pytest.approx(200, abs=1.0)  # one line a second
    assert (dataset["status"], dataset["format"]) == ("ready", "combined_latency_s")
    # live, with the time the last lines were received, in the dataset and in the list
    assert dataset["source"]["kind"] == "stream" and dataset["source"]["live"] is True
    received = datetime.fromisoformat(dataset["source"]["refreshed_at"])
    assert started <= received <= datetime.now(UTC)
    row = next(d for d in listed["items"] if d["id"] == dataset_id)
    assert row["source"] == dataset["source"]


def test_a_stream_detects_its_format_and_refuses_others(stack: Stack) -> None:
    mine = stack.token_for("auto@a.example", "Auto")
    theirs = stack.token_for("else@b.example", "Else")
    viewer = stack.token_for("look@a.example", "Auto", scope="read")
    lines, _ = access_lines(30, 0, 5)
    with stack.client(mine) as client:
        stream = client.post("/api/v1/telemetry/streams", json={"name": "auto"}).json()
        url = stream["lines_url"]
        first = client.post(
            url, content=vector_ndjson(lines), headers={"Content-Type": "application/x-ndjson"}
        )
        assert first.status_code == 200 and first.json()["format"] == "combined_latency_s"
        junk = client.post(url, content=b"[not json", headers={"Content-Type": "application/json"})
        assert junk.status_code == 400
    with stack.client(viewer) as client:
        refused = client.post(url, content=b"x\n", headers={"Content-Type": "text/plain"})
        assert refused.status_code == 403
    with stack.client(theirs) as client:
        hidden = client.post(
            url, content=vector_ndjson(lines), headers={"Content-Type": "application/x-ndjson"}
        )
        assert hidden.status_code == 404
