"""Login brute-force throttling: after too many failures for one e-mail or one client
address within a window, further attempts are refused with 429 until the window passes.

Kept in the API process's memory: enough to make password guessing impractical; a restart
forgets, which only ever helps a legitimate user."""

import time
from collections import defaultdict, deque
from threading import Lock

from headroom.core.errors import HeadroomError


class TooManyAttempts(HeadroomError):
    status_code, code = 429, "too_many_attempts"

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            f"too many failed sign-ins; try again in {retry_after_s} s",
            detail={"retry_after_s": retry_after_s},
        )
        self.retry_after_s = retry_after_s


class LoginThrottle:
    def __init__(self, max_failures: int = 10, window_s: float = 900.0) -> None:
        self.max_failures, self.window_s = max_failures, window_s
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = Lock()

    def check(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                recent = self._recent(key, now)
                if len(recent) >= self.max_failures:
                    raise TooManyAttempts(int(recent[0] + self.window_s - now) + 1)

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures[key]
        while times and times[0] <= now - self.window_s:
            times.popleft()
        return times
