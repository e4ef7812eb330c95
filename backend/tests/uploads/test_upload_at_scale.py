"""A 30 GB upload: within the default limit, a clear refusal beyond it, an expiry that
follows the last chunk, a completion the client waits for in proportion to the size,
memory that does not grow with the file (a few hundred MB streamed through the real path),
and a second completion, sent while the first still joins the chunks, told to wait."""

import hashlib
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import BinaryIO

import pytest

from headroom.client.remote import complete_timeout
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import LocalStore
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


def test_the_client_waits_for_a_30_gb_completion_as_long_as_the_server_reads_it() -> None:
    # the completion reads 30 GB and writes them once more: 10 min on a 100 MB/s disk
    large, small = complete_timeout(GB30), complete_timeout(1000)
    assert large.read is not None and large.read >= 2 * GB30 / 100e6
    assert small.read is not None and small.read <= 121 and large.connect == 120


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


def test_a_second_completion_while_the_first_joins_is_told_to_wait(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    data = b"a line\n" * 3000
    upload = Upload(id="u1", size_bytes=len(data), offset_bytes=len(data), storage_key="up/u1")
    for offset in range(0, len(data), 7000):
        with store.writer(service.chunk_key("u1", offset)) as chunk:
            chunk.write(data[offset : offset + 7000])
    opened: list[str] = []
    plain_open = store.open

    def open_racing(key: str) -> BinaryIO:
        opened.append(key)
        if len(opened) == 2:  # the other request joins everything while this one is at it
            store.open = plain_open  # type: ignore[method-assign]
            first = service.staged_from(store, upload)
            assert first.sha256 == hashlib.sha256(data).hexdigest()
        return plain_open(key)

    store.open = open_racing  # type: ignore[method-assign]
    with pytest.raises(service.CompletionUnderWay):
        service.staged_from(store, upload)
    with store.open("up/u1") as whole:
        assert whole.read() == data  # the first completion's file, whole
    assert store.list("uploads") == [] and store.list("up") == ["up/u1"]  # nothing half-written
