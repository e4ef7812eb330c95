"""A 30 GB upload: within the default limit, a clear refusal beyond it, an expiry that
follows the last chunk, memory that does not grow with the file (a hundred MB streamed
through the real path), a completion that reads none of the file back and keeps one copy of
it in storage, and a second completion that finds the work done."""

import hashlib
import os
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import BinaryIO

import pytest

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import LocalStore, ObjectStore, open_store
from headroom.uploads import service
from headroom.uploads.models import Upload
from support.factories import member, signed_in

GB30 = 30 * 10**9


def test_a_30_gb_file_is_within_the_default_limit_and_a_larger_one_is_told_both_sizes(
    settings: Settings,
) -> None:
    assert Settings().max_upload_bytes >= GB30
    client = signed_in(settings, member(settings, "big@example.com", "Shop"))
    started = client.post("/api/v1/uploads", json={"name": "week.log", "size_bytes": GB30})
    assert started.status_code == 201, started.text
    assert started.json()["size_bytes"] == GB30
    too_big = settings.max_upload_bytes + 1
    refused = client.post("/api/v1/uploads", json={"name": "year.log", "size_bytes": too_big})
    assert refused.status_code == 413
    error = refused.json()["error"]
    assert f"{too_big:,} bytes" in error["message"]
    assert f"{settings.max_upload_bytes / 1e9:.1f} GB" in error["message"]
    assert error["detail"] == {"max_bytes": settings.max_upload_bytes, "size_bytes": too_big}


