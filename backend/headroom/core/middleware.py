"""The API's front door (pure ASGI, before any route): rate limits (429 + Retry-After),
the size of JSON request bodies (413), Idempotency-Key on POST, and how many requests
run at once."""

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from headroom.core import idempotency
from headroom.core.errors import envelope
from headroom.core.ratelimit import MemoryCounter, RateLimiter, RedisCounter
from headroom.core.request_ids import request_id_of
from headroom.core.security import SESSION_COOKIE
from headroom.core.settings import Settings

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
MAX_KEY_CHARS = 255
COUNTER_THREADS = 8
# Requests running at once per process, besides streamed uploads; the others wait in the
# event loop, in arrival order. Fewer than the routes' threads (anyio's 40): a sync route
# keeps its database connection until its answer is validated, in another thread; were
# every thread waiting for a connection, that one would never come (the pool timed out:
# 500s). And no more than the pool's connections: a request waiting for one inside the
# pool is served in no particular order, which made the slowest reads 2-3 times slower.
RUNNING_REQUESTS = 32


def running_requests(settings: Settings) -> int:
    return max(1, min(RUNNING_REQUESTS, settings.db_pool_size + settings.db_max_overflow))


T = TypeVar("T")


class ApiGuard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app, self.settings = app, settings
        shared = settings.counters_url()
        counter = RedisCounter(shared) if shared else MemoryCounter()
        self.limiter = RateLimiter(
            counter, settings.rate_limit_token_per_min, settings.rate_limit_ip_per_min
        )
        # shared counters wait on Redis: in threads of their own, so that the event loop
        # (every request of this process) never waits with them, nor behind the routes' threads
        self._counter_threads = CapacityLimiter(COUNTER_THREADS) if shared else None
        self._running = CapacityLimiter(running_requests(settings))

    async def _counted(self, func: Callable[..., T], *args: Any) -> T:
        if self._counter_threads is None:
            return func(*args)
        return await to_thread.run_sync(func, *args, limiter=self._counter_threads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/v1/"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if scope["method"] in BODY_METHODS and not _is_json(headers):
            await self._front_door(scope, receive, send, headers)  # its body takes minutes
            return
        async with self._running:
            await self._front_door(scope, receive, send, headers)

    async def _front_door(
        self, scope: Scope, receive: Receive, send: Send, headers: Headers
    ) -> None:
        credential = _credential(headers)
        client = (scope.get("client") or ("unknown", 0))[0]
        verdict = await self._counted(self.limiter.check, credential, client)
        if not verdict.allowed:
            message = f"too many requests; try again in {verdict.retry_after_s} s"
            await _error(
                send,
                429,
                "rate_limited",
                message,
                verdict.retry_after_s,
                None,
                request_id_of(scope),
            )
            return
        if credential is None:
            await self._guarded(scope, receive, send, headers, credential, client)
            return
        answer: list[int] = []
        await self._guarded(
            scope, receive, self._watching(send, answer), headers, credential, client
        )
        authenticated = (scope.get("state") or {}).get("authenticated", False)
        if authenticated and self.limiter.marked_lately(credential):
            return  # nothing to count: no trip to a counter thread (and Redis)
        status = answer[0] if answer else 500
        await self._counted(self._judge, scope, credential, client, status)

    def _watching(self, send: Send, answer: list[int]) -> Send:
        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer.append(message["status"])
            await send(message)

        return watched

    def _judge(self, scope: Scope, credential: str, client: str, status: int) -> None:
        """A refused credential (401), or one no route checked and none accepted lately
        (sent to a public route), counts against the client's address; an accepted one is
        remembered, so its requests to public routes count for it alone."""
        if (scope.get("state") or {}).get("authenticated"):
            self.limiter.mark_verified(credential)
        elif status == 401 or not self.limiter.is_verified(credential):
            self.limiter.count_refused(client)

    async def _guarded(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: Headers,
        credential: str | None,
        client: str,
    ) -> None:
        key = headers.get("idempotency-key")
        if scope["method"] == "POST" and key is not None:
            await self._idempotent(scope, receive, send, credential or f"ip:{client}", key)
        elif scope["method"] in BODY_METHODS and _is_json(headers):
            body = await _read_body(receive, self.settings.max_json_bytes)
            if body is None:
                await self._too_large(send, scope)
                return
            await self.app(scope, _replay(body), send)
        else:
            await self.app(scope, receive, send)

    async def _idempotent(
        self, scope: Scope, receive: Receive, send: Send, credential: str, key: str
    ) -> None:
        if not 1 <= len(key) <= MAX_KEY_CHARS:
            message = f"Idempotency-Key must be 1 to {MAX_KEY_CHARS} characters"
            await _error(
                send, 422, "invalid_idempotency_key", message, None, None, request_id_of(scope)
            )
            return
        body = await _read_body(receive, self.settings.max_json_bytes)
        if body is None:
            await self._too_large(send, scope, idempotent=True)
            return
        url = self.settings.resolved_database_url()
        scope_key = idempotency.scope_hash(credential, key)
        query = scope.get("query_string", b"").decode("latin-1")
        request = idempotency.request_hash(scope["method"], scope["path"], query, body)
        begun = await to_thread.run_sync(
            idempotency.begin, url, scope_key, request, self.settings.idempotency_ttl_s
        )
        if begun.stored is not None:
            await _replay_answer(send, begun.stored)
        elif begun.refusal is not None:
            await _refuse(send, begun.refusal, request_id_of(scope))
        else:
            answer = await _run_capturing(self.app, scope, _replay(body), send)
            await to_thread.run_sync(idempotency.finish, url, scope_key, answer)

    async def _too_large(self, send: Send, scope: Scope, idempotent: bool = False) -> None:
        limit = self.settings.max_json_bytes
        message = f"the request body is larger than {limit} bytes"
        if idempotent:
            message += (
                " (Idempotency-Key works on bodies up to that size; one-shot uploads are"
                " idempotent already: the same bytes give the same dataset)"
            )
        detail = {"limit_bytes": limit}
        await _error(send, 413, "request_too_large", message, None, detail, request_id_of(scope))


def _credential(headers: Headers) -> str | None:
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return "bearer:" + authorization[7:].strip()
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == SESSION_COOKIE and value:
            return "session:" + value
    return None


def _is_json(headers: Headers) -> bool:
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    return content_type == "application/json" or content_type.endswith("+json")


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it is longer than `limit` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


async def _run_capturing(
    app: ASGIApp, scope: Scope, receive: Receive, send: Send
) -> idempotency.Stored:
    status, content_type, parts = 500, None, []

    async def capture(message: Message) -> None:
        nonlocal status, content_type
        if message["type"] == "http.response.start":
            status = message["status"]
            content_type = Headers(raw=message.get("headers", [])).get("content-type")
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))
        await send(message)

    await app(scope, receive, capture)
    return idempotency.Stored(status, content_type, b"".join(parts))


async def _replay_answer(send: Send, stored: idempotency.Stored) -> None:
    headers = [
        (b"idempotent-replayed", b"true"),
        (b"content-length", str(len(stored.body)).encode()),
    ]
    if stored.content_type:
        headers.append((b"content-type", stored.content_type.encode()))
    await send({"type": "http.response.start", "status": stored.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": stored.body})


REFUSALS = {
    "idempotency_key_reused": (
        422,
        "this Idempotency-Key was already used with another request: use a new key",
    ),
    "idempotency_in_progress": (
        409,
        "a request with this Idempotency-Key is still running; retry in a moment",
    ),
}


async def _refuse(send: Send, code: str, request_id: str | None) -> None:
    status, message = REFUSALS[code]
    await _error(send, status, code, message, None, None, request_id)


async def _error(
    send: Send,
    status: int,
    code: str,
    message: str,
    retry_after_s: int | None = None,
    detail: Mapping[str, object] | None = None,
    request_id: str | None = None,
) -> None:
    body = json.dumps(envelope(code, message, None, detail, request_id)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after_s is not None:
        headers.append((b"retry-after", str(retry_after_s).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
