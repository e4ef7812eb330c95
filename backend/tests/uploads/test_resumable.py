"""Resumable uploads: chunks at offsets with checksums, resume after a drop, complete."""

import gzip
import hashlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from headroom.core.settings import Settings
from support.factories import member, signed_in


def start(client: TestClient, data: bytes, name: str = "access.log") -> dict:  # type: ignore[type-arg]
    response = client.post("/api/v1/uploads", json={"name": name, "size_bytes": len(data)})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def put(client: TestClient, upload_id: str, offset: int, chunk: bytes, checksum: str | None = None):  # type: ignore[no-untyped-def]
    headers = {
        "X-Chunk-SHA256": checksum or hashlib.sha256(chunk).hexdigest(),
        "Content-Type": "application/octet-stream",
    }
    return client.put(
        f"/api/v1/uploads/{upload_id}/chunks",
        params={"offset": offset},
        content=chunk,
        headers=headers,
    )


def send_all(
    client: TestClient, upload_id: str, data: bytes, chunk_bytes: int, start_at: int = 0
) -> None:
    for offset in range(start_at, len(data), chunk_bytes):
        response = put(client, upload_id, offset, data[offset : offset + chunk_bytes])
        assert response.status_code == 200, response.text
        assert response.json()["offset_bytes"] == min(offset + chunk_bytes, len(data))


def test_chunked_upload_gives_the_same_dataset_as_a_one_shot(
    settings: Settings, sample_log: Path
) -> None:
    client = signed_in(settings, member(settings, "up@example.com", "Shop"))
    data = sample_log.read_bytes()
    upload = start(client, data)
    send_all(client, upload["id"], data, 300_000)
    done = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert done.status_code == 202, done.text
    dataset = done.json()
    assert dataset["sha256"] == hashlib.sha256(data).hexdigest()
    assert dataset["size_bytes"] == len(data) and dataset["job"]["status"] == "queued"
    assert done.headers["location"] == f"/api/v1/datasets/{dataset['id']}"
    again = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert again.status_code == 200 and again.json()["id"] == dataset["id"]
    one_shot = client.post("/api/v1/datasets", content=data)
    assert one_shot.status_code == 200 and one_shot.json()["id"] == dataset["id"]


def test_a_dropped_connection_resumes_at_the_server_offset(
    settings: Settings, sample_log: Path
) -> None:
    client = signed_in(settings, member(settings, "drop@example.com", "Shop"))
    data = gzip.compress(sample_log.read_bytes())
    upload = start(client, data, "access.log.gz")
    half = len(data) // 2
    send_all(client, upload["id"], data[:half], 100_000)
    # the client lost track: it asks where to resume, a stale offset is refused with the truth
    stale = put(client, upload["id"], 0, data[:100_000])
    assert stale.status_code == 409
    assert stale.json()["error"]["detail"]["offset_bytes"] == half
    resume_at = client.get(f"/api/v1/uploads/{upload['id']}").json()["offset_bytes"]
    assert resume_at == half
    send_all(client, upload["id"], data, 100_000, start_at=resume_at)
    done = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert done.status_code == 202
    assert done.json()["sha256"] == hashlib.sha256(data).hexdigest()


def test_a_corrupted_chunk_is_refused_and_nothing_is_appended(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "bits@example.com", "Shop"))
    upload = start(client, b"x" * 1000)
    bad = put(client, upload["id"], 0, b"x" * 500, checksum="0" * 64)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "checksum_mismatch"
    assert client.get(f"/api/v1/uploads/{upload['id']}").json()["offset_bytes"] == 0


@pytest.mark.parametrize(
    "size, chunk, code", [(100, b"x" * 101, "too_many_bytes"), (100, b"", "empty_chunk")]
)
def test_chunks_past_the_end_or_empty_are_refused(
    settings: Settings, size: int, chunk: bytes, code: str
) -> None:
    client = signed_in(settings, member(settings, "end@example.com", "Shop"))
    upload = start(client, b"x" * size)
    response = put(client, upload["id"], 0, chunk)
    assert response.status_code == 422 and response.json()["error"]["code"] == code


def test_completing_early_or_a_non_log_is_refused(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "early@example.com", "Shop"))
    data = b"dear diary\n" * 100
    upload = start(client, data)
    send_all(client, upload["id"], data[:500], 500)
    early = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert early.status_code == 409
    send_all(client, upload["id"], data, 500, start_at=500)
    refused = client.post(f"/api/v1/uploads/{upload['id']}/complete")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "unparseable_log"
    assert client.get(f"/api/v1/uploads/{upload['id']}").status_code == 404
    assert [p for p in (settings.data_dir / "storage").rglob("*") if p.is_file()] == []


def test_uploads_are_private_to_their_owner(settings: Settings) -> None:
    owner = signed_in(settings, member(settings, "mine@example.com", "Shop"))
    other = signed_in(settings, member(settings, "yours@example.com", "Shop"))
    upload = start(owner, b"x" * 10)
    assert other.get(f"/api/v1/uploads/{upload['id']}").status_code == 404
    assert put(other, upload["id"], 0, b"x" * 10).status_code == 404
    assert other.delete(f"/api/v1/uploads/{upload['id']}").status_code == 404
    assert owner.delete(f"/api/v1/uploads/{upload['id']}").status_code == 204


def test_declared_size_over_the_limit_is_413(settings: Settings) -> None:
    small = settings.model_copy(update={"max_upload_bytes": 1000})
    client = signed_in(small, member(small, "big@example.com", "Shop"))
    response = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": 1001})
    assert response.status_code == 413
