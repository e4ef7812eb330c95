from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from headroom.api.deps import EditorAccess, SessionDep, ViewerAccess
from headroom.core.errors import InvalidInput
from headroom.core.ids import Id
from headroom.reports import comparisons, export, service, sharing
from headroom.reports.markdown import render_notes
from headroom.reports.schemas import (
    Comparison,
    ItemIn,
    ItemKind,
    NotesIn,
    NotesOut,
    PublicReportOut,
    ReportIn,
    ReportOut,
    ReportPage,
    ReportUpdate,
    ShareLinkCreated,
    ShareLinkIn,
    ShareLinkOut,
)

router = APIRouter(tags=["reports"])
ExportFormat = Literal["html", "json", "csv"]
FORMAT_QUERY = Query(description="html: self-contained page; json: the numbers; csv: series")
SERIES_QUERY = Query(description="csv: one series by its file stem (default: a zip of all)")
EXPORT_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {
        "description": "The file (text/html, application/json, text/csv or application/zip)",
        "content": {"text/html": {}, "text/csv": {}, "application/zip": {}},
    }
}


@router.get("/reports", response_model=ReportPage)
def list_reports(
    principal: ViewerAccess,
    session: SessionDep,
    workspace_id: int | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> ReportPage:
    return service.list_page(session, principal, workspace_id, limit, offset)


@router.post("/reports", response_model=ReportOut, status_code=201)
def create_report(body: ReportIn, principal: EditorAccess, session: SessionDep) -> ReportOut:
    return service.to_out(session, principal, service.create(session, principal, body))


@router.post("/reports/notes-preview", response_model=NotesOut)
def preview_notes(body: NotesIn, _: EditorAccess) -> NotesOut:
    """The notes as the report will show them (the one renderer of app, link and export)."""
    return NotesOut(notes_html=render_notes(body.notes_md))


@router.get("/reports/{report_id}", response_model=ReportOut)
def get_report(report_id: Id, principal: ViewerAccess, session: SessionDep) -> ReportOut:
    return service.to_out(session, principal, service.get_visible(session, principal, report_id))


@router.patch("/reports/{report_id}", response_model=ReportOut)
def update_report(
    report_id: Id, body: ReportUpdate, principal: EditorAccess, session: SessionDep
) -> ReportOut:
    return service.to_out(session, principal, service.update(session, principal, report_id, body))


@router.delete("/reports/{report_id}", status_code=204)
def delete_report(report_id: Id, principal: EditorAccess, session: SessionDep) -> Response:
    service.delete(session, principal, report_id)
    return Response(status_code=204)


@router.post(
    "/reports/{report_id}/items",
    response_model=ReportOut,
    status_code=201,
    responses={409: {"description": "source_not_ready: its job has not succeeded"}},
)
def add_item(
    report_id: Id, body: ItemIn, principal: EditorAccess, session: SessionDep
) -> ReportOut:
    report = service.get_editable(session, principal, report_id)
    service.add_item(session, principal, report, body)
    return service.to_out(session, principal, report)


@router.delete("/reports/{report_id}/items/{item_id}", response_model=ReportOut)
def remove_item(
    report_id: Id, item_id: Id, principal: EditorAccess, session: SessionDep
) -> ReportOut:
    report = service.remove_item(session, principal, report_id, item_id)
    return service.to_out(session, principal, report)


@router.get("/reports/{report_id}/export", responses=EXPORT_RESPONSES)
def export_report(
    report_id: Id,
    principal: ViewerAccess,
    session: SessionDep,
    format: Annotated[ExportFormat, FORMAT_QUERY] = "html",
    series: Annotated[str | None, SERIES_QUERY] = None,
) -> Response:
    report = service.get_visible(session, principal, report_id)
    return _export(service.content(session, report), format, series)


@router.get("/reports/{report_id}/links", response_model=list[ShareLinkOut])
def list_links(report_id: Id, principal: ViewerAccess, session: SessionDep) -> list[ShareLinkOut]:
    return sharing.list_links(session, principal, report_id)


@router.post("/reports/{report_id}/links", response_model=ShareLinkCreated, status_code=201)
def create_link(
    report_id: Id, body: ShareLinkIn, principal: EditorAccess, session: SessionDep
) -> ShareLinkCreated:
    return sharing.create(session, principal, report_id, body)


@router.delete("/reports/{report_id}/links/{link_id}", response_model=ShareLinkOut)
def revoke_link(
    report_id: Id, link_id: Id, principal: EditorAccess, session: SessionDep
) -> ShareLinkOut:
    """Revoke: the link answers 404 from now on; it stays listed with its view count."""
    return sharing.revoke(session, principal, report_id, link_id)


@router.get("/public/reports/{token}", response_model=PublicReportOut, tags=["public"])
def public_report(token: str, session: SessionDep, response: Response) -> PublicReportOut:
    """A report through its public link (no sign-in); counts a view."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return sharing.view(session, token)


@router.get("/public/reports/{token}/export", responses=EXPORT_RESPONSES, tags=["public"])
def public_export(
    token: str,
    session: SessionDep,
    format: Annotated[ExportFormat, FORMAT_QUERY] = "html",
    series: Annotated[str | None, SERIES_QUERY] = None,
) -> Response:
    return _export(service.content(session, sharing.open_link(session, token)), format, series)


@router.get("/comparisons/reports", response_model=Comparison)
def compare_reports(a: int, b: int, principal: ViewerAccess, session: SessionDep) -> Comparison:
    """Two reports: items paired by kind (and class), figures with deltas, charts overlaid."""
    return comparisons.reports(session, principal, a, b)


@router.get("/comparisons/runs", response_model=Comparison)
def compare_runs(
    kind: ItemKind,
    a: int,
    b: int,
    principal: ViewerAccess,
    session: SessionDep,
    view: Annotated[str | None, Query(max_length=200)] = None,
) -> Comparison:
    """Two results of one kind as they are now: analyses, simulations, characterizations,
    or two datasets' traffic."""
    return comparisons.runs(session, principal, kind, a, b, view)


def _export(report: PublicReportOut, format: str, series: str | None) -> Response:
    name = f"report-{export.slug(report.title)}"
    if format == "html":
        return _file(export.to_html(report), "text/html; charset=utf-8", f"{name}.html")
    if format == "json":
        return _file(export.to_json(report), "application/json", f"{name}.json")
    if series is None:
        return _file(export.csv_zip(report), "application/zip", f"{name}-csv.zip")
    files = export.series_files(report)
    if series not in files:
        known = ", ".join(files) or "none"
        raise InvalidInput(
            "validation_error", f"no series {series!r} (known: {known})", field="series"
        )
    return _file(export.series_csv(*files[series]), "text/csv; charset=utf-8", f"{series}.csv")


def _file(body: str | bytes, media_type: str, filename: str) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    return Response(body, media_type=media_type, headers=headers)
