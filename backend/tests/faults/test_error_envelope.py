"""Every error answer has the documented envelope and a request id that the server logs:
routing's 404 and 405, unexpected exceptions (500), malformed multipart
bodies, and ids beyond the id column's range on every route."""

import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.ids import ID_MAX
from headroom.core.settings import Settings
from support.services import Stack

pytestmark = pytest.mark.faults

ENVELOPE_KEYS = {"code", "message", "field", "detail", "request_id"}


def assert_envelope(response: httpx.Response, status: int, code: str | None = None) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.text
    error = response.json()["error"]
    assert set(error) == ENVELOPE_KEYS, error
    assert code is None or error["code"] == code, error
    assert error["request_id"] == response.headers["x-request-id"]
    return str(error["request_id"])


def test_an_unexpected_exception_is_an_enveloped_500_logged_with_its_request_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(Settings(data_dir=tmp_path, static_dir=tmp_path / "no-ui"))

    def broken() -> None:
        raise RuntimeError("a bug in a route")

    app.add_api_route("/api/v1/test-broken", broken, methods=["GET"])
    app.router.routes.insert(0, app.router.routes.pop())  # before the UI's catch-all route
    client = TestClient(app, raise_server_exceptions=False)
    with caplog.at_level(logging.INFO, logger="headroom"):
        response = client.get("/api/v1/test-broken")
    request_id = assert_envelope(response, 500, "internal_error")
    assert request_id in response.json()["error"]["message"]
    records = [r for r in caplog.records if getattr(r, "request_id", None) == request_id]
    assert len(records) == 1 and records[0].levelno == logging.ERROR
    assert records[0].exc_info is not None and "a bug in a route" in str(records[0].exc_info[1])


def test_routing_and_multipart_errors_use_the_envelope_on_a_real_api(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack()
    token = stack.token_for("env@example.com", "Env")
    with stack.client(token) as client:
        not_found = assert_envelope(client.get("/api/v1/no-such-route"), 404, "not_found")
        assert_envelope(client.delete("/api/v1/datasets"), 405, "method_not_allowed")
        assert_envelope(client.post("/api/health"), 405, "method_not_allowed")
        broken = client.post(
            "/api/v1/datasets",
            content=b"--xyz\r\nno colon in this header\r\n\r\nabc\r\n--xyz--\r\n",
            headers={"Content-Type": "multipart/form-data; boundary=xyz"},
        )
        multipart = assert_envelope(broken, 422, "invalid_multipart")
        no_boundary = client.post(
            "/api/v1/datasets",
            content=b"\x00\x01 not multipart at all",  # no opening boundary
            headers={"Content-Type": "multipart/form-data; boundary=abc"},
        )
        assert_envelope(no_boundary, 422, "invalid_multipart")
        assert client.get("/api/v1/datasets").status_code == 200  # the API is still up
    log = _log_text(stack, multipart)
    assert not_found in log and multipart in log
    assert not list((Path(stack.env["HEADROOM_DATA_DIR"]) / "storage").rglob("*.part"))


def _log_text(stack: Stack, request_id: str) -> str:
    path = stack.log_dir / "api.log"
    for _ in range(50):  # the log line is written as the answer is sent
        text = path.read_text(errors="replace")
        if request_id in text:
            return text
        time.sleep(0.1)
    return path.read_text(errors="replace")


def int_path_operations(app: Any) -> list[tuple[str, str, list[str]]]:
    """(method, path, integer path parameters) of every route with one."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            names = [
                p["name"]
                for p in operation.get("parameters", [])
                if p["in"] == "path" and p["schema"].get("type") == "integer"
            ]
            if names:
                found.append((method.upper(), path, names))
    return found


def test_ids_beyond_the_column_range_are_refused_on_every_route_on_postgresql(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(rate_limit_token_per_min="0")
    token = stack.token_for("ids@example.com", "Ids", scope="admin")
    operations = int_path_operations(create_app(Settings()))
    assert len(operations) >= 9
    failures = []
    with stack.client(token) as client:
        workspace_id = client.get("/api/v1/workspaces").json()[0]["id"]
        for method, path, names in operations:
            for name in names:
                for bad in (ID_MAX + 1,):
                    values = {n: str(bad if n == name else workspace_id) for n in names}
                    url = re.sub(r"\{(\w+)\}", lambda m, v=values: v.get(m[1], "x"), path)
                    response = client.request(method, url, json={})
                    if response.status_code not in (404, 422):
                        failures.append(f"{method} {url}: {response.status_code}")
    assert not failures, failures
