"""Slow uploads must not take the API down: uploads trickling a line at
a time hold no database connection, every other request still answers, each credential runs
a bounded number of uploads at once (429 + Retry-After), and a body that stops arriving is
refused (408) leaving no file behind. Against a real API on PostgreSQL with a pool of two
connections."""

import select
import socket
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sqlalchemy import create_engine, text

from headroom.core.settings import Settings
from support.factories import api_token, member
from support.services import Stack

pytestmark = pytest.mark.faults

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "logs" / "apache_combined_elastic.log"
POOL = {"db_pool_size": "2", "db_max_overflow": "0", "db_pool_timeout_s": "2"}
UPLOADS_PER_CREDENTIAL = 4
TRICKLING = 6


def lines(index: int) -> list[bytes]:
    """Ten log lines, different for every upload (different bytes: different datasets)."""
    all_lines = SAMPLE.read_bytes().splitlines(keepends=True)
    return all_lines[index * 10 : index * 10 + 10]


def open_upload(stack: Stack, token: str, body_bytes: int, name: str) -> socket.socket:
    """A raw HTTP/1.1 upload whose headers are sent and whose body is not (yet)."""
    netloc = urlsplit(stack.base_url)
    sock = socket.create_connection((netloc.hostname, netloc.port), timeout=30)
    head = (
        f"POST /api/v1/datasets?name={name} HTTP/1.1\r\nHost: {netloc.netloc}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/octet-stream\r\n"
        f"Content-Length: {body_bytes}\r\n\r\n"
    )
    sock.sendall(head.encode())
    return sock


def answered(sock: socket.socket, wait_s: float) -> bool:
    return bool(select.select([sock], [], [], wait_s)[0])


def over_the_limit(socks: list[socket.socket], expected: int) -> list[int]:
    """The uploads answered before their bodies were sent (waits for `expected` of them,
    then a moment for any more)."""
    ready: list[socket.socket] = []
    for _ in range(30):
        ready = select.select(socks, [], [], 0.2)[0]
        if len(ready) >= expected:
            break
    time.sleep(0.3)
    ready = select.select(socks, [], [], 0)[0]
    return [i for i, sock in enumerate(socks) if sock in ready]


def status_and_headers(sock: socket.socket) -> tuple[int, str]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    return int(head.split(" ", 2)[1]), head.lower()


def connections_in_transaction(database_url: str) -> int:
    """The API's connections that sit in an open transaction (held by a request)."""
    engine = create_engine(database_url)
    name = database_url.rsplit("/", 1)[1]
    with engine.connect() as connection:
        count = connection.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = :name "
                "AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()"
            ),
            {"name": name},
        ).scalar_one()
    engine.dispose()
    return int(count)


def quick_token(stack: Stack, email: str, workspace: str) -> str:
    """A user, workspace and write token made in this process (no CLI start-up)."""
    settings = Settings(
        data_dir=Path(stack.env["HEADROOM_DATA_DIR"]),
        database_url=stack.env["HEADROOM_DATABASE_URL"],
    )
    return api_token(settings, member(settings, email, workspace), ["write"])


def test_trickling_uploads_hold_no_connection_and_others_still_answer(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(
        **POOL, uploads_per_credential=str(UPLOADS_PER_CREDENTIAL), upload_read_timeout_s="6"
    )
    uploader = quick_token(stack, "slow@example.com", "Slow")
    reader = quick_token(stack, "reader@example.com", "Reader")
    bodies = [lines(i) for i in range(TRICKLING)]
    socks = [
        open_upload(stack, uploader, sum(map(len, body)), f"slow{i}.log")
        for i, body in enumerate(bodies)
    ]
    for sock, body in zip(socks, bodies, strict=True):
        sock.sendall(body[0])
    refused = over_the_limit(socks, TRICKLING - UPLOADS_PER_CREDENTIAL)
    assert len(refused) == TRICKLING - UPLOADS_PER_CREDENTIAL  # over the limit: answered now
    for i in refused:
        status, head = status_and_headers(socks[i])
        assert status == 429 and "retry-after:" in head
    trickling = [i for i in range(TRICKLING) if i not in refused]
    held = []
    with stack.client(reader) as others:
        for line_no in range(1, 6):  # a line per upload, then the other users' requests
            for i in trickling:
                socks[i].sendall(bodies[i][line_no])
            held.append(connections_in_transaction(stack.env["HEADROOM_DATABASE_URL"]))
            assert others.get("/api/v1/datasets").status_code == 200
            assert others.get("/api/v1/workspaces").status_code == 200
            time.sleep(0.3)
    assert held == [0] * len(held)  # no request holds a connection while it waits
    for i in trickling:
        socks[i].sendall(b"".join(bodies[i][6:]))
    assert [status_and_headers(socks[i])[0] for i in trickling] == [202] * len(trickling)
    for sock in socks:
        sock.close()
    an_upload_that_stops_sending_is_refused_and_leaves_nothing(stack)


def an_upload_that_stops_sending_is_refused_and_leaves_nothing(stack: Stack) -> None:
    token = quick_token(stack, "stall@example.com", "Stall")
    body = lines(10)
    sock = open_upload(stack, token, sum(map(len, body)), "stalled.log")
    sock.sendall(body[0])  # and nothing more
    assert answered(sock, 20.0)
    status, _ = status_and_headers(sock)
    sock.close()
    assert status == 408
    with stack.client(token) as client:
        assert client.get("/api/v1/datasets").json()["total"] == 0
    storage = Path(stack.env["HEADROOM_DATA_DIR"]) / "storage" / "uploads"
    assert not [p for p in storage.rglob("*") if p.is_file()]
