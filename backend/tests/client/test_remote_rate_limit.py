"""The remote CLI under rate limiting: a request refused with 429 is sent again after the
server's Retry-After, a bounded number of times and total wait, saying so on stderr; checked
against a stub HTTP server on a real socket that answers from a script."""

import hashlib
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from headroom.cli import main
from headroom.client import remote


class Stub:
    """Answers each request with the next scripted (status, Retry-After) until one is left,
    which it repeats; records each request's method, path and body digest."""

    def __init__(self, script: list[tuple[int, str | None]]) -> None:
        self.script, self.seen = list(script), []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                stub.seen.append((self.command, self.path, hashlib.sha256(body).hexdigest()))
                status, after = stub.script.pop(0) if len(stub.script) > 1 else stub.script[0]
                payload = {"email": "a@example.com", "workspaces": []}
                if status == 429:
                    message = {"code": "rate_limited", "message": "too many requests"}
                    payload = {"error": message}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if after is not None:
                    self.send_header("Retry-After", after)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def stub_server() -> Iterator[list[Stub]]:
    started: list[Stub] = []
    yield started
    for stub in started:
        stub.server.shutdown()
        stub.server.server_close()


def start(started: list[Stub], script: list[tuple[int, str | None]]) -> Stub:
    stub = Stub(script)
    threading.Thread(target=stub.server.serve_forever, daemon=True).start()
    started.append(stub)
    return stub


def recording_client(stub: Stub, **bounds: float) -> tuple[httpx.Client, list[float], list[str]]:
    waits: list[float] = []
    said: list[str] = []
    transport = remote.RateLimitRetry(
        httpx.HTTPTransport(), sleep=waits.append, notify=said.append, **bounds
    )
    return httpx.Client(base_url=stub.url, transport=transport), waits, said


def test_a_429_is_retried_after_the_servers_retry_after(stub_server: list[Stub]) -> None:
    stub = start(stub_server, [(429, "3"), (429, "1"), (200, None)])
    http, waits, said = recording_client(stub)
    me = remote.checked(http.get("/api/v1/auth/me"))
    assert me["email"] == "a@example.com"
    assert waits == [3.0, 1.0] and len(stub.seen) == 3
    assert said[0] == (
        "rate limited by the server (HTTP 429) on GET /api/v1/auth/me; retrying in 3 s "
        "(attempt 2 of 5)"
    )


def test_a_resent_chunk_carries_the_same_bytes(stub_server: list[Stub]) -> None:
    stub = start(stub_server, [(429, "0"), (200, None)])
    http, waits, _ = recording_client(stub)
    chunk = bytes(range(256)) * 40
    http.put("/api/v1/uploads/u/chunks", content=chunk)
    digest = hashlib.sha256(chunk).hexdigest()
    assert [s[2] for s in stub.seen] == [digest, digest] and waits == [0.0]


def test_attempts_are_bounded_and_the_last_429_is_an_error(stub_server: list[Stub]) -> None:
    stub = start(stub_server, [(429, "2")])
    http, waits, said = recording_client(stub, attempts=4)
    with pytest.raises(remote.RemoteError) as raised:
        remote.checked(http.get("/api/v1/auth/me"))
    assert len(stub.seen) == 4 and waits == [2.0, 2.0, 2.0] and len(said) == 3
    assert str(raised.value) == (
        "too many requests (rate_limited); still rate limited after retrying: try again in 2 s"
    )


def test_a_wait_beyond_the_budget_is_not_slept(stub_server: list[Stub]) -> None:
    stub = start(stub_server, [(429, "50"), (429, "50"), (429, "50"), (200, None)])
    http, waits, _ = recording_client(stub, max_wait_s=120.0)
    response = http.get("/api/v1/auth/me")
    assert response.status_code == 429 and waits == [50.0, 50.0] and len(stub.seen) == 3


def test_retry_after_as_a_date_or_missing() -> None:
    now = datetime(2026, 11, 23, 12, 0, 0, tzinfo=UTC)
    assert remote.retry_after_s("Mon, 23 Nov 2026 12:00:07 GMT", 0, now) == 7.0
    assert remote.retry_after_s("Mon, 23 Nov 2026 11:00:00 GMT", 0, now) == 0.0
    assert [remote.retry_after_s(None, a) for a in (0, 1, 2, 9)] == [1.0, 2.0, 4.0, 30.0]
    assert remote.retry_after_s("soon", 1) == 2.0


def test_the_cli_retries_and_says_so_on_stderr(
    stub_server: list[Stub], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub = start(stub_server, [(429, "0"), (200, None)])
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["login", "--url", stub.url, "--token", "t"])
    assert result.exit_code == 0, result.output
    assert "rate limited by the server (HTTP 429) on GET /api/v1/auth/me" in result.stderr
    assert f"signed in to {stub.url} as a@example.com" in result.stdout
    assert len(stub.seen) == 2
