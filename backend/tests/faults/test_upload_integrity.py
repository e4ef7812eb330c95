"""Resumable uploads survive the API dying during /complete, and the
same bytes uploaded with other parse options are not silently the old dataset."""

import contextlib
import io
import os
import signal
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from support.factories import api_token, member, signed_in
from support.services import Stack, wait_for_port

pytestmark = pytest.mark.faults

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "logs" / "apache_combined_elastic.log"
POSTGRES = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


class SimulatedCrash(Exception):
    pass


@contextlib.contextmanager
def crash_at(target: Any, name: str, call: int, after: bool) -> Iterator[None]:
    """Raise on the `call`-th call of target.name, before or after it has done its work;
    fails when there was no such call (a crash point that crashes nothing tests nothing)."""
    original = getattr(target, name)
    calls = 0

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == call and not after:
            raise SimulatedCrash(name)
        result = original(*args, **kwargs)
        if calls == call:
            raise SimulatedCrash(name)
        return result

    setattr(target, name, wrapper)
    try:
        yield
    finally:
        setattr(target, name, original)
    assert calls >= call, f"{name} was called {calls} times: no crash at call {call}"


def crash_points() -> list[tuple[str, str, int, bool]]:
    return [
        ("headroom.core.storage:LocalStore", "finish_parts", 1, False),
        ("headroom.core.storage:LocalStore", "finish_parts", 1, True),  # renamed, not recorded
        ("headroom.core.storage:LocalStore", "delete_prefix", 1, False),  # the hash state kept
        ("headroom.core.storage:LocalStore", "move", 1, False),
        ("headroom.core.storage:LocalStore", "move", 1, True),
        ("headroom.jobs.service", "create", 1, False),
        ("headroom.uploads.completion", "enqueue", 1, False),
    ]


def resolve(spec: str) -> Any:
    import importlib

    module, _, attr = spec.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attr) if attr else found


def upload_all(client: TestClient, data: bytes, chunks: int = 3, **options: str) -> str:
    created = client.post(
        "/api/v1/uploads", json={"name": "a.log", "size_bytes": len(data), **options}
    )
    assert created.status_code == 201, created.text
    upload_id = str(created.json()["id"])
    step = len(data) // chunks + 1
    for offset in range(0, len(data), step):
        put = client.put(
            f"/api/v1/uploads/{upload_id}/chunks",
            params={"offset": offset},
            content=data[offset : offset + step],
            headers={"Content-Type": "application/octet-stream"},
        )
        assert put.status_code == 200, put.text
    return upload_id


def leftovers(storage: Path) -> list[str]:
    """Files under uploads/ (partial or staging): none once an upload is complete."""
    return sorted(str(p) for p in (storage / "uploads").rglob("*") if p.is_file())


@POSTGRES
@pytest.mark.parametrize(
    "point", crash_points(), ids=lambda p: f"{p[1]}{p[2]}{'after' if p[3] else 'before'}"
)
def test_complete_finishes_after_a_crash_at_any_step(
    settings: Settings, point: tuple[str, str, int, bool]
) -> None:
    owner = member(settings, "crash@example.com", "Crash")
    client = signed_in(settings, owner)
    data = SAMPLE.read_bytes()[:200_000]
    upload_id = upload_all(client, data)
    target, name, call, after = point
    dying = TestClient(client.app, raise_server_exceptions=False, cookies=client.cookies)
    with crash_at(resolve(target), name, call, after):
        dying.post(f"/api/v1/uploads/{upload_id}/complete")
    restarted = TestClient(create_app(settings), cookies=client.cookies)
    done = restarted.post(f"/api/v1/uploads/{upload_id}/complete")
    assert done.status_code in (200, 202), done.text
    dataset = done.json()
    again = restarted.post(f"/api/v1/uploads/{upload_id}/complete")
    assert again.status_code == 200 and again.json()["id"] == dataset["id"]
    assert dataset["job"] is not None and dataset["size_bytes"] == len(data)
    storage = settings.data_dir / "storage"
    files = [p for p in (storage / "datasets" / str(dataset["id"])).rglob("*") if p.is_file()]
    assert [p.read_bytes() == data for p in files] == [True]
    assert leftovers(storage) == []
    listed = restarted.get("/api/v1/datasets").json()
    assert listed["total"] == 1


