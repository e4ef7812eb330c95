"""A write is committed before its response leaves: the next request always sees it."""

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from support.factories import PASSWORD, member


def test_a_session_works_on_the_very_next_request(settings: Settings) -> None:
    who = member(settings, "next@example.com", "Shop")
    for _ in range(20):
        client = TestClient(create_app(settings))
        body = {"email": who.email, "password": PASSWORD}
        assert client.post("/api/v1/auth/login", json=body).status_code == 200
        assert client.get("/api/v1/auth/me").status_code == 200
