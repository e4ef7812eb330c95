"""The gate of the upload routes. An upload's body may take minutes to arrive, so these
routes authenticate in a short transaction of their own and hold no database connection
while they read; they open another short one to register what arrived. Each credential
may run a few uploads at once (429 beyond that), and a body that stops arriving for
HEADROOM_UPLOAD_READ_TIMEOUT_S is refused (408)."""

from collections.abc import AsyncIterator, Iterator
from threading import Lock
from typing import Annotated

import anyio
from fastapi import Depends, Request

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.deps import SettingsDep, get_principal, require_role
from headroom.core.errors import HeadroomError
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


class UploadSlots:
    """Upload requests running per credential, in this API process."""

    def __init__(self) -> None:
        self._running: dict[str, int] = {}
        self._lock = Lock()

    def acquire(self, key: str, limit: int) -> bool:
        with self._lock:
            if 0 < limit <= self._running.get(key, 0):
                return False
            self._running[key] = self._running.get(key, 0) + 1
            return True

    def release(self, key: str) -> None:
        with self._lock:
            left = self._running.get(key, 0) - 1
            if left > 0:
                self._running[key] = left
            else:
                self._running.pop(key, None)

    def running(self, key: str) -> int:
        with self._lock:
            return self._running.get(key, 0)


def upload_principal(request: Request, settings: SettingsDep) -> Iterator[Principal]:
    with session_scope(settings.resolved_database_url()) as session:
        principal = get_principal(request, session)
    principal = require_role(Role.editor)(request, principal)
    key = f"token:{principal.token_id}" if principal.token_id else f"user:{principal.user.id}"
    slots: UploadSlots = request.app.state.upload_slots
    if not slots.acquire(key, settings.uploads_per_credential):
        raise TooManyUploads(settings.uploads_per_credential)
    try:
        yield principal
    finally:
        slots.release(key)


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
