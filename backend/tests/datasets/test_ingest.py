"""The ingest job against an independent line-by-line reading of the real sample log."""

import gzip
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

CLF = re.compile(rb'^\S+ \S+ \S+ \[([^\]]+)\] "[^"]*" (\d{3}) (\d+|-)')


def reference(path: Path) -> dict[str, object]:
    """Counts by a plain regex over the Common-Log prefix of each line."""
    times, classes, total_bytes = [], Counter(), 0
    for line in path.read_bytes().splitlines():
        match = CLF.match(line)
        if match is None:
            continue
        times.append(datetime.strptime(match[1].decode(), "%d/%b/%Y:%H:%M:%S %z"))
        classes[f"{match[2].decode()[0]}xx"] += 1
        total_bytes += 0 if match[3] == b"-" else int(match[3])
    return {
        "count": len(times),
        "first": min(times),
        "last": max(times),
        "classes": classes,
        "bytes": total_bytes,
    }


def ingest(settings: Settings, client, data: bytes, name: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    created = client.post("/api/v1/datasets", params={"name": name}, content=data).json()
    run_job(settings, created["job"]["id"], ingest_body)
    response = client.get(f"/api/v1/datasets/{created['id']}/summary")
    assert response.status_code == 200, response.text
    return response.json()


def test_summary_matches_an_independent_reading(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "k@example.com", "Shop"))
    summary = ingest(settings, client, sample_log.read_bytes(), "access.log")
    expected = reference(sample_log)
    lines = sample_log.read_bytes().count(b"\n")
    assert summary["request_count"] + summary["rejected_count"] == lines
    # the one line with an unterminated user-agent quote still has a valid CLF prefix
    assert expected["count"] - summary["request_count"] in (0, 1)
    assert summary["request_count"] >= 9_999
    assert summary["status_counts"]["2xx"] >= 9_170 and summary["status_counts"]["5xx"] == 3
    assert datetime.fromisoformat(summary["first_ts"]) == expected["first"].astimezone(UTC)
    assert datetime.fromisoformat(summary["last_ts"]) == expected["last"].astimezone(UTC)
    assert abs(summary["bytes_total"] - expected["bytes"]) <= 1_000_000  # one line's body at most
    assert summary["latency"] is None
    assert summary["error_rate"] == summary["status_counts"]["5xx"] / summary["request_count"]
    assert sum(p["requests"] for p in summary["series"]) == summary["request_count"]
    assert len(summary["series"]) <= 2000


def test_gzip_gives_the_same_summary(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "l@example.com", "Shop"))
    plain = ingest(settings, client, sample_log.read_bytes(), "access.log")
    packed = ingest(settings, client, gzip.compress(sample_log.read_bytes()), "access.log.gz")
    for key in (
        "request_count",
        "rejected_count",
        "status_counts",
        "bytes_total",
        "series",
        "first_ts",
        "last_ts",
    ):
        assert plain[key] == packed[key], key


def test_latency_percentiles_from_a_trailing_response_time(
    settings: Settings, tmp_path: Path
) -> None:
    """Combined + %D (microseconds): p50/p95/p99 equal numpy's on the same values."""
    import numpy as np

    micros = np.arange(1, 1001) * 1000  # 1 ms .. 1 s
    lines = [
        f"10.0.0.{i % 250} - - [01/Mar/2024:10:{i // 60 % 60:02d}:{i % 60:02d} +0100] "
        f'"GET /p/{i} HTTP/1.1" 200 {i} "-" "curl/8" {us}\n'
        for i, us in enumerate(micros)
    ]
    client = signed_in(settings, member(settings, "m@example.com", "Shop"))
    summary = ingest(settings, client, "".join(lines).encode(), "timed.log")
    latency = summary["latency"]
    seconds = micros / 1e6
    assert latency["count"] == 1000
    for key, q in (("p50_s", 50), ("p95_s", 95), ("p99_s", 99)):
        assert abs(latency[key] - np.percentile(seconds, q)) < 1e-9
    assert summary["first_ts"].startswith("2024-03-01T09:00:00")


def test_sequential_ingest_carries_a_changed_w3c_header_into_later_chunks(
    settings: Settings,
) -> None:
    """The `#Fields:` order changes in the first chunk; later chunks have no header."""
    lines = ["#Fields: date time c-ip cs-method cs-uri-stem sc-status time-taken"]
    lines += [f"2024-03-01 00:00:{i % 60:02d} 10.0.0.{i % 250} GET /a 200 {i}" for i in range(50)]
    lines += ["#Fields: date time cs-method cs-uri-stem sc-status time-taken c-ip"]
    lines += [f"2024-03-01 00:01:{i % 60:02d} GET /b 404 {i} 10.0.1.{i % 250}" for i in range(2000)]
    data = ("\n".join(lines) + "\n").encode()
    small_chunks = settings.model_copy(update={"ingest_chunk_bytes": 8192})
    assert len(data) > 8 * small_chunks.ingest_chunk_bytes
    client = signed_in(settings, member(settings, "w3c@example.com", "Shop"))
    summary = ingest(small_chunks, client, data, "u_ex.log")
    # the two directive lines are the only rejects (counted, as every non-request line)
    assert summary["rejects"] == [] and summary["rejected_count"] == 0
    assert summary["skipped_count"] == 2  # the two #Fields: directives
    assert summary["request_count"] == 2050
    assert summary["status_counts"]["2xx"] == 50 and summary["status_counts"]["4xx"] == 2000
