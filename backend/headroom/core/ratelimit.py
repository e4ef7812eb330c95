"""Request rate limits: a fixed one-minute window per credential (API token or session
cookie) and per client address for requests without one. Credentials the API refuses
(401), and credentials sent to a route that does not check them (a public one) and not
accepted lately by another, are counted per address too, against a budget of the same
size; once an address has spent it, its credentialed requests wait for the next window as
well: otherwise every guessed token would open a fresh budget. Counters live in the API
process's memory, or in Redis (HEADROOM_RATE_LIMIT_REDIS_URL) when several API processes
must share them."""

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Protocol

from headroom.core.shared_counters import Fallback, connect

WINDOW_S = 60


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after_s: int


class Counter(Protocol):
    def hit(self, key: str, window: int) -> int:
        """Counts one request for `key` in minute `window`; returns the count so far."""
        ...

    def peek(self, key: str, window: int) -> int:
        """The count so far for `key` in minute `window`, without counting."""
        ...


class MemoryCounter:
    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, int]] = {}
        self._lock = Lock()

    def hit(self, key: str, window: int) -> int:
        with self._lock:
            seen_window, count = self._counts.get(key, (window, 0))
            count = count + 1 if seen_window == window else 1
            self._counts[key] = (window, count)
            if len(self._counts) > 100_000:  # forget idle keys: they are all from old windows
                self._counts = {k: v for k, v in self._counts.items() if v[0] == window}
            return count

    def peek(self, key: str, window: int) -> int:
        with self._lock:
            seen_window, count = self._counts.get(key, (window, 0))
            return count if seen_window == window else 0


class RedisCounter:
    def __init__(self, url: str) -> None:
        self._redis = connect(url)
        self._local = MemoryCounter()
        self._fallback = Fallback("rate limits")

    def hit(self, key: str, window: int) -> int:
        return self._fallback.call(
            lambda: self._shared_hit(key, window), lambda: self._local.hit(key, window)
        )

    def _shared_hit(self, key: str, window: int) -> int:
        name = f"headroom:rate:{key}:{window}"
        pipe = self._redis.pipeline()
        pipe.incr(name)
        pipe.expire(name, WINDOW_S * 2)
        count, _ = pipe.execute()
        return int(count)

    def peek(self, key: str, window: int) -> int:
        return self._fallback.call(
            lambda: int(self._redis.get(f"headroom:rate:{key}:{window}") or 0),
            lambda: self._local.peek(key, window),
        )


class RateLimiter:
    def __init__(
        self,
        counter: Counter,
        per_credential_per_min: int,
        per_ip_per_min: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.counter, self.clock = counter, clock
        self.limits = {"cred": per_credential_per_min, "ip": per_ip_per_min}
        self._marked: dict[str, int] = {}  # credential digest -> window this process marked

    def check(self, credential: str | None, client_ip: str) -> Verdict:
        if not credential:
            return self._count("ip", client_ip)
        refused = self._refusals_spent(client_ip)
        return refused if not refused.allowed else self._count("cred", _digest(credential))

    def count_refused(self, client_ip: str) -> None:
        """A credential the API refused: one more against the address's budget."""
        if self.limits["ip"] > 0:
            self.counter.hit(f"bad:{client_ip}", int(self.clock() // WINDOW_S))

    def mark_verified(self, credential: str) -> None:
        """The API accepted this credential (a route authenticated it); counted once a
        window per process (with shared counters, each count is a round trip to Redis)."""
        if self.limits["ip"] <= 0:
            return
        window, digest = int(self.clock() // WINDOW_S), _digest(credential)
        if self._marked.get(digest) != window:
            self.counter.hit(f"ok:{digest}", window)
            self._marked[digest] = window
            if len(self._marked) > 100_000:  # forget credentials of old windows
                self._marked = {k: v for k, v in self._marked.items() if v == window}

    def marked_lately(self, credential: str) -> bool:
        """Marked verified by this process in this window: marking it again is a no-op."""
        window = int(self.clock() // WINDOW_S)
        return self._marked.get(_digest(credential)) == window

    def is_verified(self, credential: str) -> bool:
        """Accepted in this window or the one before."""
        window, key = int(self.clock() // WINDOW_S), f"ok:{_digest(credential)}"
        return self.counter.peek(key, window) > 0 or self.counter.peek(key, window - 1) > 0

    def _count(self, kind: str, ident: str) -> Verdict:
        limit = self.limits[kind]
        if limit <= 0:
            return Verdict(True, 0)
        now = self.clock()
        window = int(now // WINDOW_S)
        count = self.counter.hit(f"{kind}:{ident}", window)
        return Verdict(count <= limit, _retry_after_s(now, window))

    def _refusals_spent(self, client_ip: str) -> Verdict:
        """Refused once the address has used up its budget on refused credentials."""
        limit = self.limits["ip"]
        if limit <= 0:
            return Verdict(True, 0)
        now = self.clock()
        window = int(now // WINDOW_S)
        count = self.counter.peek(f"bad:{client_ip}", window)
        return Verdict(count < limit, _retry_after_s(now, window))


def _retry_after_s(now: float, window: int) -> int:
    return int((window + 1) * WINDOW_S - now) + 1


def _digest(credential: str) -> str:
    return hashlib.sha256(credential.encode()).hexdigest()[:32]
