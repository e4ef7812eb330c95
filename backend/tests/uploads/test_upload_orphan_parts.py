"""The parts of a resumable upload whose row is gone (its workspace deleted: the row goes
by cascade, its stored parts do not) are aborted by the janitor once older than the grace
period; the parts of an upload under way stay. On a local store and on S3 (multipart
uploads)."""

import time
from pathlib import Path

import pytest
from sqlalchemy import delete

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.jobs import janitor
from headroom.uploads.models import Upload
from headroom.workspaces.models import Workspace
from support.factories import member, signed_in

BODY = b'10.0.0.1 - - [01/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "curl/8"\n'


@pytest.fixture(params=["file", "s3"])
def any_store_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    if request.param == "file":
        return settings
    return settings.model_copy(update={"storage_url": request.getfixturevalue("s3_url")})


def upload_under_way(settings: Settings, email: str, workspace: str) -> str:
    """An upload whose one chunk is sent, not yet completed: the storage key of its parts
    (one chunk: S3 takes a part under 5 MiB only as the last)."""
    client = signed_in(settings, member(settings, email, workspace))
    created = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": len(BODY)})
    assert created.status_code == 201, created.text
    upload = created.json()
    chunk = client.put(
        f"/api/v1/uploads/{upload['id']}/chunks",
        params={"offset": 0},
        content=BODY,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert chunk.status_code == 200, chunk.text
    return f"uploads/partial/{upload['id']}"


def test_the_janitor_aborts_the_parts_of_uploads_whose_row_is_gone(
    any_store_settings: Settings,
) -> None:
    settings = any_store_settings
    kept = upload_under_way(settings, "kept@example.com", "Kept")
    orphan = upload_under_way(settings, "gone@example.com", "Gone")
    with session_scope(settings.resolved_database_url()) as session:
        session.execute(delete(Workspace).where(Workspace.name == "Gone"))
    with session_scope(settings.resolved_database_url()) as session:
        assert session.query(Upload).count() == 1  # the orphan's row went by cascade
    store = open_store(settings.resolved_storage_url())
    assert store.parts_keys("uploads", time.time()) == tuple(sorted([kept, orphan]))

    if not settings.storage_url:  # the test S3 server dates every multipart upload in 2010
        young = janitor.sweep(settings, grace_s=600.0)
        assert young.aborted_parts_keys == ()  # written within the grace period: kept
    done = janitor.sweep(settings, grace_s=0.0)
    assert done.aborted_parts_keys == (orphan,)
    assert store.parts_keys("uploads", time.time()) == (kept,)
    with pytest.raises(FileNotFoundError):
        store.finish_parts(orphan, len(BODY))


def test_local_parts_keys_are_those_last_written_before_the_time(tmp_path: Path) -> None:
    store = open_store(f"file://{tmp_path}")
    store.write_part("uploads/partial/a", 0, b"x", 2)
    store.write_part("uploads/partial/b", 0, b"y", 2)
    store.write_part("elsewhere/c", 0, b"z", 2)
    written = (tmp_path / ".parts" / "uploads" / "partial" / "a").stat().st_mtime
    assert store.parts_keys("uploads", written - 1) == ()
    assert store.parts_keys("uploads", time.time()) == ("uploads/partial/a", "uploads/partial/b")
    assert store.parts_keys("nothing", time.time()) == ()
