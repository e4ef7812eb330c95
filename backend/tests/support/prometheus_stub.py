"""A tiny HTTP server standing in for Prometheus where the real one cannot be made to
answer: fixed refusals (422, 503), a failure on the second page, and auth headers seen."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = {"resultType": "matrix", "result": [{"metric": {}, "values": [[0, "0"], [60, "60"]]}]}


@contextlib.contextmanager
def stub(
    answers: list[tuple[int, dict[str, object]]],
) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """Answers the requests in turn with `answers` (the last one repeated); yields the
    base URL and the headers of each request."""
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(dict(self.headers))
            status, body = answers[min(len(seen) - 1, len(answers) - 1)]
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def ok(data: dict[str, object] = PAGE) -> tuple[int, dict[str, object]]:
    return 200, {"status": "success", "data": data}


def refused(status: int, kind: str, message: str) -> tuple[int, dict[str, object]]:
    return status, {"status": "error", "errorType": kind, "error": message}
