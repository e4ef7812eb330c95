"""`headroom report create|list|export` against the real app (in-process) with an API token."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from reports.report_sources import Documents, plant
from reports.sct_sweep_sources import load_sct_sweep, plant_sct_sweep

from headroom.api.app import create_app
from headroom.cli import main
from headroom.client import remote
from headroom.core.settings import Settings
from support.factories import api_token, member


@pytest.fixture
def server(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> str:
    owner = member(settings, "ci@example.com", "CI")
    token = api_token(settings, owner, ["write"])
    credentials = remote.Credentials("http://testserver", token)
    monkeypatch.setattr(remote, "load_credentials", lambda: credentials)

    def client(given: remote.Credentials) -> TestClient:
        return TestClient(create_app(settings), headers={"Authorization": f"Bearer {given.token}"})

    monkeypatch.setattr(remote, "client", client)
    return str(owner.workspace_id)


def test_create_list_and_export(
    settings: Settings, documents: Documents, server: str, tmp_path: Path
) -> None:
    planted = plant(settings, documents, int(server))
    notes = tmp_path / "notes.md"
    notes.write_text("Release *4.2*")
    args = [
        "report",
        "create",
        "--title",
        "Release 4.2",
        "--notes-file",
        str(notes),
        "--item",
        f"capacity:{planted.analysis_id}:all",
        "--item",
        f"traffic:{planted.dataset_id}",
        "--share",
        "--expires-days",
        "7",
        "--json",
    ]
    created = CliRunner().invoke(main, args)
    assert created.exit_code == 0, created.output
    out = json.loads(created.output)
    assert out["items"] == 2 and out["link"].startswith("http://testserver/r/")
    listed = CliRunner().invoke(main, ["report", "list", "--json"])
    assert json.loads(listed.output)["items"][0]["title"] == "Release 4.2"
    target = tmp_path / "r.html"
    exported = CliRunner().invoke(main, ["report", "export", str(out["id"]), "-o", str(target)])
    assert exported.exit_code == 0 and "Release 4.2" in target.read_text()


def test_bad_items_and_refusals_exit_2(settings: Settings, server: str) -> None:
    bad = CliRunner().invoke(main, ["report", "create", "--title", "x", "--item", "nope:1"])
    assert bad.exit_code == 2 and "KIND:ID" in bad.output
    missing = CliRunner().invoke(
        main, ["report", "create", "--title", "x", "--item", "capacity:99"]
    )
    assert missing.exit_code == 2 and "analysis 99 not found" in missing.output


def test_sct_and_sweep_items(settings: Settings, server: str) -> None:
    planted = plant_sct_sweep(settings, load_sct_sweep(), int(server))
    items = ["--item", f"sct:{planted.sct_id}:app-2", "--item", f"sweep:{planted.sweep_id}"]
    args = ["report", "create", "--title", "Pools", *items, "--json"]
    created = CliRunner().invoke(main, args)
    assert created.exit_code == 0, created.output
    assert json.loads(created.output)["items"] == 2
    wrong = ["report", "create", "--title", "x", "--item", f"simulation:{planted.sweep_id}"]
    refused = CliRunner().invoke(main, wrong)
    assert refused.exit_code == 2 and "is a sweep: add it with kind 'sweep'" in refused.output
