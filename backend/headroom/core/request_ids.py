"""A request id for every API request: sent back as X-Request-ID, put in every error body,
and written to the server log with each error answer, so a user's report of an error finds
its log record."""

import logging
import re
import uuid

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "x-request-id"
_SAFE = re.compile(r"^[A-Za-z0-9._-]{8,64}$")  # a proxy's id is kept when it looks like one
log = logging.getLogger("headroom.api")


def request_id_of(scope: Scope) -> str | None:
    state = scope.get("state") or {}
    found = state.get("request_id")
    return str(found) if found else None


def new_request_id(scope: Scope) -> str:
    given = Headers(scope=scope).get(HEADER, "")
    request_id = given if _SAFE.match(given) else uuid.uuid4().hex
    scope.setdefault("state", {})["request_id"] = request_id
    return request_id


class RequestIds:
    """Outermost ASGI middleware of the app (inside Starlette's error middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_request_id(scope)

        async def tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (HEADER.encode(), request_id.encode()),
                ]
                if message["status"] >= 400:
                    log.info(
                        "%s %s answered %s (request %s)",
                        scope["method"],
                        scope["path"],
                        message["status"],
                        request_id,
                    )
            await send(message)

        await self.app(scope, receive, tagged)
