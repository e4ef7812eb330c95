"""A fault-injecting HTTP proxy in front of the test S3 server: requests of a chosen S3
operation are answered with an error status, or left without an answer (a store that
times out), a given number of times; everything else goes through to the real server."""

from __future__ import annotations

import http.client
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "expect", "host"}


def operation(method: str, target: str, headers: dict[str, str]) -> str:
    """The S3 operation a request is (the few the store's writes use)."""
    query = parse_qs(urlsplit(target).query, keep_blank_values=True)
    if method == "PUT" and "partNumber" in query:
        return "UploadPart"
    if method == "PUT":
        return "CopyObject" if "x-amz-copy-source" in headers else "PutObject"
    if method == "POST" and "uploads" in query:
        return "CreateMultipartUpload"
    if method == "POST" and "uploadId" in query:
        return "CompleteMultipartUpload"
    if method == "DELETE" and "uploadId" in query:
        return "AbortMultipartUpload"
    return f"{method} {urlsplit(target).path}"


@dataclass
class Fault:
    operation: str
    status: int = 500  # the answer; 0: no answer at all (the client times out)
    code: str = "InternalError"
    times: int = 1_000_000  # how many requests it hits, then it is spent
    skip: int = 0  # requests of the operation let through before it starts
    hang_s: float = 5.0  # for status 0: how long the proxy holds the request


class FaultyS3:
    """Start with the real server's URL; ``url`` is the proxy's. ``seen`` counts the
    requests of each operation that reached the proxy."""

    def __init__(self, upstream: str) -> None:
        self.upstream = urlsplit(upstream)
        self.faults: list[Fault] = []
        self.seen: dict[str, int] = {}
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def fault_for(self, op: str) -> Fault | None:
        with self.lock:
            self.seen[op] = self.seen.get(op, 0) + 1
            for fault in self.faults:
                if fault.operation != op:
                    continue
                if fault.skip > 0:
                    fault.skip -= 1
                    return None
                if fault.times > 0:
                    fault.times -= 1
                    return fault
        return None


def _handler(proxy: FaultyS3) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            fault = proxy.fault_for(operation(self.command, self.path, headers))
            if fault is not None and fault.status == 0:
                time.sleep(fault.hang_s)
                self.close_connection = True
                return
            if fault is not None:
                return self._error(fault)
            self._forward(body, headers)

        def _error(self, fault: Fault) -> None:
            xml = (
                f"<?xml version='1.0' encoding='UTF-8'?><Error><Code>{fault.code}</Code>"
                f"<Message>injected by the test proxy</Message></Error>"
            ).encode()
            self.send_response(fault.status)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(xml)))
            self.end_headers()
            self.wfile.write(xml)

        def _forward(self, body: bytes, headers: dict[str, str]) -> None:
            up = proxy.upstream
            connection = http.client.HTTPConnection(up.hostname, up.port, timeout=60)
            try:
                sent = {k: v for k, v in headers.items() if k not in HOP_HEADERS}
                sent["host"] = up.netloc
                connection.request(self.command, self.path, body=body, headers=sent)
                reply = connection.getresponse()
                data = reply.read()
            finally:
                connection.close()
            self.send_response(reply.status)
            for name, value in reply.getheaders():
                if name.lower() not in HOP_HEADERS and name.lower() != "content-length":
                    self.send_header(name, value)
            length = reply.getheader("Content-Length") if self.command == "HEAD" else None
            self.send_header("Content-Length", length or str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _any

    return Handler
