"""The S3 store against a real S3 API server that misbehaves (a fault-injecting proxy in
front of it): refusals are clear errors naming the object and are not retried, failures
that pass are retried, a store that stays down is a transient error, and no failed write
leaves an object or an unfinished multipart upload behind."""

from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from headroom.core import storage_s3
from headroom.core.storage import StorageError
from headroom.core.storage_s3 import S3Store, StoreUnavailable
from support.s3_faults import Fault, FaultyS3

PART = 5 * 1024**2  # S3's smallest part
DATA = bytes(range(256)) * (12 * 4096)  # 12 MiB: three parts


@pytest.fixture
def proxy(s3_env: dict[str, str]) -> Iterator[FaultyS3]:
    faulty = FaultyS3(s3_env["AWS_ENDPOINT_URL"])
    yield faulty
    faulty.close()


@pytest.fixture
def direct(s3_url: str) -> Any:
    """A client of the real server, past the proxy: what is really stored."""
    return boto3.client("s3")


@pytest.fixture
def store(s3_url: str, proxy: FaultyS3, direct: Any, monkeypatch: pytest.MonkeyPatch) -> S3Store:
    monkeypatch.setattr(storage_s3, "PART_BYTES", PART)
    monkeypatch.setattr(storage_s3, "MAX_ATTEMPTS", 3)  # backoff stays within seconds
    monkeypatch.setattr(storage_s3, "READ_TIMEOUT_S", 0.5)
    monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
    return S3Store(s3_url)


def write(store: S3Store, key: str, data: bytes) -> None:
    with store.writer(key) as handle:
        for start in range(0, len(data), 1024**2):
            handle.write(data[start : start + 1024**2])


def left_behind(direct: Any, store: S3Store) -> tuple[list[str], list[str]]:
    """(objects, unfinished multipart uploads) under the store's prefix, on the server."""
    objects = direct.list_objects_v2(Bucket=store.bucket).get("Contents", [])
    uploads = direct.list_multipart_uploads(Bucket=store.bucket).get("Uploads", [])
    return [o["Key"] for o in objects], [u["Key"] for u in uploads]


def test_a_refused_part_is_a_clear_error_not_retried_and_the_upload_is_aborted(
    store: S3Store, proxy: FaultyS3, direct: Any
) -> None:
    proxy.faults.append(Fault("UploadPart", 403, "AccessDenied", skip=1))
    with pytest.raises(StorageError) as raised:
        write(store, "datasets/1/log", DATA)
    message = str(raised.value)
    assert f"s3://{store.bucket}/headroom/datasets/1/log" in message
    assert "AccessDenied" in message
    assert proxy.seen["UploadPart"] == 2  # the first part, then the refused one: once
    assert proxy.seen["AbortMultipartUpload"] == 1
    assert left_behind(direct, store) == ([], [])


def test_a_store_failing_for_a_moment_is_retried_and_the_object_is_whole(
    store: S3Store, proxy: FaultyS3, direct: Any
) -> None:
    proxy.faults.append(Fault("UploadPart", 500, "InternalError", times=2, skip=1))
    write(store, "datasets/2/log", DATA)
    assert proxy.seen["UploadPart"] == 3 + 2
    assert store.read_range("datasets/2/log", 0, len(DATA)) == DATA
    assert left_behind(direct, store) == (["headroom/datasets/2/log"], [])


def test_a_store_that_keeps_failing_is_transient_and_leaves_nothing(
    store: S3Store, proxy: FaultyS3, direct: Any
) -> None:
    proxy.faults.append(Fault("UploadPart", 503, "SlowDown", skip=1))
    with pytest.raises(StoreUnavailable) as raised:
        write(store, "datasets/3/log", DATA)
    assert isinstance(raised.value, ConnectionError)  # what the job runner retries
    assert f"s3://{store.bucket}/headroom/datasets/3/log" in str(raised.value)
    assert proxy.seen["UploadPart"] == 1 + storage_s3.MAX_ATTEMPTS, proxy.seen
    assert left_behind(direct, store) == ([], [])


def test_a_store_that_does_not_answer_once_is_retried(
    store: S3Store, proxy: FaultyS3, direct: Any
) -> None:
    proxy.faults.append(Fault("PutObject", 0, times=1, hang_s=2.0))
    write(store, "small", b"x" * 1000)
    assert proxy.seen["PutObject"] == 2
    assert store.read_range("small", 0, 2000) == b"x" * 1000


def test_a_store_that_never_answers_times_out_as_transient(
    store: S3Store, proxy: FaultyS3, direct: Any
) -> None:
    proxy.faults.append(Fault("CompleteMultipartUpload", 0, hang_s=2.0))
    with pytest.raises(StoreUnavailable) as raised:
        write(store, "datasets/4/log", DATA)
    assert "did not take" in str(raised.value) and "datasets/4/log" in str(raised.value)
    assert proxy.seen["CompleteMultipartUpload"] == storage_s3.MAX_ATTEMPTS
    assert left_behind(direct, store) == ([], [])


def test_a_bucket_removed_under_a_running_store_is_a_clear_error(
    store: S3Store, direct: Any
) -> None:
    direct.delete_bucket(Bucket=store.bucket)
    with pytest.raises(StorageError, match=f"s3://{store.bucket}/headroom/gone.*NoSuchBucket"):
        write(store, "gone", b"data")