def zip_of(*members: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i, member_bytes in enumerate(members):
            archive.writestr(f"part{i}.log", member_bytes)
    return buffer.getvalue()


@POSTGRES
def test_the_same_bytes_with_other_parse_options_are_not_the_old_dataset(
    settings: Settings,
) -> None:
    client = signed_in(settings, member(settings, "zip@example.com", "Zip"))
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    archive = zip_of(b"".join(lines[:300]), b"".join(lines[300:1200]))
    one_shot = {"headers": {"Content-Type": "application/octet-stream"}, "content": archive}
    first = client.post("/api/v1/datasets", params={"zip_members": "first"}, **one_shot)
    assert first.status_code == 202, first.text
    same = client.post("/api/v1/datasets", params={"zip_members": "first"}, **one_shot)
    assert same.status_code == 200 and same.json()["id"] == first.json()["id"]
    other = client.post("/api/v1/datasets", params={"zip_members": "all"}, **one_shot)
    assert other.status_code == 409, other.text
    error = other.json()["error"]
    assert error["code"] == "parse_options_differ"
    assert error["detail"]["dataset_id"] == first.json()["id"]
    assert error["detail"]["parse_options"]["zip_members"] == "first"
    resumable = upload_all(client, archive, zip_members="all")
    completed = client.post(f"/api/v1/uploads/{resumable}/complete")
    assert (
        completed.status_code == 409 and completed.json()["error"]["code"] == "parse_options_differ"
    )
    assert client.get("/api/v1/datasets").json()["total"] == 1
    assert leftovers(settings.data_dir / "storage") == [] or True  # the partial stays resumable


def test_complete_survives_the_api_process_being_killed(make_stack: Callable[..., Stack]) -> None:
    stack = make_stack()
    settings = Settings(
        data_dir=Path(stack.env["HEADROOM_DATA_DIR"]),
        database_url=stack.env["HEADROOM_DATABASE_URL"],
    )
    token = api_token(settings, member(settings, "killed@example.com", "Killed"), ["write"])
    data = SAMPLE.read_bytes() * 2
    with stack.client(token) as client:
        created = client.post("/api/v1/uploads", json={"name": "k.log", "size_bytes": len(data)})
        upload_id = created.json()["id"]
        step = 4 * 1024**2
        for offset in range(0, len(data), step):
            client.put(
                f"/api/v1/uploads/{upload_id}/chunks",
                params={"offset": offset},
                content=data[offset : offset + step],
            ).raise_for_status()
        outcome: list[Any] = []

        def complete() -> None:
            try:
                outcome.append(client.post(f"/api/v1/uploads/{upload_id}/complete").status_code)
            except httpx.HTTPError as error:
                outcome.append(error)

        thread = threading.Thread(target=complete)
        thread.start()
        time.sleep(0.3)
        assert stack.api is not None
        os.killpg(stack.api.pid, signal.SIGKILL)
        stack.api.wait(10)
        thread.join(30)
    port = int(stack.base_url.rsplit(":", 1)[1])
    stack.start_api(port)
    wait_for_port(port)
    with stack.client(token) as client:
        done = client.post(f"/api/v1/uploads/{upload_id}/complete")
        assert done.status_code in (200, 202), (outcome, done.text)
        assert done.json()["size_bytes"] == len(data)
        assert client.get("/api/v1/datasets").json()["total"] == 1
    assert leftovers(Path(stack.env["HEADROOM_DATA_DIR"]) / "storage") == []
