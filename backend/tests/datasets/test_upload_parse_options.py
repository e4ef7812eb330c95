"""Uploads that name their format (a known name or an nginx/Apache format string) and the
zip members to read: checked at upload, stored on the dataset, used by the ingest (one pass
and parallel ranges), the parser's notes recorded in the dataset's metadata."""

import io
import json
import re
import shutil
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest
from click.testing import Result
from fastapi.testclient import TestClient

from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.formats import KNOWN_FORMATS
from headroom.datasets.ingest_ranges import merge, parse_range, plan_ranges, prepared_to_dict
from headroom.engine.logs.formats import known_format_names
from headroom.engine.logs.nginx import COMPLETION_NOTE
from headroom.jobs.runner import JobContext, ingest_body, run_job
from support.factories import member, signed_in

NGINX_FORMAT = (
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
    '"$http_referer" "$http_user_agent" rt=$request_time'
)
COMPLETED = datetime(2026, 3, 1, 11, 0, 0, tzinfo=UTC)  # logged at +0100 below


def nginx_lines(n: int) -> list[tuple[bytes, datetime]]:
    """(line, its arrival) for n requests completing one per 10 s, taking 0.001*(i+1) s."""
    out = []
    for i in range(n):
        done = COMPLETED + timedelta(seconds=10 * i)
        local = (done + timedelta(hours=1)).strftime("%d/%b/%Y:%H:%M:%S +0100")
        took = (i + 1) * 0.001
        line = (
            f'10.0.0.{i % 250} - - [{local}] "GET /p/{i} HTTP/1.1" 200 {100 + i} "-" "ua" '
            f"rt={took:.3f}"
        )
        out.append((line.encode(), done - timedelta(seconds=took)))
    return out


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """SQLite only: what is tested here does not depend on the database."""
    shutil.copy(request.getfixturevalue("sqlite_template"), tmp_path / "headroom.db")
    url = f"sqlite:///{tmp_path / 'headroom.db'}"
    return Settings(data_dir=tmp_path, database_url=url, static_dir=tmp_path / "none")


def client_for(settings: Settings, email: str) -> TestClient:
    return signed_in(settings, member(settings, email, "Shop"))


def request_table(settings: Settings, dataset_id: int) -> pl.DataFrame:
    store = open_store(settings.resolved_storage_url())
    keys = [k for k in store.list(f"datasets/{dataset_id}/requests") if k.endswith(".parquet")]
    return store.scan_parquet(keys).collect().sort("ts")


def ingested(settings: Settings, client: TestClient, created: dict) -> dict:  # type: ignore[type-arg]
    run_job(settings, created["job"]["id"], ingest_body)
    dataset = client.get(f"/api/v1/datasets/{created['id']}").json()
    assert dataset["status"] == "ready", dataset
    return dataset  # type: ignore[no-any-return]


def arrivals_ns(pairs: list[tuple[bytes, datetime]]) -> list[int]:
    return sorted(round(a.timestamp() * 1e6) * 1000 for _, a in pairs)


def test_nginx_log_format_upload_gives_arrival_times_and_says_so(settings: Settings) -> None:
    client = client_for(settings, "n@example.com")
    pairs = nginx_lines(40)
    body = b"\n".join(line for line, _ in pairs) + b"\n"
    params = {"name": "timed.log", "log_format": NGINX_FORMAT}
    created = client.post("/api/v1/datasets", params=params, content=body)
    assert created.status_code == 202, created.text
    assert created.json()["parse_options"]["log_format"] == NGINX_FORMAT
    dataset = ingested(settings, client, created.json())
    assert dataset["format"] == f"nginx:{NGINX_FORMAT}"
    assert COMPLETION_NOTE in dataset["notes"]
    table = request_table(settings, dataset["id"])
    assert table["ts"].dt.epoch("ns").to_list() == arrivals_ns(pairs)
    assert table["latency_s"].to_list() == pytest.approx([(i + 1) * 0.001 for i in range(40)])
    summary = client.get(f"/api/v1/datasets/{dataset['id']}/summary").json()
    assert COMPLETION_NOTE in summary["notes"] and summary["rejected_count"] == 0


