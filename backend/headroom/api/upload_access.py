"""The gate of the upload routes. An upload's body may take minutes to arrive, so these
routes authenticate in a short transaction of their own and hold no database connection
while they read; they open another short one to register what arrived. Each credential
may run a few uploads at once (429 beyond that), and a body that stops arriving for
HEADROOM_UPLOAD_READ_TIMEOUT_S is refused (408)."""

import time
import uuid
from collections.abc import AsyncIterator, Iterator
from threading import Lock
from typing import Annotated, Protocol

import anyio
from fastapi import Depends, Request

from headroom.api.deps import SettingsDep, check_role, principal_of
from headroom.auth.principal import Principal
from headroom.core.errors import HeadroomError
from headroom.core.shared_counters import Fallback, connect
from headroom.workspaces.models import Role

RETRY_AFTER_S = 5


class TooManyUploads(HeadroomError):
    status_code, code = 429, "too_many_uploads"

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"{limit} uploads are already running with this credential; wait for one to end",
            detail={"uploads_per_credential": limit},
        )
        self.retry_after_s = RETRY_AFTER_S


class UploadTimeout(HeadroomError):
    status_code, code = 408, "upload_timeout"


class Slots(Protocol):
    def acquire(self, key: str, limit: int) -> str | None:
        """A slot's id, or None when `limit` (0: no limit) slots of `key` are taken."""
        ...

    def release(self, key: str, slot: str) -> None: ...


class UploadSlots:
    """Upload requests running per credential, in this API process."""

    def __init__(self) -> None:
        self._running: dict[str, int] = {}
        self._lock = Lock()

    def acquire(self, key: str, limit: int) -> str | None:
        with self._lock:
            if 0 < limit <= self._running.get(key, 0):
                return None
            self._running[key] = self._running.get(key, 0) + 1
            return key

    def release(self, key: str, slot: str) -> None:
        with self._lock:
            left = self._running.get(key, 0) - 1
            if left > 0:
                self._running[key] = left
            else:
                self._running.pop(key, None)


# Atomically: forget slots older than the lease, then take one if fewer than the limit run.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local limit = tonumber(ARGV[3])
if limit > 0 and redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


class RedisUploadSlots:
    """Upload requests running per credential, over every API process sharing the Redis.
    A slot whose process died without releasing it is forgotten after SLOT_LEASE_S."""

    SLOT_LEASE_S = 3600
    LOCAL = "local:"  # a slot taken in this process while Redis was unreachable

    def __init__(self, url: str) -> None:
        self._redis = connect(url)
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._local = UploadSlots()
        self._fallback = Fallback("upload limits")

    def acquire(self, key: str, limit: int) -> str | None:
        return self._fallback.call(
            lambda: self._shared_acquire(key, limit), lambda: self._local_acquire(key, limit)
        )

    def _shared_acquire(self, key: str, limit: int) -> str | None:
        slot = uuid.uuid4().hex
        args: list[float | str] = [time.time(), self.SLOT_LEASE_S, limit, slot]
        return slot if self._acquire(keys=[_slots_key(key)], args=args) else None

    def _local_acquire(self, key: str, limit: int) -> str | None:
        slot = self._local.acquire(key, limit)
        return None if slot is None else self.LOCAL + slot

    def release(self, key: str, slot: str) -> None:
        if slot.startswith(self.LOCAL):
            self._local.release(key, slot.removeprefix(self.LOCAL))
        else:  # a slot Redis no longer hears of is forgotten after its lease
            self._fallback.call(lambda: self._redis.zrem(_slots_key(key), slot), lambda: 0)


def _slots_key(key: str) -> str:
    return f"headroom:uploads:{key}"


def upload_principal(request: Request, settings: SettingsDep) -> Iterator[Principal]:
    principal = check_role(request, principal_of(request, settings), Role.editor)
    key = f"token:{principal.token_id}" if principal.token_id else f"user:{principal.user.id}"
    slots: Slots = request.app.state.upload_slots
    slot = slots.acquire(key, settings.uploads_per_credential)
    if slot is None:
        raise TooManyUploads(settings.uploads_per_credential)
    try:
        yield principal
    finally:
        slots.release(key, slot)


UploadAccess = Annotated[Principal, Depends(upload_principal, scope="function")]


async def body_chunks(request: Request, timeout_s: float) -> AsyncIterator[bytes]:
    """The request body, refused (408) when nothing arrives for `timeout_s` seconds."""
    chunks = request.stream().__aiter__()
    while True:
        try:
            with anyio.fail_after(timeout_s):
                chunk = await chunks.__anext__()
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise UploadTimeout(
                f"no bytes of the upload arrived for {timeout_s:g} s; send it again",
                detail={"read_timeout_s": timeout_s},
            ) from None
        yield chunk
