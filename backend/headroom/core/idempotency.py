"""Idempotency keys on POST: the first request with a key runs and its successful answer
is stored; a retry with the same key and the same request gets that answer again (the
operation does not run twice); the same key with another request is refused (422
`idempotency_key_reused`); while the first is still running a retry gets 409
`idempotency_in_progress`. Failed answers are not stored, so a retry runs again."""

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from headroom.core.db import session_scope
from headroom.core.idempotency_models import IdempotencyRecord

MAX_STORED_BYTES = 1024**2


@dataclass(frozen=True)
class Stored:
    status_code: int
    content_type: str | None
    body: bytes


@dataclass(frozen=True)
class Begun:
    """Exactly one of: new (run the request), stored (replay it), or a refusal code."""

    new: bool = False
    stored: Stored | None = None
    refusal: str | None = None


def scope_hash(credential: str, key: str) -> str:
    return hashlib.sha256(f"{credential}\0{key}".encode()).hexdigest()


def request_hash(method: str, path: str, query: str, body: bytes) -> str:
    digest = hashlib.sha256(f"{method} {path}?{query}\0".encode())
    digest.update(body)
    return digest.hexdigest()


def begin(url: str, scope: str, request: str, ttl_s: int) -> Begun:
    now = datetime.now(UTC)
    try:
        with session_scope(url) as session:
            session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.expires_at <= now))
            session.add(
                IdempotencyRecord(
                    scope_hash=scope,
                    request_hash=request,
                    expires_at=now + timedelta(seconds=ttl_s),
                )
            )
        return Begun(new=True)
    except IntegrityError:
        return _existing(url, scope, request)


def _existing(url: str, scope: str, request: str) -> Begun:
    with session_scope(url) as session:
        row = session.scalar(select(IdempotencyRecord).where(IdempotencyRecord.scope_hash == scope))
        if row is None:  # expired and purged in between: the caller may simply retry
            return Begun(refusal="idempotency_in_progress")
        if row.request_hash != request:
            return Begun(refusal="idempotency_key_reused")
        if row.status_code is None:
            return Begun(refusal="idempotency_in_progress")
        return Begun(stored=Stored(row.status_code, row.content_type, row.body or b""))


def finish(url: str, scope: str, answer: Stored) -> None:
    """Stores a successful answer; forgets the key otherwise, so that a retry runs again."""
    keep = 200 <= answer.status_code < 300 and len(answer.body) <= MAX_STORED_BYTES
    with session_scope(url) as session:
        row = session.scalar(select(IdempotencyRecord).where(IdempotencyRecord.scope_hash == scope))
        if row is None:
            return
        if not keep:
            session.delete(row)
            return
        row.status_code, row.content_type, row.body = (
            answer.status_code,
            answer.content_type,
            answer.body,
        )
