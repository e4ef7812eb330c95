"""Public read-only links: an unguessable token shown once (only its SHA-256 is stored),
optional expiry, revocable, with a view counter. Revoked, expired or unknown: 404."""

from datetime import datetime

from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.errors import InvalidInput, NotFound
from headroom.core.security import new_token, same_digest, token_digest
from headroom.core.types import utcnow
from headroom.reports import repository, service
from headroom.reports.models import Report, ShareLink
from headroom.reports.schemas import PublicReportOut, ShareLinkCreated, ShareLinkIn, ShareLinkOut

PUBLIC_PATH = "/r/"
GONE = "this link does not exist, has expired or was revoked"


def status(link: ShareLink, now: datetime) -> str:
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at is not None and link.expires_at <= now:
        return "expired"
    return "active"


def create(
    session: Session, principal: Principal, report_id: int, body: ShareLinkIn
) -> ShareLinkCreated:
    report = service.get_editable(session, principal, report_id)
    now = utcnow()
    if body.expires_at is not None and (body.expires_at.tzinfo is None or body.expires_at <= now):
        message = "expires_at must be a future time with a time zone (e.g. ...Z)"
        raise InvalidInput("validation_error", message, field="expires_at")
    token = new_token()
    link = ShareLink(
        report_id=report.id,
        token_sha256=token_digest(token),
        created_by_id=principal.user.id,
        expires_at=body.expires_at,
    )
    session.add(link)
    session.flush()
    return ShareLinkCreated(
        **to_out(session, link).model_dump(), token=token, path=PUBLIC_PATH + token
    )


def list_links(session: Session, principal: Principal, report_id: int) -> list[ShareLinkOut]:
    report = service.get_visible(session, principal, report_id)
    return [to_out(session, link) for link in repository.links(session, report.id)]


def revoke(session: Session, principal: Principal, report_id: int, link_id: int) -> ShareLinkOut:
    report = service.get_editable(session, principal, report_id)
    link = repository.link(session, report.id, link_id)
    if link is None:
        raise NotFound(f"report {report_id} has no share link {link_id}")
    if link.revoked_at is None:
        link.revoked_at = utcnow()
    return to_out(session, link)


def _live(session: Session, token: str) -> tuple[ShareLink, Report]:
    """404 alike for unknown, revoked and expired links."""
    digest = token_digest(token)
    link = repository.link_by_digest(session, digest)
    report = session.get(Report, link.report_id) if link is not None else None
    if link is None or report is None or not same_digest(link.token_sha256, digest):
        raise NotFound(GONE)
    if status(link, utcnow()) != "active":
        raise NotFound(GONE)
    return link, report


def open_link(session: Session, token: str) -> Report:
    """The report behind a live link (the exports: not counted as views)."""
    return _live(session, token)[1]


def view(session: Session, token: str) -> PublicReportOut:
    """The public page: counts one view."""
    link, report = _live(session, token)
    repository.count_view(session, link.id, utcnow())
    return service.content(session, report)


def to_out(session: Session, link: ShareLink) -> ShareLinkOut:
    creator = session.get(User, link.created_by_id) if link.created_by_id else None
    return ShareLinkOut(
        id=link.id,
        status=status(link, utcnow()),
        created_at=link.created_at,
        created_by=UserRef.model_validate(creator) if creator else None,
        expires_at=link.expires_at,
        revoked_at=link.revoked_at,
        view_count=link.view_count,
        last_viewed_at=link.last_viewed_at,
    )
