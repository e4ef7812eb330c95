"""Login brute-force throttling that locks nobody out.

Failures are counted per (account, client address): after a few free ones, each further
attempt from that address on that account waits a delay that doubles with every failure,
up to MAX_DELAY_S, so guessing is slow while the account's owner, elsewhere or after a
short wait, still signs in. An address also has a larger budget of failures over all
accounts (one office behind a NAT shares it). The client address is the connection's, or
X-Forwarded-For's when the connection comes from a configured proxy
(HEADROOM_TRUSTED_PROXIES).

Kept in the API process's memory (a restart forgets, which only ever helps a legitimate
user), or in Redis when the API processes share counters (core.settings, counters_url).
"""

import hashlib
import math
import time
import uuid
from collections import defaultdict, deque
from collections.abc import Callable
from threading import Lock

from headroom.core.errors import HeadroomError
from headroom.core.shared_counters import Fallback, connect

FREE_FAILURES = 3  # per (account, address), before any delay
MAX_DELAY_S = 30.0  # the longest a correct password can be refused for
ADDRESS_BUDGET = 100  # failures per address over all accounts, per window
WINDOW_S = 900.0


class TooManyAttempts(HeadroomError):
    status_code, code = 429, "too_many_attempts"

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            f"too many failed sign-ins; try again in {retry_after_s} s",
            detail={"retry_after_s": retry_after_s},
        )
        self.retry_after_s = retry_after_s


def delay_s(failures: int) -> float:
    """The wait before the next attempt after `failures` failures in a row."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(2.0 ** (failures - FREE_FAILURES), MAX_DELAY_S)


class LoginThrottle:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._pairs: dict[tuple[str, str], tuple[int, float]] = {}
        self._addresses: dict[str, deque[float]] = defaultdict(deque)
        self._lock = Lock()

    def check(self, account: str, address: str) -> None:
        now = self.clock()
        with self._lock:
            failures, last = self._pair(account, address, now)
            wait = last + delay_s(failures) - now
            if failures and wait > 0:
                raise TooManyAttempts(math.ceil(wait))
            recent = self._recent(address, now)
            if len(recent) >= ADDRESS_BUDGET:
                raise TooManyAttempts(math.ceil(recent[0] + WINDOW_S - now))

    def failed(self, account: str, address: str) -> None:
        now = self.clock()
        with self._lock:
            failures, _ = self._pair(account, address, now)
            self._pairs[(account, address)] = (failures + 1, now)
            self._recent(address, now).append(now)

    def succeeded(self, account: str, address: str) -> None:
        with self._lock:
            self._pairs.pop((account, address), None)

    def _pair(self, account: str, address: str, now: float) -> tuple[int, float]:
        failures, last = self._pairs.get((account, address), (0, now))
        return (0, now) if now - last > WINDOW_S else (failures, last)

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._addresses[address]
        while times and times[0] <= now - WINDOW_S:
            times.popleft()
        return times


class RedisLoginThrottle:
    """LoginThrottle's rules, with the counts in Redis so that every API process sees them.
    Its clock is the wall clock: several processes (or hosts) share it."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self._redis = connect(url)
        self.clock = clock
        self._local = LoginThrottle(clock)
        self._fallback = Fallback("login throttle")

    def check(self, account: str, address: str) -> None:
        self._fallback.call(
            lambda: self._shared_check(account, address),
            lambda: self._local.check(account, address),
        )

    def _shared_check(self, account: str, address: str) -> None:
        now = self.clock()
        failures, last = self._redis.hmget(_pair_key(account, address), "failures", "last")
        wait = float(last or now) + delay_s(int(failures or 0)) - now
        if failures and wait > 0:
            raise TooManyAttempts(math.ceil(wait))
        key = _address_key(address)
        pipe = self._redis.pipeline()
        pipe.zremrangebyscore(key, "-inf", now - WINDOW_S)
        pipe.zcard(key)
        pipe.zrange(key, 0, 0, withscores=True)
        _, count, oldest = pipe.execute()
        if count >= ADDRESS_BUDGET:
            raise TooManyAttempts(math.ceil(oldest[0][1] + WINDOW_S - now))

    def failed(self, account: str, address: str) -> None:
        self._fallback.call(
            lambda: self._shared_failed(account, address),
            lambda: self._local.failed(account, address),
        )

    def _shared_failed(self, account: str, address: str) -> None:
        now, pair, key = self.clock(), _pair_key(account, address), _address_key(address)
        pipe = self._redis.pipeline()
        pipe.hincrby(pair, "failures", 1)
        pipe.hset(pair, "last", now)
        pipe.expire(pair, int(WINDOW_S))  # forgotten a window after the last failure
        pipe.zadd(key, {uuid.uuid4().hex: now})
        pipe.expire(key, int(WINDOW_S))
        pipe.execute()

    def succeeded(self, account: str, address: str) -> None:
        self._local.succeeded(account, address)
        self._fallback.call(lambda: self._redis.delete(_pair_key(account, address)), lambda: 0)


def _pair_key(account: str, address: str) -> str:
    digest = hashlib.sha256(f"{account}\n{address}".encode()).hexdigest()[:32]
    return f"headroom:login:pair:{digest}"


def _address_key(address: str) -> str:
    return f"headroom:login:address:{address}"


def client_address(peer: str, forwarded_for: str | None, trusted_proxies: frozenset[str]) -> str:
    """The caller's address: the rightmost X-Forwarded-For entry not one of our proxies,
    when the connection comes from one of them; otherwise the connection's peer."""
    if peer not in trusted_proxies or not forwarded_for:
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if hop not in trusted_proxies:
            return hop
    return peer
