"""`headroom report create|list|export`: reports on a Headroom server (after `headroom
login`, or with HEADROOM_URL and HEADROOM_TOKEN). Exit codes: 0 done, 2 usage errors and
refusals by the server."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypedDict

import click
import httpx

from headroom.cli.options import Range
from headroom.cli.remote import fail
from headroom.client import remote

KINDS = ("capacity", "characterization", "simulation", "traffic", "sct", "sweep")


class ItemJson(TypedDict):  # reports.schemas' item to add, as JSON
    kind: str
    source_id: int
    view: str | None


def _item(spec: str) -> ItemJson:
    """KIND:ID, capacity:ID:CLASS or sct:ID:SERVER (traffic takes a dataset id; simulation
    a single run's id, sweep a sweep's)."""
    kind, _, rest = spec.partition(":")
    source, _, view = rest.partition(":")
    if kind not in KINDS or not source.isdigit():
        raise click.BadParameter(f"{spec!r}: expected KIND:ID[:VIEW], KIND one of {KINDS}")
    return {"kind": kind, "source_id": int(source), "view": view or None}


def _call(method: str, path: str, **kwargs: Any) -> httpx.Response:
    try:
        with remote.client(remote.load_credentials()) as http:
            response = http.request(method, path, **kwargs)
            if response.status_code >= 400:
                remote.checked(response)  # raises with the server's message
            return response
    except (remote.RemoteError, httpx.HTTPError) as error:
        fail(str(error))


@click.group()
def report() -> None:
    """Saved reports on a Headroom server."""


@report.command("create")
@click.option("--title", required=True)
@click.option(
    "--item",
    "items",
    multiple=True,
    help="KIND:ID[:VIEW] (VIEW: capacity class or SCT server), repeatable, in order.",
)
@click.option("--notes-file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--private", is_flag=True, help="Only you see it (default: the whole workspace).")
@click.option("--share", is_flag=True, help="Also create a public read-only link.")
@click.option("--expires-days", type=Range(int, 1, 3650, unit="days"), help="With --share.")
@click.option(
    "--workspace-id", type=Range(int, 1), default=None, help="Needed when you see several."
)
@click.option("--json", "as_json", is_flag=True, help="Print {id, title, items, link}.")
def create(
    title: str,
    items: tuple[str, ...],
    notes_file: Path | None,
    private: bool,
    share: bool,
    expires_days: int | None,
    workspace_id: int | None,
    as_json: bool,
) -> None:
    """Create a report from results (copied now: later re-runs do not change it)."""
    body = {
        "title": title,
        "items": [_item(spec) for spec in items],
        "notes_md": notes_file.read_text() if notes_file else "",
        "visibility": "private" if private else "workspace",
        "workspace_id": workspace_id,
    }
    created = _call("POST", "/api/v1/reports", json=body).json()
    link = _share(created["id"], expires_days) if share else None
    if as_json:
        out = {"id": created["id"], "title": created["title"], "items": len(created["items"])}
        click.echo(json.dumps({**out, "link": link}))
        return
    click.echo(f"report {created['id']} '{created['title']}' with {len(created['items'])} items")
    if link:
        click.echo(f"public link: {link}")


def _share(report_id: int, expires_days: int | None) -> str:
    expires_at = None
    if expires_days is not None:
        expires_at = (datetime.now(UTC) + timedelta(days=expires_days)).isoformat()
    created = _call("POST", f"/api/v1/reports/{report_id}/links", json={"expires_at": expires_at})
    return remote.load_credentials().url + created.json()["path"]


@report.command("list")
@click.option("--workspace-id", type=Range(int, 1), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the API's page of reports.")
def list_reports(workspace_id: int | None, as_json: bool) -> None:
    """The reports you can see, most recently updated first."""
    query = {"limit": 200} | ({"workspace_id": workspace_id} if workspace_id else {})
    page = _call("GET", "/api/v1/reports", params=query).json()
    if as_json:
        click.echo(json.dumps(page))
        return
    for r in page["items"]:
        click.echo(
            f"{r['id']:>6}  {r['updated_at'][:16]}  {r['item_count']:>3} items  {r['title']}"
        )


@report.command("export")
@click.argument("report_id", type=Range(int, 1))
@click.option("--format", "fmt", type=click.Choice(["html", "json", "csv"]), default="html")
@click.option("--series", help="csv: one series by its file stem (default: a zip of all).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
def export(report_id: int, fmt: str, series: str | None, output: Path) -> None:
    """Download a report as a self-contained HTML page, JSON, or CSV."""
    query = {"format": fmt} | ({"series": series} if series else {})
    response = _call("GET", f"/api/v1/reports/{report_id}/export", params=query)
    output.write_bytes(response.content)
    click.echo(f"wrote {output} ({len(response.content):,} bytes)")


COMMANDS = (report,)
