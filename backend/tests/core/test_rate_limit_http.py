"""Rate limits over HTTP with small configured limits: requests without a credential are
counted per client address, requests with an API token per token (a session cookie per
session), and refused credentials per address again (so guessing tokens gains nothing);
the refusal is a 429 `rate_limited` whose Retry-After is the rest of the
one-minute window. The limiter's clock is frozen (1000 s: 40 s into a window), so the counts
are exact whatever the wall clock does and Retry-After is 20 s + 1 s of rounding up."""

import uuid
from collections.abc import Iterator
from functools import partial

import pytest
from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core import middleware
from headroom.core.ratelimit import RateLimiter, RedisCounter
from headroom.core.settings import Settings
from support.factories import PASSWORD, api_token, member

ME = "/api/v1/auth/me"
NOW_S = 1000.0
RETRY_AFTER_S = 21


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(middleware, "RateLimiter", partial(RateLimiter, clock=lambda: NOW_S))
    yield


def statuses(client: TestClient, path: str, times: int) -> list[int]:
    return [client.get(path).status_code for _ in range(times)]


def assert_rate_limited(client: TestClient, path: str) -> None:
    refused = client.get(path)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.headers["retry-after"] == str(RETRY_AFTER_S)
    assert f"try again in {RETRY_AFTER_S} s" in refused.json()["error"]["message"]


def test_unauthenticated_requests_are_limited_per_address(settings: Settings) -> None:
    limited = settings.model_copy(update={"rate_limit_ip_per_min": 3})
    app = create_app(limited)  # one app: the in-memory counters live in it
    first = TestClient(app, client=("10.0.0.1", 40000))
    assert statuses(first, ME, 3) == [401, 401, 401]
    assert_rate_limited(first, ME)
    assert_rate_limited(first, "/api/v1/public/reports/no-such-link")  # every route counts
    second = TestClient(app, client=("10.0.0.2", 40000))
    assert statuses(second, ME, 3) == [401, 401, 401]  # another address: its own budget
    assert_rate_limited(second, ME)
    assert first.get("/api/health").status_code == 200  # outside /api/v1: never limited


def test_tokens_are_limited_each_and_apart_from_the_address(settings: Settings) -> None:
    owner = member(settings, "lim@example.com", "Limits")
    one, two = api_token(settings, owner, ["read"]), api_token(settings, owner, ["read"])
    limited = settings.model_copy(
        update={"rate_limit_token_per_min": 4, "rate_limit_ip_per_min": 1}
    )
    app = create_app(limited)
    address = ("10.0.0.9", 40000)
    first = TestClient(app, client=address, headers={"Authorization": f"Bearer {one}"})
    second = TestClient(app, client=address, headers={"Authorization": f"Bearer {two}"})
    assert statuses(first, "/api/v1/workspaces", 4) == [200] * 4  # above the address's 1
    assert_rate_limited(first, "/api/v1/workspaces")
    assert statuses(second, "/api/v1/workspaces", 4) == [200] * 4  # the same address
    assert_rate_limited(second, "/api/v1/workspaces")
    anonymous = TestClient(app, client=address)
    assert anonymous.get(ME).status_code == 401  # the address's budget was not spent
    assert_rate_limited(anonymous, ME)


def test_a_session_cookie_is_limited_per_session(settings: Settings) -> None:
    owner = member(settings, "cookie-lim@example.com", "Limits")
    limited = settings.model_copy(update={"rate_limit_token_per_min": 3})
    client = TestClient(create_app(limited), client=("10.0.0.7", 40000))
    login = {"email": owner.email, "password": PASSWORD}
    assert client.post("/api/v1/auth/login", json=login).status_code == 200  # by address
    assert statuses(client, ME, 3) == [200] * 3
    assert_rate_limited(client, ME)


def test_guessed_tokens_are_held_to_the_address_budget(settings: Settings) -> None:
    owner = member(settings, "guess@example.com", "Limits")
    real = api_token(settings, owner, ["read"])
    limited = settings.model_copy(update={"rate_limit_ip_per_min": 3})
    app = create_app(limited)
    guesser = TestClient(app, client=("10.0.0.66", 40000))
    guesses = [
        guesser.get(ME, headers={"Authorization": f"Bearer hr_guess{i}"}).status_code
        for i in range(3)
    ]
    assert guesses == [401, 401, 401]  # each a new credential, yet counted by address
    guesser.headers["Authorization"] = "Bearer hr_guess-next"
    assert_rate_limited(guesser, ME)
    guesser.headers["Authorization"] = f"Bearer {real}"
    assert_rate_limited(guesser, ME)  # the address waits out the window, valid token or not
    del guesser.headers["Authorization"]
    assert guesser.get(ME).status_code == 401  # anonymous requests have their own budget
    elsewhere = TestClient(app, client=("10.0.0.67", 40000))
    elsewhere.headers["Authorization"] = f"Bearer {real}"
    assert elsewhere.get(ME).status_code == 200


def test_counters_in_redis_count_and_peek(redis_url: str) -> None:
    counter = RedisCounter(redis_url)
    key = f"test:{uuid.uuid4().hex}"
    assert counter.peek(key, 7) == 0
    assert [counter.hit(key, 7) for _ in range(3)] == [1, 2, 3]
    assert counter.peek(key, 7) == 3 and counter.peek(key, 8) == 0  # per window
    assert counter.peek(key, 7) == 3  # peeking does not count
