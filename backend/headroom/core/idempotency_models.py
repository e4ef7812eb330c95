from datetime import datetime

from sqlalchemy import LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow


class IdempotencyRecord(Base):
    """The stored answer to a POST sent with an Idempotency-Key header.

    `scope_hash` is sha256(credential, key): two callers never share a key. A row with no
    status is a request still in progress."""

    __tablename__ = "idempotency_record"

    id: Mapped[int] = mapped_column(primary_key=True)
    scope_hash: Mapped[str] = mapped_column(String(64), unique=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None]
    content_type: Mapped[str | None] = mapped_column(String(200))
    body: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
