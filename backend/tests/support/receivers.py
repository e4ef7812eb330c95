"""Real receivers for alert deliveries, started by the tests: an SMTP server (aiosmtpd)
that keeps every message, and a threaded HTTP server that records each request's body and
headers (or answers 500 to every request, to show retries and the final failure)."""

import hashlib
import hmac
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller

from support.services import free_port


@dataclass
class Mailbox:
    messages: list[Message] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[str, Mailbox]]:
    """An SMTP server on a free port: (HEADROOM_SMTP_URL, the mailbox)."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", mailbox
    finally:
        controller.stop()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)
    secret: str | None = None  # set: each request's signature is checked on arrival
    verified: list[bool] = field(default_factory=list)

    def check(self, headers: dict[str, str], body: bytes) -> None:
        """How a receiver verifies a signed webhook (docs/alerts.md), written here anew."""
        if self.secret is None:
            return
        expected = hmac.new(self.secret.encode(), body, hashlib.sha256).hexdigest()
        given = headers.get("x-headroom-signature", "")
        self.verified.append(hmac.compare_digest(given, "sha256=" + expected))


@contextmanager
def http_receiver(status: int = 200) -> Iterator[Receiver]:
    """An HTTP server on a free port that records every POST and answers `status`."""
    port = free_port()
    receiver = Receiver(url=f"http://127.0.0.1:{port}/hook")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            receiver.requests.append(Received(self.path, headers, body))
            receiver.check(headers, body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