def test_multipart_fields_carry_the_options(settings: Settings) -> None:
    client = client_for(settings, "m@example.com")
    pairs = nginx_lines(12)
    body = b"\n".join(line for line, _ in pairs) + b"\n"
    files = {"file": ("timed.log", body, "text/plain")}
    form = {"log_format": NGINX_FORMAT}  # replaces the query's format
    created = client.post("/api/v1/datasets", params={"format": "combined"}, files=files, data=form)
    assert created.status_code == 202, created.text
    dataset = ingested(settings, client, created.json())
    assert dataset["parse_options"]["log_format"] == NGINX_FORMAT
    assert request_table(settings, dataset["id"])["ts"].dt.epoch("ns").to_list() == arrivals_ns(
        pairs
    )


def combined_lines(day: int, n: int) -> bytes:
    return b"".join(
        f'10.1.{day}.{i} - - [0{day}/Mar/2026:10:00:{i:02d} +0000] "GET /{i} HTTP/1.1" 200 7 '
        f'"-" "ua"\n'.encode()
        for i in range(n)
    )


def two_member_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.log", combined_lines(1, 30))
        archive.writestr("b.log", combined_lines(2, 25))
    return buffer.getvalue()


@pytest.mark.parametrize(("members", "expected"), [("all", 55), ("first", 30)])
def test_zip_members_setting_reaches_the_ingest(
    settings: Settings, members: str, expected: int
) -> None:
    client = client_for(settings, f"z{members}@example.com")
    params = {"name": "logs.zip", "zip_members": members, "format": "combined"}
    created = client.post("/api/v1/datasets", params=params, content=two_member_zip())
    assert created.status_code == 202, created.text
    dataset = ingested(settings, client, created.json())
    assert dataset["parse_options"] == {
        "format": "combined",
        "log_format": None,
        "zip_members": members,
    }
    summary = client.get(f"/api/v1/datasets/{dataset['id']}/summary").json()
    assert summary["request_count"] == expected and summary["format"] == "combined"


@pytest.mark.parametrize(
    ("params", "field", "code"),
    [
        ({"format": "nosuch"}, "format", "unknown_format"),
        ({"log_format": "%h %Q"}, "log_format", "bad_log_format"),
        ({"log_format": "$no_such_variable_here"}, "log_format", "bad_log_format"),
        ({"format": "combined", "log_format": "%h"}, "log_format", "validation_error"),
        ({"zip_members": "some"}, "zip_members", "validation_error"),
    ],
)
def test_bad_options_are_refused_naming_the_field(
    settings: Settings, params: dict[str, str], field: str, code: str
) -> None:
    client = client_for(settings, "bad@example.com")
    raw = client.post("/api/v1/datasets", params=params, content=combined_lines(1, 3))
    files = {"file": ("x.log", combined_lines(1, 3), "text/plain")}
    form = client.post("/api/v1/datasets", files=files, data=params)
    resumable = client.post("/api/v1/uploads", json={"name": "x.log", "size_bytes": 9, **params})
    for response in (raw, form, resumable):
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["field"] == field, error
        if field != "zip_members":
            assert error["code"] == code
    assert client.get("/api/v1/datasets").json()["total"] == 0


def test_a_file_that_is_not_in_the_given_format_is_refused(settings: Settings) -> None:
    client = client_for(settings, "w@example.com")
    response = client.post(
        "/api/v1/datasets", params={"format": "caddy"}, content=combined_lines(1, 10)
    )
    assert response.status_code == 422, response.text
    assert "caddy" in response.json()["error"]["message"]


def test_resumable_upload_keeps_its_options_until_complete(settings: Settings) -> None:
    client = client_for(settings, "r@example.com")
    pairs = nginx_lines(20)
    data = b"\n".join(line for line, _ in pairs) + b"\n"
    body = {"name": "t.log", "size_bytes": len(data), "log_format": NGINX_FORMAT}
    upload = client.post("/api/v1/uploads", json=body).json()
    assert upload["parse_options"]["log_format"] == NGINX_FORMAT
    for offset in range(0, len(data), 700):
        chunk = data[offset : offset + 700]
        put = client.put(
            f"/api/v1/uploads/{upload['id']}/chunks", params={"offset": offset}, content=chunk
        )
        assert put.status_code == 200, put.text
    done = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert done.status_code == 202, done.text
    dataset = ingested(settings, client, done.json())
    assert dataset["format"] == f"nginx:{NGINX_FORMAT}" and COMPLETION_NOTE in dataset["notes"]
    table = request_table(settings, dataset["id"])
    assert table["ts"].dt.epoch("ns").to_list() == arrivals_ns(pairs)


