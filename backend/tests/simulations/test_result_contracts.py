"""The typed result documents against the JSON they replace.

``run_documents_golden.json.gz`` holds run and sweep documents as the untyped code built
them (same scenarios, same seed): the typed documents built now store and serve the same
JSON (field names and values; only the wall-clock time differs). Documents stored by
earlier versions (the report tests' fixtures) still load, keep every field they had, and
gain only the optional fields added since (at their defaults)."""

import copy
import csv
import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from headroom.engine.sim import Simulation
from headroom.engine.sim.tiers.presets import concurrency_scenario
from headroom.simulations import documents
from headroom.simulations.result_models import (
    RunDocument,
    SweepDocument,
    load_result,
    stored,
)
from headroom.simulations.schemas import SimulationOut

TESTS = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).with_name("run_documents_golden.json.gz")
PROFILE = TESTS.parents[1] / "data" / "profiles" / "big_spike.csv"
SEED = 11


@cache
def golden() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt") as f:
        found: dict[str, Any] = json.load(f)
    return found


UNCOMPARED = ("wall_s", "engine_version")


def _without_wall_time(document: Any) -> Any:
    """The document without its run's wall-clock time and the engine's version (bumped when
    any scenario's numbers change: these scenarios' did not), and floats to 12 significant
    digits: the contract is the JSON's shape and values, not the last bit of a sum the
    simulator may add in another order."""
    if isinstance(document, dict):
        return {k: _without_wall_time(v) for k, v in document.items() if k not in UNCOMPARED}
    if isinstance(document, list):
        return [_without_wall_time(v) for v in document]
    if isinstance(document, float):
        return float(f"{document:.12g}")
    return document


def _tiered_scenario() -> Any:
    with open(PROFILE, newline="") as f:
        profile = [(float(r["t_s"]), float(r["rate_per_s"])) for r in csv.DictReader(f)]
    return concurrency_scenario(profile, "concurrency_aware", 1, time_scale=1 / 60)


@cache
def typed_runs() -> dict[str, RunDocument]:
    scenarios = golden()["scenarios"]
    out = {}
    for name, scenario in scenarios.items():
        model = _tiered_scenario() if scenario is None else copy.deepcopy(scenario)
        out[name] = documents.run_document(Simulation(model).run(SEED))
    return out


def _served(document: RunDocument | SweepDocument) -> Any:
    """The result as GET /simulations/{id} serves it (the response model's JSON)."""
    out = SimulationOut.model_validate(
        {
            "id": 1,
            "workspace_id": 1,
            "name": "n",
            "kind": document.kind,
            "scenario": {},
            "seed": SEED,
            "sweep": None,
            "created_at": "2026-01-01T00:00:00Z",
            "created_by": None,
            "job": None,
            "result": document,
        }
    )
    return json.loads(out.model_dump_json())["result"]


@pytest.mark.parametrize(
    "name", ["reference", "scaling", "class_dynamic_part", "virtual_queue", "tiers"]
)
def test_a_run_stores_and_serves_the_json_the_untyped_documents_had(name: str) -> None:
    before = _without_wall_time(golden()["documents"][name])
    document = typed_runs()[name]
    assert _without_wall_time(stored(document)) == before
    assert _without_wall_time(_served(document)) == before


def test_a_sweep_stores_and_serves_the_json_the_untyped_documents_had() -> None:
    runs = typed_runs()
    named = [("reference", "none"), ("class_dynamic_part", "dynamic_part")]
    rows = [
        documents.sweep_row(i, {"admission": {"policy": p}, "duration_s": 120}, runs[n].summary)
        for i, (n, p) in enumerate(named)
    ]
    axes = [("admission", [{"policy": "none"}, {"policy": "dynamic_part"}]), ("duration_s", [120])]
    document = documents.sweep_document(axes, rows)
    before = _without_wall_time(golden()["documents"]["sweep"])
    assert _without_wall_time(stored(document)) == before
    assert _without_wall_time(_served(document)) == before


def _old_documents() -> list[dict[str, Any]]:
    reports = TESTS / "reports"
    run = json.loads((reports / "result_documents.json").read_text())["simulation"]
    sweep = json.loads((reports / "sct_sweep_documents.json").read_text())["sweep_result"]
    return [run, sweep]


@pytest.mark.parametrize("old", _old_documents(), ids=["run", "sweep"])
def test_documents_stored_by_earlier_versions_load_without_loss(old: dict[str, Any]) -> None:
    document = load_result(old)
    assert stored(document) == old  # every field kept, nothing added to what is stored
    added = _added(old, _served(document))
    names = {path.rsplit(".", 1)[-1] for path in added}
    assert names <= OPTIONAL, names - OPTIONAL
    assert all(v in (None, [], {}) for v in added.values())


# The fields added since the first stored documents, served at their defaults.
OPTIONAL = {"admission", "admission_series", "tiers", "classes", "engine_version"}
OPTIONAL |= {"window_percentile", "window_p50_latency_s", "window_p99_latency_s", "cost"}
OPTIONAL |= {"arrived", "rejected", "rejected_fraction"}  # per class


def _added(old: Any, served: Any, path: str = "") -> dict[str, Any]:
    """The fields ``served`` has and ``old`` lacks (path: value), asserting that every
    field of ``old`` is served unchanged."""
    if isinstance(old, dict):
        assert isinstance(served, dict), path
        found = {f"{path}.{k}": v for k, v in served.items() if k not in old}
        for key, value in old.items():
            found |= _added(value, served[key], f"{path}.{key}")
        return found
    if isinstance(old, list):
        assert isinstance(served, list) and len(served) == len(old), path
        for i, (a, b) in enumerate(zip(old, served, strict=True)):
            found = _added(a, b, f"{path}[{i}]")
            if found:
                return found
        return {}
    assert served == old, path
    return {}


def test_an_unknown_field_is_refused_not_dropped() -> None:
    old = copy.deepcopy(_old_documents()[0])
    old["summary"]["renamed_figure"] = 1.0
    with pytest.raises(ValueError, match="renamed_figure"):
        load_result(old)
