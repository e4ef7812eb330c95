"""On a real S3 API server: a store that refuses or keeps failing a write mid-ingest (a
clear job error, no parts left), and a resumable upload completed after a crash at each
step of /complete."""

import shutil
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from fastapi.testclient import TestClient
from faults.test_upload_integrity import crash_at, resolve, upload_all

from headroom.api.app import create_app
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

pytestmark = pytest.mark.faults


@pytest.fixture
def s3_settings(request: pytest.FixtureRequest, tmp_path: Path, s3_url: str) -> Settings:
    shutil.copy(request.getfixturevalue("sqlite_template"), tmp_path / "headroom.db")
    return Settings(
        data_dir=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'headroom.db'}",
        storage_url=s3_url,
        static_dir=tmp_path / "no-ui",
        ingest_chunk_bytes=64 * 1024,
    )


def refuse_the_third_part(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store answers AccessDenied to the third Parquet part written."""
    original, parts = store.client.put_object, []

    def put_object(**kwargs: Any) -> Any:
        if kwargs["Key"].endswith(".parquet"):
            parts.append(kwargs["Key"])
            if len(parts) == 3:
                error = {"Error": {"Code": "AccessDenied", "Message": "quota exceeded"}}
                raise ClientError(error, "PutObject")  # type: ignore[arg-type]
        return original(**kwargs)

    monkeypatch.setattr(store.client, "put_object", put_object)


def test_an_unreachable_store_is_a_transient_error(
    s3_settings: Settings, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After boto3's own retries, a store that stays unreachable is transient: a worker
    retries the task (here, run without one, the job gives up and says so)."""
    client = signed_in(s3_settings, member(s3_settings, "gone@example.com", "Gone"))
    created = client.post(
        "/api/v1/datasets", params={"name": "a.log"}, content=sample_log.read_bytes()
    ).json()
    store: Any = open_store(s3_settings.resolved_storage_url())

    def unreachable(**kwargs: Any) -> Any:
        raise EndpointConnectionError(endpoint_url=store.client.meta.endpoint_url)

    monkeypatch.setattr(store.client, "put_object", unreachable)
    run_job(s3_settings, created["job"]["id"], ingest_body)
    job = client.get(f"/api/v1/jobs/{created['job']['id']}").json()
    assert job["status"] == "failed" and job["error_code"] == "transient_error", job
    assert store.list(f"datasets/{created['id']}/requests") == []


def test_a_refused_write_fails_the_ingest_and_leaves_no_parts(
    s3_settings: Settings, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = signed_in(s3_settings, member(s3_settings, "full@example.com", "Full"))
    created = client.post(
        "/api/v1/datasets", params={"name": "a.log"}, content=sample_log.read_bytes()
    ).json()
    store = open_store(s3_settings.resolved_storage_url())
    refuse_the_third_part(store, monkeypatch)
    run_job(s3_settings, created["job"]["id"], ingest_body)
    job = client.get(f"/api/v1/jobs/{created['job']['id']}").json()
    assert job["status"] == "failed"
    assert job["error_code"] == "storage_error", job
    assert "refused to write" in job["error_message"]
    assert "AccessDenied" in job["error_message"]
    assert client.get(f"/api/v1/datasets/{created['id']}").json()["status"] == "failed"
    assert store.list(f"datasets/{created['id']}/requests") == []


def s3_crash_points() -> list[tuple[str, str, int, bool]]:
    return [
        ("headroom.core.storage_s3:S3Store", "finish_parts", 1, False),
        ("headroom.core.storage_s3:S3Store", "finish_parts", 1, True),  # finished, not recorded
        ("headroom.core.storage_s3:S3Store", "delete_prefix", 1, False),  # the hash state kept
        ("headroom.core.storage_s3:S3Store", "move", 1, False),
        ("headroom.core.storage_s3:S3Store", "move", 1, True),
        ("headroom.jobs.service", "create", 1, False),
    ]


@pytest.mark.parametrize(
    "point", s3_crash_points(), ids=lambda p: f"{p[1]}{p[2]}{'after' if p[3] else 'before'}"
)
def test_complete_on_s3_finishes_after_a_crash_at_any_step(
    s3_settings: Settings, sample_log: Path, point: tuple[str, str, int, bool]
) -> None:
    client = signed_in(s3_settings, member(s3_settings, "crash@example.com", "Crash"))
    data = sample_log.read_bytes()[:200_000]
    upload_id = upload_all(client, data, chunks=1)  # on S3 every part but the last is >= 5 MiB
    target, name, call, after = point
    dying = TestClient(client.app, raise_server_exceptions=False, cookies=client.cookies)
    with crash_at(resolve(target), name, call, after):
        crashed = dying.post(f"/api/v1/uploads/{upload_id}/complete")
    assert crashed.status_code == 500  # the crash happened
    restarted = TestClient(create_app(s3_settings), cookies=client.cookies)
    done = restarted.post(f"/api/v1/uploads/{upload_id}/complete")
    assert done.status_code in (200, 202), done.text
    dataset = done.json()
    again = restarted.post(f"/api/v1/uploads/{upload_id}/complete")
    assert again.status_code == 200 and again.json()["id"] == dataset["id"]
    store = open_store(s3_settings.resolved_storage_url())
    stored = store.list(f"datasets/{dataset['id']}")
    assert [store.read_range(k, 0, len(data) + 1) for k in stored] == [data]
    assert store.list("uploads") == []
    assert restarted.get("/api/v1/datasets").json()["total"] == 1


def test_a_store_failing_every_part_fails_the_job_as_transient_naming_the_object(
    s3_settings: Settings, sample_log: Path, s3_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a proxy in front of the real S3 server that answers 503 SlowDown to every
    Parquet part: after the retries, the job fails as transient (a worker would run it
    again) with the object's s3:// address in its message, and no part is left."""
    from headroom.core import storage_s3
    from support.s3_faults import Fault, FaultyS3

    proxy = FaultyS3(s3_env["AWS_ENDPOINT_URL"])
    monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
    monkeypatch.setattr(storage_s3, "MAX_ATTEMPTS", 2)
    try:
        client = signed_in(s3_settings, member(s3_settings, "slow@example.com", "Slow"))
        created = client.post(
            "/api/v1/datasets", params={"name": "a.log"}, content=sample_log.read_bytes()
        ).json()
        proxy.faults.append(Fault("PutObject", 503, "SlowDown"))
        run_job(s3_settings, created["job"]["id"], ingest_body)
        job = client.get(f"/api/v1/jobs/{created['job']['id']}").json()
        proxy.faults.clear()
        left = open_store(s3_settings.resolved_storage_url()).list(f"datasets/{created['id']}")
    finally:
        proxy.close()
    bucket = s3_settings.resolved_storage_url().removeprefix("s3://").split("/")[0]
    assert job["status"] == "failed" and job["error_code"] == "transient_error", job
    assert f"s3://{bucket}/headroom/datasets/{created['id']}/" in job["error_message"]
    assert "SlowDown" in job["error_message"]
    assert proxy.seen["PutObject"] >= storage_s3.MAX_ATTEMPTS  # the part was retried
    assert [k for k in left if "/requests" in k] == []  # the uploaded log alone is kept
