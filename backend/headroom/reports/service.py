"""Reports: create, read, edit (title, notes, visibility, items), delete; items are copied
from their sources when added. Viewers read; editors write. Never commits."""

from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.errors import InvalidInput, NotFound
from headroom.core.types import utcnow
from headroom.datasets.service import resolve_workspace
from headroom.reports import repository, sources
from headroom.reports.markdown import render_notes
from headroom.reports.models import Report, ReportItem
from headroom.reports.schemas import (
    ItemContent,
    ItemIn,
    PublicReportOut,
    ReportIn,
    ReportItemOut,
    ReportOut,
    ReportPage,
    ReportSummary,
    ReportUpdate,
)
from headroom.workspaces.models import Role

MAX_ITEMS = 50


def create(session: Session, principal: Principal, body: ReportIn) -> Report:
    workspace_id = resolve_workspace(principal, body.workspace_id)
    principal.require(workspace_id, Role.editor)
    report = Report(
        workspace_id=workspace_id,
        title=body.title,
        notes_md=body.notes_md,
        visibility=body.visibility,
        created_by_id=principal.user.id,
    )
    session.add(report)
    session.flush()
    for item in body.items:
        add_item(session, principal, report, item)
    return report


def get_visible(session: Session, principal: Principal, report_id: int) -> Report:
    report = repository.visible(session, principal.workspace_ids, principal.user.id, report_id)
    if report is None:
        raise NotFound(f"report {report_id} not found")
    return report


def get_editable(session: Session, principal: Principal, report_id: int) -> Report:
    report = get_visible(session, principal, report_id)
    principal.require(report.workspace_id, Role.editor)
    return report


def list_page(
    session: Session, principal: Principal, workspace_id: int | None, limit: int, offset: int
) -> ReportPage:
    scope = principal.workspace_ids
    if workspace_id is not None:
        principal.require(workspace_id, Role.viewer)
        scope = [workspace_id]
    rows, total = repository.page(session, scope, principal.user.id, limit, offset)
    counts = repository.item_counts(session, [r.id for r in rows])
    return ReportPage(items=[_summary(session, r, counts.get(r.id, 0)) for r in rows], total=total)


def update(session: Session, principal: Principal, report_id: int, body: ReportUpdate) -> Report:
    report = get_editable(session, principal, report_id)
    for field in ("title", "notes_md", "visibility"):
        value = getattr(body, field)
        if value is not None:
            setattr(report, field, value)
    if body.item_ids is not None:
        _keep_items(session, report, body.item_ids)
    report.updated_at = utcnow()
    return report


def _keep_items(session: Session, report: Report, item_ids: list[int]) -> None:
    current = {item.id: item for item in repository.items(session, report.id)}
    unknown = [i for i in item_ids if i not in current]
    if unknown or len(set(item_ids)) != len(item_ids):
        message = f"item_ids must name this report's items once each (unknown: {unknown})"
        raise InvalidInput("validation_error", message, field="item_ids")
    for position, item_id in enumerate(item_ids):
        current.pop(item_id).position = position
    for removed in current.values():
        session.delete(removed)


def delete(session: Session, principal: Principal, report_id: int) -> None:
    session.delete(get_editable(session, principal, report_id))


def add_item(session: Session, principal: Principal, report: Report, body: ItemIn) -> ReportItem:
    existing = repository.items(session, report.id)
    if len(existing) >= MAX_ITEMS:
        raise InvalidInput("too_many_items", f"a report holds at most {MAX_ITEMS} items")
    captured = sources.capture(session, principal, body)
    if captured.workspace_id != report.workspace_id:
        message = f"{body.kind} {body.source_id} belongs to another workspace than the report"
        raise InvalidInput("validation_error", message, field="source_id")
    item = ReportItem(
        report_id=report.id,
        position=max((i.position for i in existing), default=-1) + 1,
        kind=body.kind,
        source_id=body.source_id,
        view=captured.view,
        title=body.title or captured.title,
        content=captured.content.model_dump(mode="json"),
    )
    session.add(item)
    report.updated_at = utcnow()
    session.flush()
    return item


def remove_item(session: Session, principal: Principal, report_id: int, item_id: int) -> Report:
    report = get_editable(session, principal, report_id)
    item = next((i for i in repository.items(session, report.id) if i.id == item_id), None)
    if item is None:
        raise NotFound(f"report {report_id} has no item {item_id}")
    session.delete(item)
    report.updated_at = utcnow()
    return report


def item_out(item: ReportItem) -> ReportItemOut:
    return ReportItemOut(
        **ItemContent.model_validate(item.content).model_dump(),
        id=item.id,
        position=item.position,
        kind=item.kind,
        source_id=item.source_id,
        view=item.view,
        title=item.title,
        captured_at=item.captured_at,
    )


def content(session: Session, report: Report) -> PublicReportOut:
    """What anyone allowed to read the report sees, and what the exports hold."""
    return PublicReportOut(
        title=report.title,
        notes_html=render_notes(report.notes_md),
        updated_at=report.updated_at,
        items=[item_out(i) for i in repository.items(session, report.id)],
    )


def _summary(session: Session, report: Report, item_count: int) -> ReportSummary:
    creator = session.get(User, report.created_by_id) if report.created_by_id else None
    return ReportSummary(
        id=report.id,
        workspace_id=report.workspace_id,
        title=report.title,
        visibility=report.visibility,
        item_count=item_count,
        created_by=UserRef.model_validate(creator) if creator else None,
        created_at=report.created_at,
        updated_at=report.updated_at,
    )


def to_out(session: Session, principal: Principal, report: Report) -> ReportOut:
    session.flush()
    body = content(session, report)
    return ReportOut(
        **_summary(session, report, len(body.items)).model_dump(),
        notes_md=report.notes_md,
        notes_html=body.notes_html,
        items=body.items,
        can_edit=principal.allows(report.workspace_id, Role.editor),
    )