def test_each_chunk_keeps_the_upload_alive_for_another_day(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "slow@example.com", "Shop"))
    upload = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": 20}).json()
    with session_scope(settings.resolved_database_url()) as session:
        row = session.get_one(Upload, upload["id"])
        row.expires_at = datetime.now(UTC) + timedelta(minutes=1)  # 23 h 59 of sending so far
    sent = client.put(
        f"/api/v1/uploads/{upload['id']}/chunks",
        params={"offset": 0},
        content=b"x" * 10,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert sent.status_code == 200, sent.text
    expires_at = datetime.fromisoformat(sent.json()["expires_at"])
    assert expires_at >= datetime.now(UTC) + timedelta(hours=23, minutes=59)


def test_memory_of_a_resumable_upload_does_not_grow_with_the_file(
    settings: Settings, sample_log: Path
) -> None:
    if "sqlite" not in settings.resolved_database_url():
        return  # the path under test is the same on PostgreSQL: once is enough
    client = signed_in(settings, member(settings, "mem@example.com", "Shop"))
    chunk_bytes, chunks = 8 * 1024**2, 16  # 128 MiB in all
    lines = sample_log.read_bytes().splitlines(keepends=True)
    block = b"".join(lines * (chunk_bytes // sum(map(len, lines)) + 1))[:chunk_bytes]
    expected = hashlib.sha256()
    for _ in range(chunks):
        expected.update(block)
    size = chunk_bytes * chunks
    upload = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": size}).json()
    tracemalloc.start()
    try:
        for index in range(chunks):
            sent = client.put(
                f"/api/v1/uploads/{upload['id']}/chunks",
                params={"offset": index * chunk_bytes},
                content=block,
                headers={"Content-Type": "application/octet-stream"},
            )
            assert sent.status_code == 200, sent.text
        done = client.post(f"/api/v1/uploads/{upload['id']}/complete")
        peak_bytes = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.status_code == 202, done.text
    assert done.json()["sha256"] == expected.hexdigest() and done.json()["size_bytes"] == size
    assert peak_bytes < 4 * chunk_bytes <= size / 4, f"{peak_bytes:,} bytes at the peak"


class CountingStore(LocalStore):
    """Counts the bytes read back from the store."""

    read_bytes = 0

    def open(self, key: str) -> BinaryIO:
        handle = super().open(key)
        self.read_bytes += os.fstat(handle.fileno()).st_size
        return handle

    def read_range(self, key: str, start: int, end: int) -> bytes:
        data = super().read_range(key, start, end)
        self.read_bytes += len(data)
        return data


def stored_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def uploaded(store: ObjectStore, data: bytes, chunk_bytes: int, upload_id: str = "u1") -> Upload:
    upload = Upload(
        id=upload_id, size_bytes=len(data), offset_bytes=0, storage_key=f"up/{upload_id}"
    )
    for offset in range(0, len(data), chunk_bytes):
        service.write_chunk(store, upload, offset, data[offset : offset + chunk_bytes])
        upload.offset_bytes = offset + len(data[offset : offset + chunk_bytes])
    return upload


def test_completion_reads_no_chunk_back_and_keeps_one_copy_on_disk(tmp_path: Path) -> None:
    store = CountingStore(tmp_path)
    data = os.urandom(3 * 1024**2 + 12_345)
    upload = uploaded(store, data, 1024**2)
    before_bytes = stored_bytes(tmp_path)
    store.read_bytes = 0
    staged = service.staged_from(store, upload)
    # the hash state: two records of an offset and a SHA-256 context, nothing of the file
    assert store.read_bytes <= 2 * (8 + 112), store.read_bytes
    assert staged.sha256 == hashlib.sha256(data).hexdigest()
    assert len(data) < before_bytes <= len(data) + 1000  # the file once, and its hash state
    assert stored_bytes(tmp_path) == before_bytes
    with store.open("up/u1") as whole:
        assert whole.read() == data


def test_a_chunk_written_again_after_a_lost_answer_is_not_counted_twice(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    data = b"a line\n" * 3000
    upload = uploaded(store, data[:14_000], 7000)
    upload.size_bytes = len(data)
    service.write_chunk(store, upload, 14_000, data[14_000:20_000])  # its answer lost
    service.write_chunk(store, upload, 14_000, data[14_000:])  # sent again, longer
    upload.offset_bytes = len(data)
    staged = service.staged_from(store, upload)
    assert staged.sha256 == hashlib.sha256(data).hexdigest()
    with store.open("up/u1") as whole:
        assert whole.read() == data


def test_a_second_completion_finds_the_file_finished_or_is_told_to_wait(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    data = b"a line\n" * 3000
    upload = uploaded(store, data, 7000)
    first = service.staged_from(store, upload)
    second = service.staged_from(store, upload)  # the first one's client gave up and asked again
    assert first == second and second.sha256 == hashlib.sha256(data).hexdigest()
    store.move("up/u1", "datasets/1/upload")  # the first one has placed the file
    with pytest.raises(service.CompletionUnderWay):
        service.staged_from(store, upload)
    with store.open("datasets/1/upload") as whole:
        assert whole.read() == data


def test_missing_bytes_lose_the_upload_rather_than_complete_it(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    data = b"a line\n" * 3000
    upload = uploaded(store, data, 7000)
    os.truncate(tmp_path / ".parts" / "up" / "u1", 10_000)
    with pytest.raises(service.UploadLost):
        service.staged_from(store, upload)
    assert not store.exists("up/u1")


def test_on_s3_the_completion_reads_only_the_hash_state(
    s3_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(s3_url)
    part_bytes = 5 * 1024**2
    data = os.urandom(2 * part_bytes + 999)
    upload = uploaded(store, data, part_bytes, "s1")
    opened: list[str] = []
    plain_open = store.open

    def open_counted(key: str) -> BinaryIO:
        opened.append(key)
        return plain_open(key)

    monkeypatch.setattr(store, "open", open_counted)
    monkeypatch.setattr(store, "read_range", lambda *args: pytest.fail("a ranged read"))
    staged = service.staged_from(store, upload)
    assert opened == [service.sha256_key("s1")]
    assert staged.sha256 == hashlib.sha256(data).hexdigest()
    monkeypatch.undo()
    with store.open("up/s1") as whole:
        assert whole.read() == data


def test_an_expired_upload_leaves_no_part_behind_on_s3(s3_url: str) -> None:
    store = open_store(s3_url)
    data = os.urandom(5 * 1024**2 + 10)
    upload = uploaded(store, data[: 5 * 1024**2], 5 * 1024**2, "gone")
    service.discard(store, upload)  # what the expiry sweep and DELETE /uploads/<id> do
    with pytest.raises(FileNotFoundError):  # no multipart upload left to finish
        store.finish_parts(upload.storage_key, len(data))
    assert store.list("uploads") == [] and store.list("up") == []
