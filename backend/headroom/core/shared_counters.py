"""Counters shared by API processes through Redis fall back to the process's own while
Redis is unreachable: an outage of the broker's Redis must neither fail nor stall a request.
Meanwhile each limit is counted per process, and a warning says so once a minute."""

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
REDIS_TIMEOUT_S = 1.0  # a Redis that accepts connections and never answers
WARN_EVERY_S = 60.0
log = logging.getLogger("headroom.counters")


def connect(url: str) -> Any:
    import redis

    return redis.Redis.from_url(
        url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S
    )


class Fallback:
    def __init__(self, what: str) -> None:
        self.what = what
        self._warned_at = -WARN_EVERY_S

    def call(self, shared: Callable[[], T], local: Callable[[], T]) -> T:
        import redis

        try:
            return shared()
        except (redis.RedisError, OSError) as error:
            now = time.monotonic()
            if now - self._warned_at >= WARN_EVERY_S:
                self._warned_at = now
                log.warning("%s: Redis unreachable (%s); counted in this process", self.what, error)
            return local()
