"""Resolved principals kept per credential for a few seconds, in this process, so that a
read does not spend most of its time authenticating (token, user and memberships).

A change to who may do what (a token revoked, a role changed, a member removed, a user
disabled, a session ended) clears the cache as soon as its transaction commits in this
process; another API process sees it within PRINCIPAL_TTL_S at most. Entries are plain
values (auth.principal.Caller, not ORM rows): nothing cached holds a database session.
"""

import time
from collections.abc import Callable
from datetime import UTC, datetime
from threading import Lock
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import ORMExecuteState, Session

from headroom.auth.models import ApiToken, User, UserSession
from headroom.auth.principal import Principal
from headroom.workspaces.models import Membership, Workspace

PRINCIPAL_TTL_S = 5.0
MAX_ENTRIES = 10_000
# rows whose change alters a principal: their commit clears the cache
_WATCHED = (ApiToken, User, UserSession, Membership, Workspace)
_CHANGED = "headroom_principals_changed"


class PrincipalCache:
    def __init__(
        self,
        ttl_s: float = PRINCIPAL_TTL_S,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.ttl_s, self._clock, self._wall_clock = ttl_s, clock, wall_clock
        self._entries: dict[str, tuple[float, Principal]] = {}
        self._generation = 0
        self._lock = Lock()

    @property
    def generation(self) -> int:
        """Read before resolving a principal, given back to `put`: an entry resolved while
        a change committed is not kept (it may predate the change)."""
        return self._generation

    def get(self, key: str) -> Principal | None:
        """The principal resolved for `key` less than the TTL ago, while its credential
        has not expired."""
        entry = self._entries.get(key)
        if entry is None or entry[0] <= self._clock():
            return None
        expires_at = entry[1].expires_at
        if expires_at is not None and expires_at <= self._wall_clock():
            return None
        return entry[1]

    def put(self, key: str, principal: Principal, generation: int) -> None:
        if self.ttl_s <= 0:
            return
        with self._lock:
            if generation != self._generation:
                return
            if len(self._entries) >= MAX_ENTRIES:
                self._entries.clear()
            self._entries[key] = (self._clock() + self.ttl_s, principal)

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._entries.clear()


principals = PrincipalCache()


@event.listens_for(Session, "after_flush")
def _note_changes(session: Session, _context: Any) -> None:
    rows = (*session.new, *session.deleted, *(r for r in session.dirty if not _only_used(r)))
    if any(isinstance(row, _WATCHED) for row in rows):
        session.info[_CHANGED] = True


def _only_used(row: object) -> bool:
    """A token whose last use alone was recorded: nothing a principal holds changed."""
    if not isinstance(row, ApiToken):
        return False
    changed = {a.key for a in inspect(row).attrs if a.history.has_changes()}
    return changed <= {"last_used_at"}


@event.listens_for(Session, "do_orm_execute")
def _note_bulk_changes(state: ORMExecuteState) -> None:
    mapper = state.bind_mapper
    if (state.is_update or state.is_delete) and mapper and issubclass(mapper.class_, _WATCHED):
        state.session.info[_CHANGED] = True


@event.listens_for(Session, "after_commit")
def _forget_principals(session: Session) -> None:
    if session.info.pop(_CHANGED, False):
        principals.clear()


@event.listens_for(Session, "after_rollback")
def _keep_principals(session: Session) -> None:
    session.info.pop(_CHANGED, None)
