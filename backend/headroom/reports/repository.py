"""All report SQL. Reads are scoped by the caller's workspaces, and a private report by its
author, so a missed check in a service cannot leak one."""

from datetime import datetime

from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.orm import Session

from headroom.reports.models import Report, ReportItem, ShareLink, Visibility


def _scope(workspace_ids: list[int], user_id: int) -> ColumnElement[bool]:
    return Report.workspace_id.in_(workspace_ids) & or_(
        Report.visibility == Visibility.workspace, Report.created_by_id == user_id
    )


def visible(
    session: Session, workspace_ids: list[int], user_id: int, report_id: int
) -> Report | None:
    return session.scalar(
        select(Report).where(Report.id == report_id, _scope(workspace_ids, user_id))
    )


def page(
    session: Session, workspace_ids: list[int], user_id: int, limit: int, offset: int
) -> tuple[list[Report], int]:
    scope = _scope(workspace_ids, user_id)
    rows = session.scalars(
        select(Report)
        .where(scope)
        .order_by(Report.updated_at.desc(), Report.id.desc())
        .limit(limit)
        .offset(offset)
    )
    total = session.scalar(select(func.count()).select_from(Report).where(scope)) or 0
    return list(rows), total


def item_counts(session: Session, report_ids: list[int]) -> dict[int, int]:
    rows = session.execute(
        select(ReportItem.report_id, func.count())
        .where(ReportItem.report_id.in_(report_ids))
        .group_by(ReportItem.report_id)
    )
    return {report_id: count for report_id, count in rows}


def items(session: Session, report_id: int) -> list[ReportItem]:
    return list(
        session.scalars(
            select(ReportItem)
            .where(ReportItem.report_id == report_id)
            .order_by(ReportItem.position, ReportItem.id)
        )
    )


def links(session: Session, report_id: int) -> list[ShareLink]:
    query = select(ShareLink).where(ShareLink.report_id == report_id).order_by(ShareLink.id.desc())
    return list(session.scalars(query))


def link(session: Session, report_id: int, link_id: int) -> ShareLink | None:
    return session.scalar(
        select(ShareLink).where(ShareLink.id == link_id, ShareLink.report_id == report_id)
    )


def link_by_digest(session: Session, digest: str) -> ShareLink | None:
    return session.scalar(select(ShareLink).where(ShareLink.token_sha256 == digest))


def count_view(session: Session, link_id: int, now: datetime) -> None:
    """Atomic in the database, so concurrent views are all counted."""
    session.execute(
        update(ShareLink)
        .where(ShareLink.id == link_id)
        .values(view_count=ShareLink.view_count + 1, last_viewed_at=now)
    )
