from datetime import datetime
from enum import StrEnum

from pydantic import JsonValue
from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow


class Visibility(StrEnum):
    private = "private"  # only the author sees it
    workspace = "workspace"  # every member of the workspace sees it


class Report(Base):
    """A saved, named view over results: a title, Markdown notes and ordered items."""

    __tablename__ = "report"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    title: Mapped[str] = mapped_column(String(200))
    notes_md: Mapped[str] = mapped_column(Text, default="")
    visibility: Mapped[str] = mapped_column(String(20), default=Visibility.workspace)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ReportItem(Base):
    """One chart-and-numbers part of a report, copied from its source result when added
    (`content`: figures, charts, params), so re-running the source never changes it."""

    __tablename__ = "report_item"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(ForeignKey("report.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    kind: Mapped[str] = mapped_column(String(30))
    source_id: Mapped[int]
    view: Mapped[str | None] = mapped_column(String(200))
    title: Mapped[str] = mapped_column(String(200))
    content: Mapped[dict[str, JsonValue]] = mapped_column(JSON)  # an ItemContent
    captured_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ShareLink(Base):
    """A public read-only link to a report; only the SHA-256 of its token is stored."""

    __tablename__ = "share_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(ForeignKey("report.id", ondelete="CASCADE"), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    view_count: Mapped[int] = mapped_column(default=0)
    last_viewed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
