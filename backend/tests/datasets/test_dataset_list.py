"""The datasets list: each dataset's requests, time span and latency from its ingest, search
by name, sorting, renaming, and the same figures for datasets ingested before they were
recorded (the migration's backfill)."""

from datetime import UTC, datetime, timedelta

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from headroom.core.migrations import alembic_config
from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

START = datetime(2026, 3, 2, 9, 0, 0, tzinfo=UTC)


def combined_log(requests: int, step_s: int, latency: bool, tag: str) -> bytes:
    """`requests` Combined lines `step_s` apart from START (with %D microseconds if asked)."""
    lines = []
    for i in range(requests):
        moment = (START + timedelta(seconds=i * step_s)).strftime("%d/%b/%Y:%H:%M:%S +0000")
        line = f'10.0.0.{i % 7} - - [{moment}] "GET /{tag}/{i} HTTP/1.1" 200 512 "-" "curl/8"'
        lines.append(line + (f" {1000 + i}" if latency else ""))
    return ("\n".join(lines) + "\n").encode()


def add(client: TestClient, settings: Settings, name: str, data: bytes, ingest: bool = True) -> int:
    answer = client.post("/api/v1/datasets", params={"name": name}, content=data)
    assert answer.status_code == 202, answer.text
    if ingest:
        assert run_job(settings, answer.json()["job"]["id"], ingest_body)
    return int(answer.json()["id"])


def listed(client: TestClient, **params: object) -> list[dict]:
    answer = client.get("/api/v1/datasets", params=params)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["items"])


def test_each_dataset_shows_its_requests_span_and_latency(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "a@example.com", "Shop"))
    timed = add(client, settings, "timed.log", combined_log(40, 30, latency=True, tag="t"))
    plain = add(client, settings, "plain.log", combined_log(10, 60, latency=False, tag="p"))
    waiting = add(client, settings, "waiting.log", combined_log(5, 1, False, "w"), ingest=False)
    rows = {row["id"]: row for row in listed(client)}
    assert rows[timed]["request_count"] == 40 and rows[timed]["has_latency"] is True
    assert rows[plain]["request_count"] == 10 and rows[plain]["has_latency"] is False
    assert datetime.fromisoformat(rows[timed]["first_request_at"]) == START
    last = datetime.fromisoformat(rows[timed]["last_request_at"])
    assert last == START + timedelta(seconds=39 * 30)
    # the span runs from the first request to the last plus one timestamp granularity
    for dataset, gap_s in ((timed, 39 * 30), (plain, 9 * 60)):
        summary = client.get(f"/api/v1/datasets/{dataset}/summary").json()
        granularity_s = summary["timestamp_granularity_s"]
        assert rows[dataset]["span_s"] == summary["span_s"] == gap_s + granularity_s
    not_ingested = rows[waiting]
    assert not_ingested["request_count"] is None and not_ingested["has_latency"] is None
    assert not_ingested["span_s"] is None and not_ingested["first_request_at"] is None
    assert all(row["synthetic"] is False for row in rows.values())


def test_search_sort_and_rename(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Shop"))
    small = add(client, settings, "Shop-small.log", combined_log(5, 600, False, "s"))
    big = add(client, settings, "shop-big.log", combined_log(50, 1, False, "b"))
    other = add(client, settings, "api_v2.log", combined_log(20, 10, False, "o"))
    pending = add(client, settings, "queued.log", combined_log(3, 1, False, "q"), ingest=False)
    ids = lambda **params: [row["id"] for row in listed(client, **params)]  # noqa: E731
    assert ids() == [pending, other, big, small]  # newest first
    assert ids(sort="oldest") == [small, big, other, pending]
    assert ids(sort="requests") == [big, other, small, pending]  # not ingested: last
    assert ids(sort="span") == [small, other, big, pending]
    assert ids(sort="name") == [other, pending, big, small]
    assert ids(q="SHOP") == [big, small]
    # % and _ are literal: "p_b" would match "shop-big" as a pattern
    assert ids(q="i_v") == [other] and ids(q="p_b") == [] and ids(q="%") == []
    assert ids(q="zzz") == []
    assert client.get("/api/v1/datasets", params={"sort": "bogus"}).status_code == 422

    renamed = client.patch(f"/api/v1/datasets/{small}", json={"name": "  checkout.log "})
    assert renamed.status_code == 200 and renamed.json()["name"] == "checkout.log"
    assert client.get(f"/api/v1/datasets/{small}").json()["name"] == "checkout.log"
    blank = client.patch(f"/api/v1/datasets/{small}", json={"name": "   "})
    assert blank.status_code == 422 and "name" in blank.text


def test_a_viewer_cannot_rename(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "c@example.com", "Shop"))
    dataset = add(owner, settings, "x.log", combined_log(3, 1, False, "x"))
    viewer = signed_in(settings, member(settings, "v@example.com", "Shop", Role.viewer))
    refused = viewer.patch(f"/api/v1/datasets/{dataset}", json={"name": "y.log"})
    assert refused.status_code == 403
    assert owner.get(f"/api/v1/datasets/{dataset}").json()["name"] == "x.log"


def test_datasets_ingested_before_the_list_fields_get_them_from_their_summary(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "d@example.com", "Shop"))
    dataset = add(client, settings, "synthetic-mm4-latency.log", combined_log(12, 5, True, "m"))
    before = listed(client)[0]
    config = alembic_config(settings)
    command.downgrade(config, "3f6a1d8c9b27")  # the revision before the list fields
    command.upgrade(config, "head")
    after = listed(client)[0]
    assert after["id"] == dataset and after["synthetic"] is True  # the demo's generated log
    for field in ("request_count", "first_request_at", "last_request_at", "span_s", "has_latency"):
        assert after[field] == before[field], field
    engine = create_engine(settings.resolved_database_url())
    with engine.connect() as connection:
        count = connection.execute(text("SELECT request_count FROM dataset")).scalar_one()
    engine.dispose()
    assert count == 12
