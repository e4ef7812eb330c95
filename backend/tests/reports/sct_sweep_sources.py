"""An SCT analysis and a simulation sweep made by the real pipeline, for the report tests:
the demo's synthetic two-server latency trace analysed by SCT (app-1's best pool size is
10 by construction, app-2's 20), and a sweep of the `scaling` scenario's starting VMs and
upper threshold (6 runs), stored in sct_sweep_documents.json (the simulator's JIT compile
takes minutes on a busy machine), planted into each test's database as finished jobs.

Regenerate after a change of a result's shape (from backend/tests):
`python -m reports.sct_sweep_sources`."""

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from reports.report_sources import SMALL_LOG, _finished_job
from simulations.scenarios import scaling

from headroom.analyses.models import Analysis, AnalysisKind
from headroom.api.app import create_app
from headroom.core.db import session_scope
from headroom.core.migrations import upgrade
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.demo.samples import TRACE_NAME
from headroom.demo.seed import seed_demo
from headroom.jobs.runner import run_job
from headroom.simulations.models import SimulationRun
from headroom.simulations.run import simulation_body

FIXTURE = Path(__file__).with_name("sct_sweep_documents.json")
SWEEP = {
    "path": "cluster.vms.start",
    "values": [1, 3, 5],
    "second": {"path": "autoscaling.upper", "values": [0.5, 0.9]},
}


@dataclass(frozen=True)
class SctSweepDocuments:
    sct_params: dict[str, Any]
    sct: dict[str, Any]
    scenario: dict[str, Any]
    sweep: dict[str, Any]
    sweep_result: dict[str, Any]


@dataclass(frozen=True)
class PlantedSctSweep:
    trace_id: int
    sct_id: int
    sweep_id: int


def load_sct_sweep() -> SctSweepDocuments:
    return SctSweepDocuments(**json.loads(FIXTURE.read_text()))


def make_documents(folder: Path) -> SctSweepDocuments:
    settings = Settings(data_dir=folder, static_dir=folder / "no-ui")
    upgrade(settings)
    seed_demo(settings, "docs@example.com", "docs-password", SMALL_LOG)
    client = TestClient(create_app(settings))
    login = {"email": "docs@example.com", "password": "docs-password"}
    assert client.post("/api/v1/auth/login", json=login).status_code == 200
    datasets = client.get("/api/v1/datasets").json()["items"]
    trace = next(d for d in datasets if d["name"] == TRACE_NAME)["id"]
    listed = client.get(f"/api/v1/datasets/{trace}/analyses").json()["items"][0]
    sct = client.get(f"/api/v1/analyses/{listed['id']}").json()
    body = {"name": "upper sweep", "scenario": scaling(), "sweep": SWEEP}
    created = client.post("/api/v1/simulations", json=body)
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], simulation_body)
    sweep = client.get(f"/api/v1/simulations/{created.json()['id']}").json()
    assert sct["kind"] == "sct" and sweep["result"]["kind"] == "sweep"
    params = {k: v for k, v in sct["params"].items() if k != "kind"}
    return SctSweepDocuments(params, sct["result"], scaling(), SWEEP, sweep["result"])


def plant_sct_sweep(
    settings: Settings, docs: SctSweepDocuments, workspace_id: int, name: str = "trace.csv"
) -> PlantedSctSweep:
    """A ready trace dataset with a finished SCT analysis, and a finished sweep."""
    with session_scope(settings.resolved_database_url()) as session:
        dataset = Dataset(
            workspace_id=workspace_id,
            name=name,
            size_bytes=1,
            sha256=name.ljust(64, "1")[:64],
            format="trace_csv",
            status=DatasetStatus.ready,
            storage_key="none",
        )
        session.add(dataset)
        session.flush()
        job = _finished_job(session, workspace_id, "capacity.analyze", docs.sct, dataset.id)
        analysis = Analysis(
            workspace_id=workspace_id,
            dataset_id=dataset.id,
            kind=AnalysisKind.sct,
            params=docs.sct_params,
            params_key=name,
            job_id=job,
        )
        job = _finished_job(session, workspace_id, "sim.run", docs.sweep_result, None)
        sweep = SimulationRun(
            workspace_id=workspace_id,
            name="upper sweep",
            scenario=docs.scenario,
            seed=None,
            sweep=docs.sweep,
            job_id=job,
        )
        session.add_all([analysis, sweep])
        session.flush()
        return PlantedSctSweep(dataset.id, analysis.id, sweep.id)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        documents = asdict(make_documents(Path(folder)))
        FIXTURE.write_text(json.dumps(documents, separators=(",", ":")))
