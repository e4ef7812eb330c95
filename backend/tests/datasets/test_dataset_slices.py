"""A slice of a dataset (time range, path prefix, status class): its summary and its
requests, against the same figures computed by hand from the generated lines."""

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

START = datetime(2024, 3, 1, 10, 0, 0, tzinfo=UTC)
START_MS = int(START.timestamp() * 1000)
N = 600  # one request a second for ten minutes
PATHS = ("/api/cart", "/api/search", "/static/app.js", "/")
STATUSES = (200, 200, 200, 304, 404, 503, 200)


def requests() -> list[dict[str, object]]:
    """The log's requests: second i, a path, a status, a size and a response time."""
    rows = []
    for i in range(N):
        rows.append(
            {
                "row": i,
                "ms": START_MS + 1000 * i,
                "path": PATHS[i % len(PATHS)],
                "status": STATUSES[i % len(STATUSES)],
                "bytes": 100 + i,
                "latency_s": (1 + (i * 37) % 500) / 1000,
            }
        )
    return rows


def log_bytes() -> bytes:
    lines = []
    for r in requests():
        t = START + timedelta(milliseconds=int(r["ms"]) - START_MS)  # type: ignore[operator]
        stamp = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
        micros = round(float(r["latency_s"]) * 1e6)  # type: ignore[arg-type]
        lines.append(
            f'10.0.0.{int(r["row"]) % 50} - - [{stamp}] "GET {r["path"]} HTTP/1.1" '  # type: ignore[call-overload]
            f'{r["status"]} {r["bytes"]} "-" "curl/8" {micros}\n'
        )
    return "".join(lines).encode()


def ingested(settings: Settings, email: str, role: Role = Role.owner):  # type: ignore[no-untyped-def]
    owner = signed_in(settings, member(settings, f"owner-{email}", "Shop"))
    created = owner.post("/api/v1/datasets", params={"name": "a.log"}, content=log_bytes())
    run_job(settings, created.json()["job"]["id"], ingest_body)
    if role == Role.owner:
        return owner, created.json()["id"]
    return signed_in(settings, member(settings, email, "Shop", role)), created.json()["id"]


