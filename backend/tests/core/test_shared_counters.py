"""Several API processes share their counters through Redis (the broker's, by default): the
rate limits, the login throttle and the uploads each credential may run at once hold over
all of them, not per process. Two real API processes on one PostgreSQL and one Redis; and
`headroom serve --workers`."""

import asyncio
import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from headroom.auth.throttle import ADDRESS_BUDGET, FREE_FAILURES, RedisLoginThrottle
from headroom.core.middleware import ApiGuard
from headroom.core.ratelimit import RateLimiter, RedisCounter
from headroom.core.settings import Settings
from support.services import HEADROOM, Stack, free_port

pytestmark = pytest.mark.faults
PASSWORD = "a-long-enough-password"
LOGIN = "/api/v1/auth/login"


def second_api(stack: Stack, tmp_path: Path) -> Stack:
    """Another API process on the same database, Redis and storage."""
    (tmp_path / "b").mkdir()
    port = free_port()
    other = Stack(env=stack.env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path / "b")
    other.start_api(port)
    return other


@pytest.fixture
def two_apis(
    make_stack: Callable[..., Stack], tmp_path: Path
) -> Iterator[Callable[..., tuple[Stack, Stack]]]:
    started: list[Stack] = []

    def make(**extra: str) -> tuple[Stack, Stack]:
        first = make_stack(**extra)
        started.append(second_api(first, tmp_path))
        return first, started[-1]

    yield make
    for other in started:
        other.stop()


def test_the_rate_limit_holds_over_two_api_processes(
    two_apis: Callable[..., tuple[Stack, Stack]],
) -> None:
    one, two = two_apis(rate_limit_ip_per_min="4")
    with one.client() as a, two.client() as b:
        assert [a.get("/api/v1/auth/me").status_code for _ in range(2)] == [401, 401]
        assert [b.get("/api/v1/auth/me").status_code for _ in range(2)] == [401, 401]
        assert a.get("/api/v1/auth/me").status_code == 429
        assert b.get("/api/v1/auth/me").status_code == 429


def test_the_login_throttle_holds_over_two_api_processes(
    two_apis: Callable[..., tuple[Stack, Stack]],
) -> None:
    one, two = two_apis()
    one.token_for("guessed@example.com", "Office")
    wrong = {"email": "guessed@example.com", "password": "wrong guess"}
    with one.client() as a, two.client() as b:
        for _ in range(FREE_FAILURES):
            assert a.post(LOGIN, json=wrong).status_code == 401
        right = {**wrong, "password": PASSWORD}
        assert b.post(LOGIN, json=right).status_code == 429


def test_uploads_per_credential_hold_over_two_api_processes(
    two_apis: Callable[..., tuple[Stack, Stack]], redis_url: str
) -> None:
    one, two = two_apis(uploads_per_credential="1")
    token = one.token_for("uploader@example.com", "Office")
    held = open_upload(one, token)  # headers sent, body held back: it keeps its slot
    try:
        wait_for_slot(redis_url)
        with two.client(token) as b:
            refused = b.post("/api/v1/datasets", content=b"x")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_uploads"
    finally:
        held.close()


def open_upload(stack: Stack, token: str) -> socket.socket:
    netloc = urlsplit(stack.base_url)
    sock = socket.create_connection((netloc.hostname, netloc.port), timeout=30)
    head = (
        f"POST /api/v1/datasets HTTP/1.1\r\nHost: {netloc.netloc}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/octet-stream\r\n"
        "Content-Length: 1000\r\n\r\n"
    )
    sock.sendall(head.encode())
    return sock


def wait_for_slot(redis_url: str, timeout_s: float = 30.0) -> None:
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + timeout_s
    while not any(client.scan_iter("headroom:uploads:*")):
        assert time.monotonic() < deadline, "the held upload never took its slot"
        time.sleep(0.05)


class Clock:
    def __init__(self) -> None:
        self.now_s = 1_000_000.0

    def __call__(self) -> float:
        return self.now_s


