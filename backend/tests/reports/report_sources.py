"""Results for the report tests: documents made by the real pipeline (the demo's synthetic
M/M/4 log ingested and analysed, a characterization of it, a simulation of the `scaling`
scenario), stored in result_documents.json (the simulator's JIT compile takes minutes on a
busy machine), planted into each test's database as finished jobs.

Regenerate after a change of a result's shape (from backend/tests):
`python -m reports.report_sources`."""

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from simulations.scenarios import scaling

from headroom.analyses.models import Analysis, AnalysisKind
from headroom.api.app import create_app
from headroom.characterizations.models import Characterization
from headroom.characterizations.parts import characterize_body
from headroom.core.db import session_scope
from headroom.core.migrations import upgrade
from headroom.core.settings import REPO_ROOT, Settings
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.demo.samples import SYNTHETIC_NAME
from headroom.demo.seed import seed_demo
from headroom.jobs.models import Job, JobStatus, Result
from headroom.jobs.runner import run_job
from headroom.simulations.models import SimulationRun
from headroom.simulations.run import simulation_body

SMALL_LOG = REPO_ROOT / "data" / "logs" / "apachelogs_vhost_combined_with_bad_line.log"
FIXTURE = Path(__file__).with_name("result_documents.json")


@dataclass(frozen=True)
class Documents:
    summary: dict[str, Any]
    analysis_params: dict[str, Any]
    analysis: dict[str, Any]
    rules: dict[str, Any]
    characterization: dict[str, Any]
    simulation: dict[str, Any]
    scenario: dict[str, Any]


def load_documents() -> Documents:
    return Documents(**json.loads(FIXTURE.read_text()))


@dataclass(frozen=True)
class Planted:
    dataset_id: int
    analysis_id: int
    characterization_id: int
    simulation_id: int


def make_documents(folder: Path) -> Documents:
    settings = Settings(data_dir=folder, static_dir=folder / "no-ui")
    upgrade(settings)
    seed_demo(settings, "docs@example.com", "docs-password", SMALL_LOG)
    client = TestClient(create_app(settings))
    login = {"email": "docs@example.com", "password": "docs-password"}
    assert client.post("/api/v1/auth/login", json=login).status_code == 200
    datasets = client.get("/api/v1/datasets").json()["items"]
    dataset = next(d for d in datasets if d["name"] == SYNTHETIC_NAME)["id"]
    analysis = client.get(f"/api/v1/datasets/{dataset}/analyses").json()["items"][0]["id"]
    created = client.post(f"/api/v1/datasets/{dataset}/characterizations").json()
    assert run_job(settings, created["job"]["id"], characterize_body)
    simulation = client.post("/api/v1/simulations", json={"name": "s", "scenario": scaling()})
    assert run_job(settings, simulation.json()["job"]["id"], simulation_body)
    done = client.get(f"/api/v1/analyses/{analysis}").json()
    character = client.get(f"/api/v1/characterizations/{created['id']}").json()
    return Documents(
        summary=client.get(f"/api/v1/datasets/{dataset}/summary").json(),
        analysis_params=done["params"],
        analysis=done["result"],
        rules=character["rules"],
        characterization=character["result"],
        simulation=client.get(f"/api/v1/simulations/{simulation.json()['id']}").json()["result"],
        scenario=scaling(),
    )


def _finished_job(
    session: Any, workspace_id: int, kind: str, document: dict[str, Any], dataset_id: int | None
) -> int:
    job = Job(
        workspace_id=workspace_id,
        dataset_id=dataset_id,
        kind=kind,
        status=JobStatus.succeeded,
        progress=1.0,
    )
    session.add(job)
    session.flush()
    session.add(Result(job_id=job.id, dataset_id=dataset_id, kind=kind, document=document))
    return job.id


def plant(
    settings: Settings,
    docs: Documents,
    workspace_id: int,
    name: str = "mm4.log",
    scale: float = 1.0,
) -> Planted:
    """A ready dataset with a finished analysis, characterization and simulation.
    `scale` multiplies the knee load, to make a second, different analysis."""
    analysis = _scaled(docs.analysis, scale)
    with session_scope(settings.resolved_database_url()) as session:
        dataset = Dataset(
            workspace_id=workspace_id,
            name=name,
            size_bytes=1,
            sha256=name.ljust(64, "0")[:64],
            format="combined",
            status=DatasetStatus.ready,
            storage_key="none",
        )
        session.add(dataset)
        session.flush()
        _finished_job(session, workspace_id, "logs.ingest", docs.summary, dataset.id)
        job = _finished_job(session, workspace_id, "capacity.analyze", analysis, dataset.id)
        found = Analysis(
            workspace_id=workspace_id,
            dataset_id=dataset.id,
            kind=AnalysisKind.capacity,
            params=docs.analysis_params,
            params_key=name,
            job_id=job,
        )
        job = _finished_job(
            session, workspace_id, "workload.characterize", docs.characterization, dataset.id
        )
        character = Characterization(
            workspace_id=workspace_id,
            dataset_id=dataset.id,
            rules=docs.rules,
            rules_key=name,
            job_id=job,
        )
        job = _finished_job(session, workspace_id, "sim.run", docs.simulation, None)
        simulation = SimulationRun(
            workspace_id=workspace_id,
            name="scaling",
            scenario=docs.scenario,
            seed=None,
            job_id=job,
        )
        session.add_all([found, character, simulation])
        session.flush()
        return Planted(dataset.id, found.id, character.id, simulation.id)


def _scaled(report: dict[str, Any], scale: float) -> dict[str, Any]:
    classes = {
        name: {**cls, "knee": {**cls["knee"], "load_per_s": cls["knee"]["load_per_s"] * scale}}
        for name, cls in report["classes"].items()
    }
    return {**report, "classes": classes}


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        FIXTURE.write_text(json.dumps(asdict(make_documents(Path(folder))), separators=(",", ":")))
