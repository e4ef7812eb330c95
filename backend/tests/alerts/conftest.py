"""A workspace with an owner, an editor and a viewer, another workspace's owner, and two
ingested datasets: one without a capacity analysis, one with a finished one."""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from fastapi.testclient import TestClient

from headroom.analyses.run import capacity_body
from headroom.core.migrations import upgrade
from headroom.core.settings import Settings
from headroom.jobs.runner import run_job
from headroom.workspaces.models import Role
from support.alert_data import request_table, upload
from support.factories import Member, member, signed_in


@dataclass
class AlertWorld:
    settings: Settings
    clients: dict[str, TestClient]
    members: dict[str, Member]
    table: pl.DataFrame
    plain_id: int  # no capacity analysis
    analysed_id: int
    report: dict[str, Any]  # the analysed dataset's capacity report, as the API serves it

    @property
    def workspace_id(self) -> int:
        return self.members["owner"].workspace_id


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AlertWorld]:
    tmp = tmp_path_factory.mktemp("alerts")
    settings = Settings(
        data_dir=tmp,
        database_url=f"sqlite:///{tmp / 'alerts.db'}",
        static_dir=Path(tmp / "no-ui"),
        rate_limit_ip_per_min=0,
        rate_limit_token_per_min=0,
        public_url="https://headroom.example",
    )
    upgrade(settings)
    members = {
        "owner": member(settings, "owner@a.example", "A"),
        "editor": member(settings, "editor@a.example", "A", Role.editor),
        "viewer": member(settings, "viewer@a.example", "A", Role.viewer),
        "other": member(settings, "owner@b.example", "B"),
    }
    clients = {name: signed_in(settings, who) for name, who in members.items()}
    table = request_table(seed=3)
    plain = upload(settings, clients["owner"], table, "plain.log")
    analysed = upload(settings, clients["owner"], request_table(seed=4), "analysed.log")
    analysis = clients["owner"].post(f"/api/v1/datasets/{analysed['id']}/analyses", json={})
    assert run_job(settings, analysis.json()["job"]["id"], capacity_body)
    report = clients["owner"].get(f"/api/v1/analyses/{analysis.json()['id']}").json()["result"]
    yield AlertWorld(settings, clients, members, table, plain["id"], analysed["id"], report)
