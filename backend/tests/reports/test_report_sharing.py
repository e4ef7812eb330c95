"""Public links (token lifecycle, view counter, expiry, revocation, nothing but the report)
and exports (HTML, JSON, CSV) with hostile titles, notes and labels coming out inert."""

import csv
import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient
from reports.report_sources import Documents, Planted, plant
from sqlalchemy import select, update

from headroom.api.app import create_app
from headroom.core.db import session_scope
from headroom.core.security import token_digest
from headroom.core.settings import Settings
from headroom.reports.models import ShareLink
from support.factories import Member, member, signed_in

HOSTILE_TITLE = '<script>alert(1)</script>"><img src=x onerror=alert(1)>'
HOSTILE_NOTES = '"><img onerror=alert(1)> [x](javascript:alert(1)) <script>alert(2)</script>'
HOSTILE_CLASS = '=HYPERLINK("http://evil.example","click")'


@pytest.fixture
def owner(settings: Settings) -> Member:
    return member(settings, "owner@example.com", "Team")


@pytest.fixture
def report(settings: Settings, documents: Documents, owner: Member) -> dict[str, Any]:
    """A report with every kind of item; the simulation's class has a formula for a name."""
    classes = [{**documents.simulation["classes"][0], "name": HOSTILE_CLASS}] * 2
    hostile = Documents(
        **{**documents.__dict__, "simulation": {**documents.simulation, "classes": classes}}
    )
    planted: Planted = plant(settings, hostile, owner.workspace_id)
    items = [
        {"kind": "capacity", "source_id": planted.analysis_id, "title": HOSTILE_TITLE},
        {"kind": "characterization", "source_id": planted.characterization_id},
        {"kind": "simulation", "source_id": planted.simulation_id},
        {"kind": "traffic", "source_id": planted.dataset_id},
    ]
    body = {"title": HOSTILE_TITLE, "notes_md": HOSTILE_NOTES, "items": items}
    response = signed_in(settings, owner).post("/api/v1/reports", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def anonymous(settings: Settings) -> TestClient:
    return TestClient(create_app(settings))


def test_a_public_link_lives_counts_views_and_dies_when_revoked(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    client = signed_in(settings, owner)
    links = f"/api/v1/reports/{report['id']}/links"
    created = client.post(links, json={}).json()
    token = created["token"]
    assert len(token) >= 43 and created["path"] == f"/r/{token}"  # 32 random bytes
    assert created["status"] == "active" and created["view_count"] == 0
    with session_scope(settings.resolved_database_url()) as session:
        stored = session.scalars(select(ShareLink)).one()
        assert stored.token_sha256 == token_digest(token) and token not in stored.token_sha256
    public = anonymous(settings)
    for _ in range(3):
        page = public.get(f"/api/v1/public/reports/{token}")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert set(page.json()) == {"title", "notes_html", "updated_at", "items"}
    assert page.json()["items"] == report["items"]
    assert public.get(f"/api/v1/public/reports/{token}/export?format=json").status_code == 200
    listed = client.get(links).json()
    assert [(link["status"], link["view_count"]) for link in listed] == [
        ("active", 3)
    ]  # exports don't count
    assert "token" not in listed[0]
    revoked = client.delete(f"{links}/{created['id']}").json()
    assert revoked["status"] == "revoked" and revoked["view_count"] == 3
    for path in (f"/api/v1/public/reports/{token}", f"/api/v1/public/reports/{token}/export"):
        gone = public.get(path)
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
    assert public.get(f"/api/v1/public/reports/{token[:-1]}x").status_code == 404


def test_expired_links_are_not_found_and_past_expiries_refused(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    client = signed_in(settings, owner)
    links = f"/api/v1/reports/{report['id']}/links"
    soon = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    created = client.post(links, json={"expires_at": soon}).json()
    assert anonymous(settings).get(f"/api/v1/public/reports/{created['token']}").status_code == 200
    with session_scope(settings.resolved_database_url()) as session:
        past = datetime.now(UTC) - timedelta(seconds=1)
        session.execute(update(ShareLink).values(expires_at=past))
    assert anonymous(settings).get(f"/api/v1/public/reports/{created['token']}").status_code == 404
    assert client.get(links).json()[0]["status"] == "expired"
    yesterday = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    refused = client.post(links, json={"expires_at": yesterday})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "expires_at"


def test_deleting_the_report_kills_its_links(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    client = signed_in(settings, owner)
    token = client.post(f"/api/v1/reports/{report['id']}/links", json={}).json()["token"]
    assert client.delete(f"/api/v1/reports/{report['id']}").status_code == 204
    assert anonymous(settings).get(f"/api/v1/public/reports/{token}").status_code == 404


class Inspector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(attrs)


def test_html_export_is_self_contained_and_inert(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    response = signed_in(settings, owner).get(f"/api/v1/reports/{report['id']}/export")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "attachment" in response.headers["content-disposition"]
    page = Inspector()
    page.feed(response.text)
    assert "script" not in page.tags and "img" not in page.tags and "iframe" not in page.tags
    assert not [name for name, _ in page.attributes if name.startswith("on")]
    links = [v or "" for name, v in page.attributes if name in ("href", "src", "xlink:href")]
    assert all(v.startswith(("http://www.w3.org", "https:", "mailto:")) for v in links), links
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text
    assert page.tags.count("svg") == sum(len(i["charts"]) for i in report["items"])
    assert "Content-Security-Policy" in response.text


def test_json_export_holds_the_numbers(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    response = signed_in(settings, owner).get(f"/api/v1/reports/{report['id']}/export?format=json")
    document = json.loads(response.text)
    assert document["title"] == HOSTILE_TITLE and document["items"] == report["items"]


def test_csv_exports_every_series_with_formulas_neutralised(
    settings: Settings, owner: Member, report: dict[str, Any]
) -> None:
    client = signed_in(settings, owner)
    url = f"/api/v1/reports/{report['id']}/export?format=csv"
    archive = zipfile.ZipFile(io.BytesIO(client.get(url).content))
    expected = sum(len(c["series"]) for i in report["items"] for c in i["charts"])
    assert len(archive.namelist()) == expected and "01-knee-measured.csv" in archive.namelist()
    for name in archive.namelist():
        rows = list(csv.reader(io.StringIO(archive.read(name).decode())))
        assert not [cell for row in rows for cell in row if cell.startswith(("=", "+", "@"))]
    cdf = next(n for n in archive.namelist() if "latency-cdf-class-0" in n)
    header = next(csv.reader(io.StringIO(archive.read(cdf).decode())))
    assert header == ["latency (s)", "'" + HOSTILE_CLASS + " (fraction)"]
    one = client.get(f"{url}&series=01-knee-measured")
    assert one.headers["content-type"].startswith("text/csv")
    knee = report["items"][0]["charts"][0]["series"][0]
    rows = list(csv.reader(io.StringIO(one.text)))[1:]
    assert [(float(x), float(y)) for x, y in rows] == list(zip(knee["x"], knee["y"], strict=True))
    unknown = client.get(f"{url}&series=nope")
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "series"
