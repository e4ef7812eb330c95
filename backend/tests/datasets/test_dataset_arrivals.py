"""GET /datasets/{id}/arrivals on a small ingested log, against counts made by hand."""

from collections import Counter
from datetime import UTC, datetime

from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

START = datetime(2024, 3, 1, 10, 0, 0, tzinfo=UTC)
START_MS = int(START.timestamp() * 1000)
# seconds after START of each request: bursts, gaps, a quiet tail
OFFSETS_S = [0, 0, 0, 1, 3, 3, 7, 7, 7, 7, 8, 12, 12, 13, 20, 20, 20, 20, 20, 29]


def log_bytes() -> bytes:
    lines = [
        f"10.0.0.{i} - - [01/Mar/2024:10:00:{s:02d} +0000] "
        f'"GET /p/{i} HTTP/1.1" 200 {100 + i} "-" "curl/8"\n'
        for i, s in enumerate(OFFSETS_S)
    ]
    return "".join(lines).encode()


def ingested(settings: Settings, email: str):  # type: ignore[no-untyped-def]
    client = signed_in(settings, member(settings, email, "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "a.log"}, content=log_bytes())
    run_job(settings, created.json()["job"]["id"], ingest_body)
    return client, created.json()["id"]


def test_the_whole_log_second_by_second_equals_a_hand_count(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "z1@example.com")
    response = client.get(f"/api/v1/datasets/{dataset_id}/arrivals")
    assert response.status_code == 200, response.text
    body = response.json()
    by_second = Counter(OFFSETS_S)
    assert body["every_s"] == 1 and body["buckets"] == 30 and not body["downsampled"]
    assert body["t_ms"] == [START_MS + 1000 * s for s in range(30)]
    assert body["count"] == [by_second[s] for s in range(30)]
    assert body["count"][:4] == [3, 1, 0, 2] and body["count"][20] == 5


def test_a_window_in_five_second_buckets(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "z2@example.com")
    params = {"start_ms": START_MS + 5000, "end_ms": START_MS + 25_000, "every_s": 5}
    body = client.get(f"/api/v1/datasets/{dataset_id}/arrivals", params=params).json()
    # [5,10): 7,7,7,7,8 | [10,15): 12,12,13 | [15,20): none | [20,25): 20 x5
    assert body["t_ms"] == [START_MS + 1000 * s for s in (5, 10, 15, 20)]
    assert body["count"] == [5, 3, 0, 5]


def test_more_buckets_than_points_are_downsampled_keeping_the_ends(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "z3@example.com")
    params = {"max_points": 5}
    body = client.get(f"/api/v1/datasets/{dataset_id}/arrivals", params=params).json()
    assert body["downsampled"] and body["buckets"] == 30 and len(body["t_ms"]) == 5
    assert body["t_ms"][0] == START_MS and body["t_ms"][-1] == START_MS + 29_000
    assert body["count"][0] == 3 and body["count"][-1] == 1


def test_a_bad_window_is_refused_naming_the_parameter(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "z4@example.com")
    url = f"/api/v1/datasets/{dataset_id}/arrivals"
    backwards = client.get(url, params={"start_ms": START_MS + 9000, "end_ms": START_MS})
    assert backwards.status_code == 422
    assert backwards.json()["error"]["field"] == "end_ms"
    zero = client.get(url, params={"every_s": 0})
    assert zero.status_code == 422 and "every_s" in zero.text
    huge = client.get(url, params={"start_ms": 0, "end_ms": START_MS})
    assert huge.status_code == 422
    assert huge.json()["error"]["field"] == "every_s"


def test_a_dataset_not_yet_ingested_is_a_conflict(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "z5@example.com", "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "b.log"}, content=log_bytes())
    response = client.get(f"/api/v1/datasets/{created.json()['id']}/arrivals")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_ready"


def test_rates_are_over_the_seconds_the_log_covers(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "z6@example.com")
    url = f"/api/v1/datasets/{dataset_id}/arrivals"
    # 1 s timestamps from 10:00:00 to 10:00:29: the log covers 30 s of its one minute
    minute = client.get(url, params={"every_s": 60}).json()
    assert minute["count"] == [20] and minute["rate_per_s"] == [20 / 30]
    tens = client.get(url, params={"every_s": 10}).json()
    assert tens["rate_per_s"] == [c / 10 for c in tens["count"]] == [1.1, 0.3, 0.6]
    seconds = client.get(url).json()
    assert seconds["rate_per_s"] == [float(c) for c in seconds["count"]]
