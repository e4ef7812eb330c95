"""Unexpected exceptions become the documented 500 envelope, and the connection stays open.

Starlette's own handler of `Exception` answers, then raises the exception again for the
server to log; uvicorn then closes the connection, so a client that sends its next request
on it (HTTP keep-alive) sees that request reset. This outermost middleware answers and
keeps the exception to itself: the connection is closed only when an answer had already
begun (there is nothing sound left to send on it)."""

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from headroom.core.errors import envelope
from headroom.core.request_ids import HEADER, log, new_request_id, request_id_of


class UnexpectedErrors:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            if started:
                raise
            await _answer_500(scope, send, error)


async def _answer_500(scope: Scope, send: Send, error: Exception) -> None:
    request_id = request_id_of(scope) or new_request_id(scope)
    log.error(
        "unexpected error in %s %s (request %s)",
        scope["method"],
        scope["path"],
        request_id,
        exc_info=error,
        extra={"request_id": request_id},
    )
    message = f"an unexpected error occurred; quote request id {request_id} when reporting it"
    body = json.dumps(envelope("internal_error", message, None, None, request_id)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (HEADER.encode(), request_id.encode()),
    ]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": body})