def expected(rows: list[dict[str, object]], lo_ms: int, hi_ms: int) -> dict[str, object]:
    lat = np.array([r["latency_s"] for r in rows], dtype=float)
    classes = {f"{c}xx": sum(1 for r in rows if r["status"] // 100 == c) for c in range(1, 6)}  # type: ignore[operator]
    return {
        "request_count": len(rows),
        "status_counts": classes,
        "bytes_total": sum(int(r["bytes"]) for r in rows),  # type: ignore[call-overload]
        "span_s": (hi_ms - lo_ms) / 1000,
        "p50_s": float(np.percentile(lat, 50)),
        "p90_s": float(np.percentile(lat, 90)),
        "p99_s": float(np.percentile(lat, 99)),
    }


def pick(
    lo_ms: int, hi_ms: int, prefix: str = "", status_class: int | None = None
) -> list[dict[str, object]]:
    return [
        r
        for r in requests()
        if lo_ms <= int(r["ms"]) < hi_ms  # type: ignore[call-overload]
        and str(r["path"]).startswith(prefix)
        and (status_class is None or int(r["status"]) // 100 == status_class)  # type: ignore[call-overload]
    ]


def check_summary(body: dict[str, object], want: dict[str, object]) -> None:
    assert body["request_count"] == want["request_count"]
    assert body["status_counts"] == want["status_counts"]
    assert body["bytes_total"] == want["bytes_total"]
    assert body["span_s"] == pytest.approx(want["span_s"])
    assert body["mean_rate_per_s"] == pytest.approx(want["request_count"] / want["span_s"])  # type: ignore[operator]
    latency = body["latency"]
    assert isinstance(latency, dict)
    for key in ("p50_s", "p90_s", "p99_s"):  # microsecond latencies: exact to float error
        assert latency[key] == pytest.approx(want[key], abs=1e-9)


def test_a_range_summary_equals_a_hand_count_of_its_requests(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s1@example.com")
    lo, hi = START_MS + 120_000, START_MS + 300_000  # minutes 2 to 5
    body = client.get(
        f"/api/v1/datasets/{dataset_id}/summary", params={"from": lo, "to": hi}
    ).json()
    check_summary(body, expected(pick(lo, hi), lo, hi))
    assert sum(p["requests"] for p in body["series"]) == 180
    assert body["fields_recorded"]["latency"] is True


def test_a_filtered_range_keeps_the_window_as_its_span(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s2@example.com")
    lo, hi = START_MS + 60_000, START_MS + 400_000
    params = {"from": lo, "to": hi, "path_prefix": "/api/", "status_class": "2xx"}
    body = client.get(f"/api/v1/datasets/{dataset_id}/summary", params=params).json()
    check_summary(body, expected(pick(lo, hi, "/api/", 2), lo, hi))
    assert body["error_rate"] == 0.0


def test_a_range_past_the_log_is_clipped_to_what_it_covers(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s3@example.com")
    lo, hi = START_MS + 500_000, START_MS + 9_000_000  # the log ends at 600 s
    body = client.get(
        f"/api/v1/datasets/{dataset_id}/summary", params={"from": lo, "to": hi}
    ).json()
    check_summary(body, expected(pick(lo, hi), lo, START_MS + 600_000))


def test_an_empty_slice_has_zero_responses_not_unrecorded_ones(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s4@example.com")
    body = client.get(
        f"/api/v1/datasets/{dataset_id}/summary", params={"path_prefix": "/nothing"}
    ).json()
    assert body["request_count"] == 0 and body["status_counts"]["5xx"] == 0
    assert body["bytes_total"] == 0 and body["latency"] is None


def test_no_slice_serves_the_stored_summary(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s5@example.com")
    body = client.get(f"/api/v1/datasets/{dataset_id}/summary").json()
    assert body["request_count"] == N and body["span_s"] == pytest.approx(N)


def test_the_requests_of_a_slice_page_by_page_are_exactly_its_requests(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s6@example.com", Role.viewer)
    lo, hi = START_MS + 30_000, START_MS + 200_000
    want = pick(lo, hi, "/api/s", 2)
    params: dict[str, object] = {
        "from": lo,
        "to": hi,
        "path_prefix": "/api/s",
        "status_class": "2xx",
        "limit": 7,
    }
    seen, pages = [], 0
    while True:
        response = client.get(f"/api/v1/datasets/{dataset_id}/requests", params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["total"] == len(want) and len(body["items"]) <= 7
        seen += body["items"]
        pages += 1
        if body["next_page_token"] is None:
            break
        params["page_token"] = body["next_page_token"]
    assert pages == -(-len(want) // 7)
    assert [r["row"] for r in seen] == [r["row"] for r in want]
    assert [r["status"] for r in seen] == [r["status"] for r in want]
    first = seen[0]
    assert first["path"] == "/api/search" and first["bytes"] == want[0]["bytes"]
    assert datetime.fromisoformat(first["ts"]) == START + timedelta(
        milliseconds=int(want[0]["ms"]) - START_MS
    )  # type: ignore[call-overload]
    assert first["latency_s"] == pytest.approx(want[0]["latency_s"])


def test_another_workspace_cannot_see_a_slice(settings: Settings) -> None:
    _, dataset_id = ingested(settings, "s7@example.com")
    stranger = signed_in(settings, member(settings, "s7-other@example.com", "Elsewhere"))
    for path in ("requests", "summary"):
        response = stranger.get(f"/api/v1/datasets/{dataset_id}/{path}", params={"from": START_MS})
        assert response.status_code == 404, path
    filtered = {"path_prefix": "/static", "status_class": "2xx"}
    response = stranger.get(f"/api/v1/datasets/{dataset_id}/arrivals", params=filtered)
    assert response.status_code == 404


def test_bad_slices_are_refused_naming_the_parameter(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s8@example.com")
    url = f"/api/v1/datasets/{dataset_id}"
    backwards = client.get(f"{url}/requests", params={"from": START_MS + 5, "to": START_MS})
    assert backwards.status_code == 422 and backwards.json()["error"]["field"] == "to"
    assert client.get(f"{url}/summary", params={"status_class": "6xx"}).status_code == 422
    for path in ("summary", "arrivals"):
        pattern = client.get(f"{url}/{path}", params={"path_pattern": "~(unclosed"})
        assert pattern.status_code == 422 and pattern.json()["error"]["field"] == "path_pattern"
        assert client.get(f"{url}/{path}", params={"status_class": "6xx"}).status_code == 422
    token = client.get(f"{url}/requests", params={"page_token": "x1"})
    assert token.status_code == 422 and token.json()["error"]["field"] == "page_token"


def test_arrivals_follow_the_filters(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s9@example.com")
    params = {"every_s": 60, "path_prefix": "/static", "status_class": "2xx"}
    body = client.get(f"/api/v1/datasets/{dataset_id}/arrivals", params=params).json()
    want = [
        len(pick(START_MS + m * 60_000, START_MS + (m + 1) * 60_000, "/static", 2))
        for m in range(10)
    ]
    assert body["count"] == want


def test_arrivals_take_every_filter_and_their_own_window(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "s10@example.com")
    url = f"/api/v1/datasets/{dataset_id}/arrivals"
    params: dict[str, str | int] = {"every_s": 60, "client": "10.0.0.7", "path_pattern": "/api/*"}
    body = client.get(url, params=params).json()
    kept = [
        int(str(r["ms"]))
        for r in requests()
        if int(str(r["row"])) % 50 == 7 and str(r["path"]).startswith("/api/")
    ]
    want = [
        sum(1 for ms in kept if START_MS + m * 60_000 <= ms < START_MS + (m + 1) * 60_000)
        for m in range(10)
    ]
    assert body["count"] == want and sum(want) > 0
    # the window is start_ms/end_ms; a slice's from/to are not the arrivals' parameters
    window = {**params, "start_ms": START_MS + 120_000, "end_ms": START_MS + 300_000}
    assert client.get(url, params=window).json()["count"] == want[2:5]
    ranged = {**params, "from": START_MS + 120_000, "to": START_MS + 300_000}
    assert client.get(url, params=ranged).json()["count"] == want
