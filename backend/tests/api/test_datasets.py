"""Uploads: streaming, dedupe, refusals that store nothing, and workspace isolation."""

import gzip
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in


def stored_files(settings: Settings) -> list[Path]:
    root = settings.data_dir / "storage"
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def upload(client: TestClient, data: bytes, name: str = "access.log", **params: object):  # type: ignore[no-untyped-def]
    return client.post(
        "/api/v1/datasets",
        params={"name": name, **params},
        content=data,
        headers={"Content-Type": "application/octet-stream"},
    )


def test_upload_creates_a_dataset_with_a_queued_job_and_dedupes(
    settings: Settings, sample_log: Path
) -> None:
    client = signed_in(settings, member(settings, "a@example.com", "Shop"))
    first = upload(client, sample_log.read_bytes())
    assert first.status_code == 202, first.text
    body = first.json()
    assert body["status"] == "uploaded" and body["format"] == "combined"
    assert body["size_bytes"] == sample_log.stat().st_size
    assert body["job"]["status"] == "queued" and body["job"]["kind"] == "logs.ingest"
    assert first.headers["location"] == f"/api/v1/datasets/{body['id']}"
    again = upload(client, sample_log.read_bytes(), name="other-name.log")
    assert again.status_code == 200 and "location" not in again.headers
    assert again.json()["id"] == body["id"]
    assert client.get("/api/v1/datasets").json()["total"] == 1


def test_multipart_upload_of_a_gzip_file(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "b@example.com", "Shop"))
    packed = gzip.compress(sample_log.read_bytes())
    response = client.post("/api/v1/datasets", files={"file": ("logs/access.log.gz", packed)})
    assert response.status_code == 202, response.text
    assert response.json()["name"] == "access.log.gz"
    assert response.json()["size_bytes"] == len(packed)


@pytest.mark.parametrize(
    "data, code",
    [
        (b"", "empty_file"),
        (b"this is not a log\nnor is this\n" * 50, "unparseable_log"),
        (bytes(range(256)) * 40, "unparseable_log"),
    ],
)
def test_refused_files_leave_nothing_behind(settings: Settings, data: bytes, code: str) -> None:
    client = signed_in(settings, member(settings, "c@example.com", "Shop"))
    response = upload(client, data)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == code and error["field"] == "file"
    if code == "unparseable_log":
        assert error["detail"]["line_number"] >= 1
        assert "line" in error["detail"]
    assert client.get("/api/v1/datasets").json()["total"] == 0
    assert stored_files(settings) == []


def test_too_large_is_413_and_stores_nothing(settings: Settings, sample_log: Path) -> None:
    small = settings.model_copy(update={"max_upload_bytes": 100_000})
    client = signed_in(small, member(small, "d@example.com", "Shop"))
    response = client.post("/api/v1/datasets", content=_chunks(sample_log.read_bytes()))
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "file_too_large"
    assert stored_files(small) == []


def _chunks(data: bytes):  # type: ignore[no-untyped-def]
    """A body without Content-Length, so the limit is enforced while streaming."""
    for start in range(0, len(data), 65536):
        yield data[start : start + 65536]


def test_file_names_are_sanitised(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "e@example.com", "Shop"))
    response = upload(client, sample_log.read_bytes(), name="../../etc/pass<wd>;rm -rf.log")
    assert response.status_code == 202
    name = response.json()["name"]
    assert "/" not in name and ".." not in name and "<" not in name and ";" not in name


def test_another_workspace_is_invisible(settings: Settings, sample_log: Path) -> None:
    owner = signed_in(settings, member(settings, "f@example.com", "Mine"))
    stranger = signed_in(settings, member(settings, "g@example.com", "Theirs"))
    created = upload(owner, sample_log.read_bytes()).json()
    dataset_id, job_id = created["id"], created["job"]["id"]
    for path in (
        f"/api/v1/datasets/{dataset_id}",
        f"/api/v1/datasets/{dataset_id}/summary",
        f"/api/v1/jobs/{job_id}",
    ):
        response = stranger.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"
    assert stranger.delete(f"/api/v1/datasets/{dataset_id}").status_code == 404
    assert stranger.get("/api/v1/datasets").json()["total"] == 0
    owner_ws = created["workspace_id"]
    assert upload(stranger, b"x", workspace_id=owner_ws).status_code == 404


def test_viewer_reads_but_cannot_upload_or_delete(settings: Settings, sample_log: Path) -> None:
    editor = signed_in(settings, member(settings, "h@example.com", "Shop", Role.editor))
    viewer = signed_in(settings, member(settings, "i@example.com", "Shop", Role.viewer))
    created = upload(editor, sample_log.read_bytes()).json()
    assert viewer.get(f"/api/v1/datasets/{created['id']}").status_code == 200
    assert upload(viewer, sample_log.read_bytes()[:4000]).status_code == 403
    assert viewer.delete(f"/api/v1/datasets/{created['id']}").status_code == 403
    assert editor.delete(f"/api/v1/datasets/{created['id']}").status_code == 204
    assert editor.get(f"/api/v1/datasets/{created['id']}").status_code == 404


def test_summary_is_not_ready_until_the_job_succeeds(settings: Settings, sample_log: Path) -> None:
    client = signed_in(settings, member(settings, "j@example.com", "Shop"))
    created = upload(client, sample_log.read_bytes()).json()
    pending = client.get(f"/api/v1/datasets/{created['id']}/summary")
    assert pending.status_code == 404 and pending.json()["error"]["code"] == "not_ready"
    assert run_job(settings, created["job"]["id"], ingest_body)
    summary = client.get(f"/api/v1/datasets/{created['id']}/summary")
    assert summary.status_code == 200
    job = client.get(f"/api/v1/jobs/{created['job']['id']}").json()
    assert job["status"] == "succeeded" and job["progress"] == 1.0 and job["attempts"] == 1
    assert client.get(f"/api/v1/datasets/{created['id']}").json()["status"] == "ready"


def test_multipart_without_a_file_field_is_refused(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "n@example.com", "Shop"))
    response = client.post(
        "/api/v1/datasets", data={"note": "hello"}, files={"other": ("a.log", b"x")}
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "file"
    assert stored_files(settings) == []


def test_multipart_with_extra_fields_takes_the_file_part(
    settings: Settings, sample_log: Path
) -> None:
    client = signed_in(settings, member(settings, "o@example.com", "Shop"))
    response = client.post(
        "/api/v1/datasets",
        data={"comment": "nightly"},
        files={"file": ("nightly.log", sample_log.read_bytes())},
    )
    assert response.status_code == 202, response.text
    assert response.json()["size_bytes"] == sample_log.stat().st_size
    assert response.json()["name"] == "nightly.log"


def test_an_iis_log_with_a_long_w3c_format_name_uploads_and_ingests(settings: Settings) -> None:
    """W3C format names carry the whole #Fields line, longer than 100 characters."""
    log = Path(__file__).resolve().parents[3] / "data" / "logs" / "lnav_iis_w3c_time-taken.log"
    client = signed_in(settings, member(settings, "w3c@example.com", "Shop"))
    response = upload(client, log.read_bytes(), name="iis.log")
    assert response.status_code == 202, response.text
    assert response.json()["format"].startswith("w3c") and len(response.json()["format"]) > 100
    run_job(settings, response.json()["job"]["id"], ingest_body)
    assert client.get(f"/api/v1/datasets/{response.json()['id']}").json()["status"] == "ready"