def test_the_shared_login_throttle_delays_a_pair_and_budgets_an_address(redis_url: str) -> None:
    redis.Redis.from_url(redis_url).flushdb()
    clock = Clock()
    throttle = RedisLoginThrottle(redis_url, clock=clock)
    for _ in range(FREE_FAILURES):
        throttle.check("a@example.com", "192.0.2.1")
        throttle.failed("a@example.com", "192.0.2.1")
    with pytest.raises(Exception, match="try again in 1 s"):
        throttle.check("a@example.com", "192.0.2.1")
    throttle.check("a@example.com", "192.0.2.2")  # another address: no delay
    clock.now_s += 1
    throttle.check("a@example.com", "192.0.2.1")
    throttle.succeeded("a@example.com", "192.0.2.1")
    for i in range(ADDRESS_BUDGET - FREE_FAILURES):
        throttle.failed(f"user{i}@example.com", "192.0.2.1")
    with pytest.raises(Exception, match="too many failed sign-ins"):
        throttle.check("someone@example.com", "192.0.2.1")
    throttle.check("someone@example.com", "192.0.2.3")


def test_an_accepted_credential_costs_one_redis_count_a_window(redis_url: str) -> None:
    """Not one round trip to Redis on every request."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    limiter = RateLimiter(RedisCounter(redis_url), 100, 100, clock=lambda: 1000.0)
    for _ in range(3):
        limiter.mark_verified("bearer:hr_example")
    assert limiter.is_verified("bearer:hr_example")
    [key] = client.keys("headroom:rate:ok:*")
    assert client.get(key) == b"1"


def test_serve_refuses_several_processes_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEADROOM_")}
    env["HEADROOM_DATA_DIR"] = str(tmp_path)
    command = [*HEADROOM, "serve", "--workers", "2", "--port", str(free_port())]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "--workers above 1 needs PostgreSQL" in done.stderr


def test_serve_runs_the_processes_asked_for(
    make_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    (tmp_path / "w").mkdir()
    stack, port = make_stack(), free_port()
    other = Stack(env=stack.env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path / "w")
    try:
        other.start_api(port, "--workers", "2")
        with other.client() as client:
            assert client.get("/api/health").status_code == 200
        log, deadline = tmp_path / "w" / "api.log", time.monotonic() + 60
        while log.read_text().count("Application startup complete") < 2:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        other.stop()


def test_a_slow_redis_does_not_stall_the_other_requests(tmp_path: Path) -> None:
    """The rate limiter waits on Redis away from the event loop: while Redis does not answer,
    the process goes on with its other requests (a Redis that accepts and never replies)."""
    listener = socket.create_server(("127.0.0.1", 0))
    connected, release = threading.Event(), threading.Event()

    def unresponsive() -> None:
        held = []
        while not release.is_set():
            with contextlib.suppress(TimeoutError):
                listener.settimeout(0.1)
                held.append(listener.accept()[0])
                connected.set()
        for connection in held:
            connection.close()
        listener.close()

    threading.Thread(target=unresponsive, daemon=True).start()
    url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    guard = ApiGuard(answer_ok, Settings(data_dir=tmp_path, rate_limit_redis_url=url))

    async def run() -> None:
        waiting = asyncio.create_task(call(guard, "/api/v1/datasets"))
        try:
            # the loop is free to run this while the limiter waits on Redis
            assert await asyncio.to_thread(connected.wait, 30)
            assert not waiting.done()
            assert await call(guard, "/api/health") == 200
            assert not waiting.done()
        finally:
            release.set()
            with contextlib.suppress(redis.RedisError):
                await waiting

    asyncio.run(run())


async def answer_ok(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def call(app: ASGIApp, path: str) -> int:
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(b"authorization", b"Bearer hr_example")],
        "client": ("192.0.2.1", 1),
    }
    statuses: list[int] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await app(scope, receive, send)
    return statuses[0]


def test_counters_count_in_the_process_while_redis_is_unreachable() -> None:
    """With the broker's Redis down, the shared counters neither fail nor let everything
    through: each process counts on its own until Redis is back."""
    from headroom.api.upload_access import RedisUploadSlots
    from headroom.auth.throttle import TooManyAttempts

    gone = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    counter = RedisCounter(gone)
    assert [counter.hit("ip:1", 7) for _ in range(3)] == [1, 2, 3]
    assert counter.peek("ip:1", 7) == 3
    throttle = RedisLoginThrottle(gone)
    for _ in range(FREE_FAILURES):
        throttle.check("a@example.com", "10.0.0.1")
        throttle.failed("a@example.com", "10.0.0.1")
    with pytest.raises(TooManyAttempts):
        throttle.check("a@example.com", "10.0.0.1")
    throttle.succeeded("a@example.com", "10.0.0.1")
    throttle.check("a@example.com", "10.0.0.1")
    slots = RedisUploadSlots(gone)
    first = slots.acquire("token:1", 1)
    assert first is not None and slots.acquire("token:1", 1) is None
    slots.release("token:1", first)
    assert slots.acquire("token:1", 1) is not None
