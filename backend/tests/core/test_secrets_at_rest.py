"""Secrets at rest and their comparison: passwords are stored as argon2id hashes (never the
password), and every bearer secret (API token, session cookie, share link, invitation link)
is stored as its SHA-256 and compared with hmac.compare_digest (a spy on it records the
digests it saw; reference: the SHA-256 computed here from the secret the API handed out)."""

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from headroom.api.app import create_app
from headroom.auth.models import User
from headroom.core.db import session_scope
from headroom.core.security import SESSION_COOKIE
from headroom.core.settings import Settings
from support.factories import PASSWORD, api_token, member, signed_in

Spy = list[tuple[str, str]]


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Spy:
    seen: Spy = []
    original: Callable[[Any, Any], bool] = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        seen.append((str(a), str(b)))
        return original(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    return seen


def sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def test_passwords_are_stored_as_argon2id_hashes(settings: Settings) -> None:
    member(settings, "hash@example.com", "Hashes")
    with session_scope(settings.resolved_database_url()) as session:
        stored = session.scalar(select(User.password_hash).where(User.email == "hash@example.com"))
    assert stored is not None and stored.startswith("$argon2id$")
    assert PASSWORD not in stored
    client = TestClient(create_app(settings))
    wrong = client.post("/api/v1/auth/login", json={"email": "hash@example.com", "password": "x"})
    assert wrong.status_code == 401
    right = {"email": "hash@example.com", "password": PASSWORD}
    assert client.post("/api/v1/auth/login", json=right).status_code == 200


def test_api_tokens_and_sessions_are_compared_in_constant_time(
    settings: Settings, compared: Spy
) -> None:
    owner = member(settings, "ct@example.com", "Constant")
    token = api_token(settings, owner, ["read"])
    with_token = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    assert with_token.get("/api/v1/auth/me").status_code == 200
    assert (sha256(token), sha256(token)) in compared
    browser = signed_in(settings, owner)
    cookie = browser.cookies[SESSION_COOKIE]
    assert browser.get("/api/v1/auth/me").status_code == 200
    assert (sha256(cookie), sha256(cookie)) in compared
    forged = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}x"})
    assert forged.get("/api/v1/auth/me").status_code == 401


def test_share_and_invitation_links_are_compared_in_constant_time(
    settings: Settings, compared: Spy
) -> None:
    owner = member(settings, "links@example.com", "Links")
    client = signed_in(settings, owner)
    report = client.post("/api/v1/reports", json={"title": "Shared"}).json()
    share = client.post(f"/api/v1/reports/{report['id']}/links", json={}).json()["token"]
    anonymous = TestClient(create_app(settings))
    assert anonymous.get(f"/api/v1/public/reports/{share}").status_code == 200
    assert (sha256(share), sha256(share)) in compared
    invited = client.post(
        f"/api/v1/workspaces/{owner.workspace_id}/invitations", json={"email": "new@example.com"}
    ).json()
    invitation = invited["url"].rsplit("/", 1)[1]
    assert anonymous.get(f"/api/v1/invitations/{invitation}").status_code == 200
    assert (sha256(invitation), sha256(invitation)) in compared
