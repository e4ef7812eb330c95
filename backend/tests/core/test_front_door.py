"""Rate limits, JSON body limits, idempotency keys and Secure cookies behind TLS."""

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update

from headroom.api.app import create_app
from headroom.core.db import session_scope
from headroom.core.idempotency_models import IdempotencyRecord
from headroom.core.ratelimit import MemoryCounter, RateLimiter
from headroom.core.settings import Settings
from support.factories import PASSWORD, api_token, member, signed_in


def test_limiter_counts_per_minute_window_and_says_when_to_retry() -> None:
    now = [120.0]
    limiter = RateLimiter(MemoryCounter(), 3, 2, clock=lambda: now[0])
    assert [limiter.check("tok", "1.2.3.4").allowed for _ in range(4)] == [1, 1, 1, 0]
    now[0] = 150.0  # 30 s into the window: the window ends at 180 s
    refused = limiter.check("tok", "1.2.3.4")
    assert not refused.allowed and refused.retry_after_s == 31
    assert limiter.check(None, "1.2.3.4").allowed  # the address has its own budget
    assert limiter.check("other", "1.2.3.4").allowed  # and so has every credential
    now[0] = 180.0
    assert limiter.check("tok", "1.2.3.4").allowed  # a new window


def test_a_token_over_its_limit_gets_429_with_retry_after(settings: Settings) -> None:
    owner = member(settings, "rita@example.com", "Shop")
    token = api_token(settings, owner, ["read"])
    limited = settings.model_copy(update={"rate_limit_token_per_min": 5})
    client = TestClient(create_app(limited), headers={"Authorization": f"Bearer {token}"})
    statuses = [client.get("/api/v1/workspaces").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    refused = client.get("/api/v1/workspaces")
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["retry-after"]) <= 61
    assert refused.headers["x-content-type-options"] == "nosniff"
    assert TestClient(create_app(limited)).get("/api/health").status_code == 200


def test_json_bodies_over_the_limit_get_413(settings: Settings) -> None:
    owner = member(settings, "sid@example.com", "Shop")
    client = signed_in(settings.model_copy(update={"max_json_bytes": 100}), owner)
    big = client.post("/api/v1/workspaces", json={"name": "x" * 200})
    assert big.status_code == 413 and big.json()["error"]["code"] == "request_too_large"
    assert client.post("/api/v1/workspaces", json={"name": "small"}).status_code == 201


def test_same_key_same_body_replays_without_running_twice(settings: Settings) -> None:
    owner = member(settings, "ida@example.com", "Shop")
    client = signed_in(settings, owner)
    headers = {"Idempotency-Key": "create-side-1"}
    first = client.post("/api/v1/workspaces", json={"name": "Side"}, headers=headers)
    again = client.post("/api/v1/workspaces", json={"name": "Side"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    names = [w["name"] for w in client.get("/api/v1/workspaces").json()]
    assert names.count("Side") == 1
    other = client.post("/api/v1/workspaces", json={"name": "Other"}, headers=headers)
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"


def test_keys_belong_to_one_caller_and_expire(settings: Settings) -> None:
    ann = member(settings, "ann@example.com", "Shop")
    ben = member(settings, "ben@example.com", "Shop")
    headers = {"Idempotency-Key": "k"}
    as_ann, as_ben = signed_in(settings, ann), signed_in(settings, ben)
    assert as_ann.post("/api/v1/workspaces", json={"name": "A"}, headers=headers).status_code == 201
    second = as_ben.post("/api/v1/workspaces", json={"name": "B"}, headers=headers)
    assert second.status_code == 201 and "idempotent-replayed" not in second.headers
    with session_scope(settings.resolved_database_url()) as session:
        past = datetime.now(UTC) - timedelta(seconds=1)
        session.execute(update(IdempotencyRecord).values(expires_at=past))
    fresh = as_ann.post("/api/v1/workspaces", json={"name": "A2"}, headers=headers)
    assert fresh.status_code == 201 and "idempotent-replayed" not in fresh.headers


def test_failed_answers_are_not_stored(settings: Settings) -> None:
    owner = member(settings, "fay@example.com", "Shop")
    client = signed_in(settings, owner)
    headers = {"Idempotency-Key": "retry-me"}
    bad = client.post("/api/v1/workspaces", json={"name": ""}, headers=headers)
    assert bad.status_code == 422
    good = client.post("/api/v1/workspaces", json={"name": ""}, headers=headers)
    assert good.status_code == 422 and "idempotent-replayed" not in good.headers


def test_session_cookie_is_secure_behind_a_trusted_tls_proxy(settings: Settings) -> None:
    member(settings, "tls@example.com", "Shop")
    login = {"email": "tls@example.com", "password": PASSWORD}
    proto = {"X-Forwarded-Proto": "https"}
    plain = TestClient(create_app(settings)).post("/api/v1/auth/login", json=login, headers=proto)
    assert "secure" not in plain.headers["set-cookie"].lower()  # the header is not trusted
    trusted = settings.model_copy(update={"trust_forwarded_proto": True})
    behind = TestClient(create_app(trusted)).post("/api/v1/auth/login", json=login, headers=proto)
    assert "secure" in behind.headers["set-cookie"].lower()
