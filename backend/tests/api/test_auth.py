"""Sign-in, sessions, API tokens and who may see what."""

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from headroom.workspaces.models import Role
from support.factories import PASSWORD, api_token, member, signed_in


def test_login_sets_an_httponly_cookie_and_me_lists_workspaces(settings: Settings) -> None:
    alice = member(settings, "alice@example.com", "Shop")
    client = TestClient(create_app(settings))
    response = client.post(
        "/api/v1/auth/login", json={"email": "Alice@Example.com ", "password": PASSWORD}
    )
    assert response.status_code == 200
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    me = client.get("/api/v1/auth/me").json()
    assert me["email"] == "alice@example.com"
    assert me["workspaces"] == [{"id": alice.workspace_id, "name": "Shop", "role": "owner"}]


def test_wrong_password_and_unknown_user_get_the_same_answer(settings: Settings) -> None:
    member(settings, "bob@example.com", "Shop")
    client = TestClient(create_app(settings))
    wrong = client.post("/api/v1/auth/login", json={"email": "bob@example.com", "password": "x"})
    unknown = client.post("/api/v1/auth/login", json={"email": "eve@example.com", "password": "x"})
    assert wrong.status_code == unknown.status_code == 401

    def same(body: dict[str, dict[str, object]]) -> dict[str, object]:
        return {k: v for k, v in body["error"].items() if k != "request_id"}

    assert same(wrong.json()) == same(unknown.json())
    assert wrong.json()["error"]["code"] == "invalid_credentials"


def test_every_endpoint_needs_a_user(settings: Settings) -> None:
    client = TestClient(create_app(settings))
    for path in (
        "/api/v1/auth/me",
        "/api/v1/datasets",
        "/api/v1/datasets/1",
        "/api/v1/jobs/1",
        "/api/v1/workspaces",
    ):
        response = client.get(path)
        assert response.status_code == 401, path
        assert response.json()["error"]["code"] == "not_authenticated"


def test_logout_ends_the_session(settings: Settings) -> None:
    carol = member(settings, "carol@example.com", "Shop")
    client = signed_in(settings, carol)
    cookie = client.cookies.get("headroom_session")
    assert client.post("/api/v1/auth/logout").status_code == 204
    replay = TestClient(create_app(settings), cookies={"headroom_session": cookie or ""})
    assert replay.get("/api/v1/auth/me").status_code == 401


def test_bearer_token_sees_only_its_workspace(settings: Settings) -> None:
    dave = member(settings, "dave@example.com", "One")
    member(settings, "dave2@example.com", "Two")
    token = api_token(settings, dave, ["read"])
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    assert [w["name"] for w in client.get("/api/v1/workspaces").json()] == ["One"]
    bad = TestClient(create_app(settings), headers={"Authorization": "Bearer hr_nope"})
    assert bad.get("/api/v1/workspaces").status_code == 401


def test_read_scope_cannot_upload(settings: Settings, sample_log) -> None:  # type: ignore[no-untyped-def]
    erin = member(settings, "erin@example.com", "Shop", Role.owner)
    token = api_token(settings, erin, ["read"])
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    response = client.post("/api/v1/datasets", content=sample_log.read_bytes()[:5000])
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"


def test_repeated_failures_are_throttled_with_retry_after(settings: Settings) -> None:
    member(settings, "frank@example.com", "Shop")
    client = TestClient(create_app(settings))
    for _ in range(3):  # the free failures; the next attempt waits a second
        wrong = {"email": "frank@example.com", "password": "guess"}
        assert client.post("/api/v1/auth/login", json=wrong).status_code == 401
    right = {"email": "frank@example.com", "password": PASSWORD}
    blocked = client.post("/api/v1/auth/login", json=right)
    assert blocked.status_code == 429
    assert blocked.json()["error"]["code"] == "too_many_attempts"
    assert int(blocked.headers["retry-after"]) > 0


def test_cookie_writes_from_another_site_are_refused(settings: Settings) -> None:
    gina = member(settings, "gina@example.com", "Shop")
    client = signed_in(settings, gina)
    evil = client.delete("/api/v1/datasets/999", headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403
    same = client.delete("/api/v1/datasets/999", headers={"Origin": "http://testserver"})
    assert same.status_code == 404