def ranges_body(context: JobContext) -> None:
    """The parallel path in one process: ranges parsed one by one, then merged."""
    settings = context.settings
    prepared = ingest.prepare(settings, context.job_id, context.worker)
    payload = prepared_to_dict(prepared)
    ranges = plan_ranges(
        open_store(settings.resolved_storage_url()),
        prepared.key,
        prepared.size_bytes,
        settings.ingest_chunk_bytes,
    )
    assert len(ranges) >= 3
    args = (settings, context.job_id, context.worker, payload)
    merge(*args, [parse_range(*args, part) for part in ranges])


def test_parallel_ranges_use_the_given_format(settings: Settings) -> None:
    settings = settings.model_copy(update={"ingest_chunk_bytes": 1500})
    client = client_for(settings, "p@example.com")
    pairs = nginx_lines(60)
    body = b"\n".join(line for line, _ in pairs) + b"\n"
    params = {"name": "timed.log", "log_format": NGINX_FORMAT}
    created = client.post("/api/v1/datasets", params=params, content=body).json()
    run_job(settings, created["job"]["id"], ranges_body)
    dataset = client.get(f"/api/v1/datasets/{created['id']}").json()
    assert dataset["status"] == "ready" and COMPLETION_NOTE in dataset["notes"]
    table = request_table(settings, dataset["id"])
    assert table["ts"].dt.epoch("ns").to_list() == arrivals_ns(pairs)


def test_known_formats_endpoint_lists_the_engine_registry(settings: Settings) -> None:
    client = client_for(settings, "f@example.com")
    listed = client.get("/api/v1/datasets/formats")
    assert listed.status_code == 200
    assert listed.json()["formats"] == list(KNOWN_FORMATS) == known_format_names()


def test_the_ui_format_list_matches_the_api() -> None:
    """The upload form's static list (kept for a first render without a request)."""
    source = Path(__file__).parents[3] / "frontend/src/features/upload/formats.ts"
    listed = source.read_text().split("KNOWN_FORMATS = [", 1)[1].split("]", 1)[0]
    names = re.findall(r'"([a-z0-9_]+)"', listed)
    assert names == list(KNOWN_FORMATS)


def cli_against(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[[list[str]], Result]:
    """`headroom ...` run in process, its remote calls sent to the API test client."""
    from click.testing import CliRunner

    from headroom.cli import main
    from headroom.client import remote

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(remote, "load_credentials", lambda: None)
    monkeypatch.setattr(remote, "client", lambda _credentials: client)
    return lambda args: CliRunner().invoke(main, args)


def test_cli_upload_passes_log_format(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = client_for(settings, "cli@example.com")
    headroom = cli_against(client, tmp_path, monkeypatch)
    log = tmp_path / "timed.log"
    log.write_bytes(b"\n".join(line for line, _ in nginx_lines(10)) + b"\n")
    result = headroom(["upload", str(log), "--log-format", NGINX_FORMAT, "--json"])
    assert result.exit_code == 0, result.output
    dataset_id = json.loads(result.stdout)["dataset_id"]
    dataset = client.get(f"/api/v1/datasets/{dataset_id}").json()
    assert dataset["parse_options"]["log_format"] == NGINX_FORMAT
    both = headroom(["upload", str(log), "--format", "combined", "--log-format", "%h"])
    assert both.exit_code == 2


def test_cli_upload_passes_zip_members(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = client_for(settings, "zip-cli@example.com")
    headroom = cli_against(client, tmp_path, monkeypatch)
    archive = tmp_path / "logs.zip"
    archive.write_bytes(two_member_zip())
    args = ["upload", str(archive), "--zip-members", "all", "--format", "combined", "--json"]
    result = headroom(args)
    assert result.exit_code == 0, result.output
    dataset_id = json.loads(result.stdout)["dataset_id"]
    dataset = client.get(f"/api/v1/datasets/{dataset_id}").json()
    assert dataset["parse_options"]["zip_members"] == "all"
    bad = headroom(["upload", str(archive), "--zip-members", "some"])
    assert bad.exit_code == 2
