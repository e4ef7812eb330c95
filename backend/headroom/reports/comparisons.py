"""Comparisons read with the caller's rights: two reports, or two runs of one kind."""

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.reports import service, sources
from headroom.reports.compare import compare_contents, compare_reports
from headroom.reports.schemas import Comparison, ItemIn, ItemKind


def reports(session: Session, principal: Principal, a_id: int, b_id: int) -> Comparison:
    a = service.content(session, service.get_visible(session, principal, a_id))
    b = service.content(session, service.get_visible(session, principal, b_id))
    return compare_reports(a.title, b.title, a.items, b.items)


def runs(
    session: Session, principal: Principal, kind: ItemKind, a_id: int, b_id: int, view: str | None
) -> Comparison:
    """Both results as they are now (not saved); `view` picks a capacity class."""
    a = sources.capture(session, principal, ItemIn(kind=kind, source_id=a_id, view=view))
    b = sources.capture(session, principal, ItemIn(kind=kind, source_id=b_id, view=view))
    a_label, b_label = a.content.source_label, b.content.source_label
    item = compare_contents(kind, a.title, b.title, a.content, b.content)
    return Comparison(a_label=a_label, b_label=b_label, items=[item], only_in_a=[], only_in_b=[])
