"""The principal cache: a revoked token, a changed role or a removed member takes effect at
once in the process that made the change, and within the cache's TTL in any other."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from headroom.api.app import create_app
from headroom.auth.models import ApiToken
from headroom.auth.principal import Caller, Principal
from headroom.auth.principal_cache import PRINCIPAL_TTL_S, PrincipalCache, principals
from headroom.core.db import get_engine, session_scope
from headroom.core.security import token_digest
from headroom.core.settings import Settings
from headroom.workspaces.models import Role
from support.factories import api_token, member, signed_in


class Clock:
    def __init__(self) -> None:
        self.now_s = 1000.0

    def __call__(self) -> float:
        return self.now_s


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The process's cache, on a clock the test moves."""
    fake = Clock()
    monkeypatch.setattr(principals, "_clock", fake)
    principals.clear()
    yield fake
    principals.clear()


def bearer(settings: Settings, token: str) -> TestClient:
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})


def token_id(settings: Settings, token: str) -> int:
    with session_scope(settings.resolved_database_url()) as session:
        row = session.query(ApiToken).filter_by(token_hash=token_digest(token)).one()
        return row.id


def elsewhere(settings: Settings, **values: object) -> None:
    """A change another API process commits: this process's sessions never see it."""
    with get_engine(settings.resolved_database_url()).begin() as connection:
        connection.execute(update(ApiToken).values(**values))


def test_a_token_revoked_here_stops_at_once(settings: Settings, clock: Clock) -> None:
    owner = member(settings, "owner@example.com", "Shop")
    token = api_token(settings, owner, ["read"])
    reader = bearer(settings, token)
    assert reader.get("/api/v1/datasets").status_code == 200  # cached from here
    admin = signed_in(settings, owner)
    tokens = f"/api/v1/workspaces/{owner.workspace_id}/tokens"
    assert admin.delete(f"{tokens}/{token_id(settings, token)}").status_code == 204
    assert reader.get("/api/v1/datasets").status_code == 401


def test_a_role_changed_here_applies_at_once(settings: Settings, clock: Clock) -> None:
    owner = member(settings, "owner@example.com", "Shop")
    editor = member(settings, "editor@example.com", "Shop", Role.editor)
    writer = bearer(settings, api_token(settings, editor, ["write"]))
    assert writer.delete("/api/v1/datasets/999999").status_code == 404  # may write; cached
    admin = signed_in(settings, owner)
    members = f"/api/v1/workspaces/{owner.workspace_id}/members"
    assert admin.patch(f"{members}/{editor.user_id}", json={"role": "viewer"}).status_code == 200
    assert writer.delete("/api/v1/datasets/999999").status_code == 403
    assert admin.delete(f"{members}/{editor.user_id}").status_code == 204
    assert writer.get("/api/v1/workspaces").json() == []


def test_a_session_ended_here_stops_at_once(settings: Settings, clock: Clock) -> None:
    who = member(settings, "carol@example.com", "Shop")
    client = signed_in(settings, who)
    cookie = client.cookies.get("headroom_session") or ""
    replay = TestClient(create_app(settings), cookies={"headroom_session": cookie})
    assert replay.get("/api/v1/auth/me").status_code == 200  # cached from here
    assert client.post("/api/v1/auth/logout").status_code == 204
    assert replay.get("/api/v1/auth/me").status_code == 401


def test_a_revocation_elsewhere_applies_within_the_ttl(settings: Settings, clock: Clock) -> None:
    owner = member(settings, "owner@example.com", "Shop")
    reader = bearer(settings, api_token(settings, owner, ["read"]))
    assert reader.get("/api/v1/datasets").status_code == 200
    elsewhere(settings, revoked_at=datetime.now(UTC))
    clock.now_s += PRINCIPAL_TTL_S - 0.1
    assert reader.get("/api/v1/datasets").status_code == 200  # this process cannot know yet
    clock.now_s += 0.1
    assert reader.get("/api/v1/datasets").status_code == 401


def test_a_cached_token_stops_at_its_expiry(
    settings: Settings, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = member(settings, "owner@example.com", "Shop")
    token = api_token(settings, owner, ["read"])
    expiry = datetime.now(UTC) + timedelta(hours=1)
    elsewhere(settings, expires_at=expiry)
    reader = bearer(settings, token)
    assert reader.get("/api/v1/datasets").status_code == 200
    principal = principals.get(f"token:{token_digest(token)}")
    assert principal is not None and principal.expires_at == expiry
    assert isinstance(principal.user, Caller)  # a plain value: no ORM row, no session
    elsewhere(settings, expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert reader.get("/api/v1/datasets").status_code == 200  # cached, the TTL not over
    monkeypatch.setattr(principals, "_wall_clock", lambda: expiry)
    assert reader.get("/api/v1/datasets").status_code == 401  # the TTL still not over


def test_an_entry_resolved_during_a_change_is_not_kept() -> None:
    cache = PrincipalCache(ttl_s=5.0, clock=Clock())
    principal = Principal(user=Caller(id=1, email="a@example.com", name="a"), roles={})
    before = cache.generation
    cache.clear()  # a change committed while the principal was being resolved
    cache.put("k", principal, before)
    assert cache.get("k") is None
    cache.put("k", principal, cache.generation)
    assert cache.get("k") is principal


def test_users_are_cached_as_plain_values(settings: Settings, clock: Clock) -> None:
    who = member(settings, "dave@example.com", "Shop")
    reader = bearer(settings, api_token(settings, who, ["read"]))
    me = reader.get("/api/v1/auth/me").json()
    assert (me["id"], me["email"]) == (who.user_id, "dave@example.com")
    assert reader.get("/api/v1/auth/me").json() == me  # from the cache
