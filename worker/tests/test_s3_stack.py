"""The stack on S3 object storage (a real S3 API server): the API and two workers, each with
a data directory of its own, share only PostgreSQL, Redis and the bucket."""

import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import boto3
import httpx
import pytest

from support.services import Stack, wait_for_job

CHUNK_BYTES = 8 * 1024**2  # the CLI's and the web app's: S3 parts are 5 MiB or more


def worker_on_its_own_machine(stack: Stack, data_dir: Path) -> Stack:
    """A worker whose only links to the API are the database, the broker and the bucket."""
    data_dir.mkdir()
    machine = Stack(
        env={**stack.env, "HEADROOM_DATA_DIR": str(data_dir)},
        base_url=stack.base_url,
        log_dir=data_dir,
    )
    machine.start_worker()
    return machine


def resumable_upload(client: httpx.Client, data: bytes, name: str) -> dict:  # type: ignore[type-arg]
    created = client.post("/api/v1/uploads", json={"name": name, "size_bytes": len(data)})
    assert created.status_code == 201, created.text
    upload_id = created.json()["id"]
    for offset in range(0, len(data), CHUNK_BYTES):
        client.put(
            f"/api/v1/uploads/{upload_id}/chunks",
            params={"offset": offset},
            content=data[offset : offset + CHUNK_BYTES],
        ).raise_for_status()
    done = client.post(f"/api/v1/uploads/{upload_id}/complete")
    assert done.status_code == 202, done.text
    return done.json()  # type: ignore[no-any-return]


def characterization_job(client: httpx.Client, dataset_id: int) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = client.get(f"/api/v1/datasets/{dataset_id}/characterization")
        if found.status_code == 200:
            return wait_for_job(client, found.json()["job"]["id"], timeout_s=180)
        assert found.status_code == 404, found.text
        time.sleep(0.2)
    raise TimeoutError("no characterization was started")


def stored_keys(s3_url: str, prefix: str) -> list[str]:
    bucket, root = urlparse(s3_url).netloc, urlparse(s3_url).path.strip("/")
    pages = boto3.client("s3").get_paginator("list_objects_v2")
    found = pages.paginate(Bucket=bucket, Prefix=f"{root}/{prefix}")
    return [o["Key"][len(root) + 1 :] for page in found for o in page.get("Contents", [])]


def test_upload_parse_characterize_and_summary_across_machines(
    s3_url: str, make_stack: Callable[..., Stack], tmp_path: Path, sample_log: Path
) -> None:
    stack = make_stack(storage_url=s3_url, parallel_ingest="true")
    machines = [worker_on_its_own_machine(stack, tmp_path / f"machine{i}") for i in range(2)]
    try:
        client = stack.client(stack.token_for("s3@example.com", "Buckets"))
        dataset = resumable_upload(client, sample_log.read_bytes() * 4, "access.log")
        ingest = wait_for_job(client, dataset["job"]["id"], timeout_s=180)
        assert ingest["status"] == "succeeded", ingest
        characterized = characterization_job(client, dataset["id"])
        assert characterized["status"] == "succeeded", characterized
        summary = client.get(f"/api/v1/datasets/{dataset['id']}/summary").json()
    finally:
        for machine in machines:
            machine.stop()
    assert summary["request_count"] + summary["rejected_count"] == 40_000
    assert summary["status_counts"]["5xx"] == 4 * 3
    keys = stored_keys(s3_url, f"datasets/{dataset['id']}/")
    parts = [k for k in keys if k.endswith(".parquet")]
    assert len(parts) > 4  # parsed in byte ranges, by whichever worker took each
    assert stored_keys(s3_url, "uploads/") == []  # the chunks were joined and removed
    for data_dir in (tmp_path, *(tmp_path / f"machine{i}" for i in range(2))):
        assert not (data_dir / "storage").exists(), data_dir  # nothing stored locally


def test_a_bucket_that_does_not_exist_stops_the_api_with_its_name(
    s3_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    make_stack: Callable[..., Stack],
    tmp_path: Path,
) -> None:
    for name, value in s3_env.items():
        monkeypatch.setenv(name, value)
    # the API exits, or (several processes under uvicorn's supervisor) never serves
    with pytest.raises((RuntimeError, TimeoutError)):
        make_stack(storage_url="s3://no-such-bucket/headroom")
    assert "'no-such-bucket' cannot be used" in (tmp_path / "api.log").read_text()
