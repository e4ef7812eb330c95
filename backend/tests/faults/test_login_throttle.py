"""The login throttle slows guessing without locking anyone out:
failures count per (account, address) with doubling delays capped at MAX_DELAY_S, an address
has a larger budget over all accounts, and X-Forwarded-For is read only from configured
proxies. The throttle's clock is a counter the test moves, so no test waits."""

import pytest
from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.auth.throttle import ADDRESS_BUDGET, FREE_FAILURES, MAX_DELAY_S, LoginThrottle
from headroom.core.settings import Settings
from support.factories import PASSWORD, member

pytestmark = pytest.mark.faults
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # in-process

LOGIN = "/api/v1/auth/login"


class Clock:
    def __init__(self) -> None:
        self.now_s = 1000.0

    def __call__(self) -> float:
        return self.now_s


def throttled_app(settings: Settings) -> tuple[TestClient, Clock]:
    app = create_app(settings.model_copy(update={"trusted_proxies": "10.0.0.1"}))
    clock = Clock()
    app.state.login_throttle = LoginThrottle(clock=clock)
    return TestClient(app, client=("10.9.9.9", 50000)), clock


def attempt(client: TestClient, email: str, password: str, via: str | None = None) -> int:
    headers = {"X-Forwarded-For": via} if via else {}
    body = {"email": email, "password": password}
    return client.post(LOGIN, json=body, headers=headers).status_code


def fail_many(client: TestClient, clock: Clock, email: str, times: int) -> None:
    """`times` wrong passwords, each after the delay the throttle asks for."""
    for _ in range(times):
        assert attempt(client, email, "wrong guess") in (401, 429)
        clock.now_s += MAX_DELAY_S + 1


@SQLITE
def test_failures_on_one_account_lock_out_neither_others_nor_the_owner(
    settings: Settings,
) -> None:
    member(settings, "victim@example.com", "Office")
    member(settings, "colleague@example.com", "Office")
    client, clock = throttled_app(settings)
    fail_many(client, clock, "victim@example.com", 11)  # more than the old limit of ten
    assert attempt(client, "colleague@example.com", PASSWORD) == 200  # same address
    assert attempt(client, "victim@example.com", "wrong") == 401
    assert attempt(client, "victim@example.com", PASSWORD) == 429  # waits, briefly
    clock.now_s += MAX_DELAY_S
    assert attempt(client, "victim@example.com", PASSWORD) == 200  # never locked out


@SQLITE
def test_delays_double_after_the_free_failures_and_are_capped(settings: Settings) -> None:
    member(settings, "slow@example.com", "Office")
    client, _ = throttled_app(settings)
    for _ in range(FREE_FAILURES):
        assert attempt(client, "slow@example.com", "wrong") == 401
    refused = client.post(LOGIN, json={"email": "slow@example.com", "password": PASSWORD})
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1"


@SQLITE
def test_forwarded_for_counts_only_from_a_configured_proxy(settings: Settings) -> None:
    member(settings, "nat@example.com", "Office")
    client, _ = throttled_app(settings)
    proxy = TestClient(client.app, client=("10.0.0.1", 50000))  # the configured proxy
    for _ in range(FREE_FAILURES):
        assert attempt(proxy, "nat@example.com", "wrong", via="203.0.113.5") == 401
    assert attempt(proxy, "nat@example.com", PASSWORD, via="203.0.113.5") == 429
    assert attempt(proxy, "nat@example.com", PASSWORD, via="198.51.100.7") == 200  # another
    for _ in range(FREE_FAILURES):  # a direct client cannot pick its address by the header
        assert attempt(client, "nat@example.com", "wrong", via=f"192.0.2.{_}") == 401
    assert attempt(client, "nat@example.com", PASSWORD, via="192.0.2.99") == 429


def test_an_address_has_a_larger_budget_over_all_accounts() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for i in range(ADDRESS_BUDGET):
        throttle.check(f"user{i}@example.com", "192.0.2.1")
        throttle.failed(f"user{i}@example.com", "192.0.2.1")
    with pytest.raises(Exception, match="too many failed sign-ins"):
        throttle.check("someone@example.com", "192.0.2.1")
    throttle.check("someone@example.com", "192.0.2.2")  # other addresses are not affected
