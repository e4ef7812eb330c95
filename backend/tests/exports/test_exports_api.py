"""GET .../export/{kind} of a simulation and of analyses, and `headroom export run:ID`
against the app in-process: the engine's file for the stored scenario or report, refusals
as 422 unsupported_export, an unfinished analysis as 409."""

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pydantic import BaseModel

from headroom.analyses.documents import CapacityReportDoc, SctReportDoc
from headroom.analyses.models import Analysis, AnalysisKind
from headroom.analyses.schemas import CapacityParamsIn, SctParamsIn
from headroom.api.app import create_app
from headroom.cli import main
from headroom.client import remote
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.engine.export import ExportOptions, from_analysis, from_scenario
from headroom.engine.sim.presets import reference
from headroom.engine.sim.scenario import load_scenario
from headroom.jobs.models import Job, JobStatus, Result
from headroom.simulations.models import SimulationRun
from headroom.workspaces.models import Role
from support.factories import api_token, member, signed_in

TRIMMED = json.loads(
    (Path(__file__).parents[1] / "engine" / "export" / "demo_analyses.json").read_text()
)


def as_stored(trimmed: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    """A trimmed demo report with every field the export does not read at its empty value
    (null, [], {}), as a stored report has them all."""
    out = dict(trimmed)
    for name, field in model.model_fields.items():
        nested = _dict_of_model(field.annotation)
        if name in out and nested is not None:
            out[name] = {key: as_stored(value, nested) for key, value in out[name].items()}
        elif name not in out and field.is_required():
            origin = typing.get_origin(field.annotation)
            out[name] = [] if origin is list else {} if origin is dict else None
    return out


def _dict_of_model(annotation: Any) -> type[BaseModel] | None:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is dict and isinstance(args[1], type):
        return args[1] if issubclass(args[1], BaseModel) else None
    return None


DEMO = {
    "capacity": as_stored(TRIMMED["capacity"], CapacityReportDoc),
    "sct": as_stored(TRIMMED["sct"], SctReportDoc),
}


def _job(session: Any, workspace_id: int, document: dict[str, Any] | None) -> int:
    status = JobStatus.succeeded if document is not None else JobStatus.queued
    job = Job(workspace_id=workspace_id, kind="capacity.analyze", status=status, progress=1.0)
    session.add(job)
    session.flush()
    if document is not None:
        session.add(Result(job_id=job.id, kind="capacity.analyze", document=document))
    return job.id


def plant(settings: Settings, workspace_id: int) -> dict[str, int]:
    """The reference scenario's run; the demo's capacity and SCT analyses, finished; a
    capacity analysis still queued."""
    with session_scope(settings.resolved_database_url()) as session:
        run = SimulationRun(workspace_id=workspace_id, name="reference", scenario=reference())
        dataset = Dataset(
            workspace_id=workspace_id,
            name="d.log",
            size_bytes=1,
            sha256="0" * 64,
            format="combined",
            status=DatasetStatus.ready,
            storage_key="none",
        )
        session.add_all([run, dataset])
        session.flush()
        made = {"run": run.id}
        for name, kind, params, document in [
            ("capacity", AnalysisKind.capacity, CapacityParamsIn(), DEMO["capacity"]),
            ("sct", AnalysisKind.sct, SctParamsIn(), DEMO["sct"]),
            ("queued", AnalysisKind.capacity, CapacityParamsIn(), None),
        ]:
            analysis = Analysis(
                workspace_id=workspace_id,
                dataset_id=dataset.id,
                kind=kind,
                params=params.model_dump(),
                params_key=name,
                job_id=_job(session, workspace_id, document),
            )
            session.add(analysis)
            session.flush()
            made[name] = analysis.id
        return made


@pytest.fixture
def world(settings: Settings) -> tuple[TestClient, dict[str, int], Settings, Any]:
    owner = member(settings, "owner@example.com", "W")
    ids = plant(settings, owner.workspace_id)
    viewer = member(settings, "viewer@example.com", "W", Role.viewer)
    return signed_in(settings, viewer), ids, settings, owner


def test_a_viewer_exports_the_runs_hpa(world: Any) -> None:
    client, ids, _, _ = world
    response = client.get(f"/api/v1/simulations/{ids['run']}/export/hpa?deployment=shop")
    assert response.status_code == 200, response.text
    body = response.json()
    expected = from_scenario("hpa", load_scenario(reference()), ExportOptions(deployment="shop"))
    assert body == {
        "kind": "hpa",
        "content": expected.content,
        "media_type": "application/yaml",
        "filename": "shop-hpa.yaml",
        "note": expected.note,
    }


def test_analyses_export_their_kinds(world: Any) -> None:
    client, ids, _, _ = world
    got = client.get(f"/api/v1/analyses/{ids['capacity']}/export/haproxy?servers=3").json()
    expected = from_analysis("haproxy", "capacity", DEMO["capacity"], ExportOptions(servers=3))
    assert got["content"] == expected.content
    pools = client.get(f"/api/v1/analyses/{ids['sct']}/export/pools").json()
    assert 'maxThreads="20"' in pools["content"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("simulations/{run}/export/keda", 422, "unsupported_export"),
        ("simulations/{run}/export/hpa?deployment=Web_1", 422, "unsupported_export"),
        ("analyses/{capacity}/export/hpa", 422, "unsupported_export"),
        ("analyses/{sct}/export/slo", 422, "unsupported_export"),
        ("analyses/{queued}/export/slo", 409, "analysis_not_done"),
        ("simulations/{run}/export/yaml", 422, "validation_error"),
        ("simulations/999999/export/hpa", 404, "not_found"),
    ],
)
def test_refusals(world: Any, path: str, status: int, code: str) -> None:
    client, ids, _, _ = world
    response = client.get("/api/v1/" + path.format(**ids))
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def test_cli_exports_a_run_from_the_server(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _, ids, settings, owner = world
    token = api_token(settings, owner, ["read"])
    monkeypatch.setattr(remote, "load_credentials", lambda: remote.Credentials("http://t", token))
    monkeypatch.setattr(
        remote,
        "client",
        lambda given: TestClient(
            create_app(settings), headers={"Authorization": f"Bearer {given.token}"}
        ),
    )
    result = CliRunner().invoke(main, ["export", "hpa", f"run:{ids['run']}"])
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == from_scenario("hpa", load_scenario(reference()), ExportOptions()).content
    )
    refused = CliRunner().invoke(main, ["export", "hpa", f"analysis:{ids['capacity']}"])
    assert refused.exit_code == 2 and "unsupported_export" in refused.stderr
