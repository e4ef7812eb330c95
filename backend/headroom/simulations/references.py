"""Datasets a scenario refers to: ``arrivals: {dataset: <id>}`` replays the arrival times of
the dataset's request table (seconds from its first request, times ``time_scale``), and
``{dist: empirical, dataset: <id>}`` resamples its logged response times (``latency_s``).

At submit time every reference must name a ready dataset of the scenario's workspace (with
response times for an empirical distribution), or the request is a 422 naming the field.
At run time the job reads the arrays from the dataset's Parquet request table and hands
them to the engine under distinct names (``arrivals:<id>``, ``latency:<id>``), since one
dataset may feed both."""

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from sqlalchemy.orm import Session

from headroom.core.errors import InvalidInput
from headroom.core.storage import ObjectStore
from headroom.datasets import repository as dataset_repository
from headroom.datasets.models import DatasetStatus
from headroom.datasets.service import ingest_result
from headroom.engine.sim import ScenarioError
from headroom.simulations.scenario_json import ScenarioJson

Kind = Literal["arrivals", "latency"]


@dataclass(frozen=True)
class Reference:
    field: str  # dotted path of the ``dataset`` key inside the scenario
    kind: Kind
    value: Any  # as written: an id, or its text


def find(document: Any, path: tuple[str, ...] = ()) -> Iterator[Reference]:
    """Every dataset reference of a scenario document, depth first."""
    if isinstance(document, Mapping):
        if "dataset" in document:
            kind = _kind(document, path)
            if kind is not None:
                yield Reference(".".join((*path, "dataset")), kind, document["dataset"])
        for key, value in document.items():
            yield from find(value, (*path, str(key)))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from find(value, (*path, str(index)))


def _kind(node: Mapping[str, Any], path: tuple[str, ...]) -> Kind | None:
    if node.get("dist") == "empirical":
        return "latency"
    return "arrivals" if path and path[-1] == "arrivals" else None


def normalised(document: Mapping[str, Any]) -> ScenarioJson:
    """A copy whose integer dataset ids are written as text (the engine names datasets with
    strings; ``dataset: 12`` in YAML is an integer)."""
    out = copy.deepcopy(dict(document))
    _normalise(out, ())
    return out


def _normalise(node: Any, path: tuple[str, ...]) -> None:
    if isinstance(node, dict):
        value = node.get("dataset")
        if isinstance(value, int) and not isinstance(value, bool) and _kind(node, path):
            node["dataset"] = str(value)
        for key, child in node.items():
            _normalise(child, (*path, str(key)))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            _normalise(child, (*path, str(index)))


def dataset_id(reference: Reference) -> int | None:
    text = str(reference.value).strip()
    return int(text) if text.isdigit() else None


def check(
    session: Session, workspace_id: int, document: Mapping[str, Any], prefix: str = "scenario"
) -> None:
    """422 naming ``<prefix>.<field>`` unless every reference is usable in the workspace."""
    for reference in find(document):
        field = f"{prefix}.{reference.field}"
        problem = _problem(session, workspace_id, reference)
        if problem is not None:
            raise InvalidInput("validation_error", f"{field}: {problem}", field=field)


def _problem(session: Session, workspace_id: int, reference: Reference) -> str | None:
    number = dataset_id(reference)
    if number is None:
        return f"{reference.value!r} is not a dataset id: give the id of a dataset"
    dataset = dataset_repository.visible(session, [workspace_id], number)
    if dataset is None:
        return f"dataset {number} is not a dataset of this workspace"
    ingested = ingest_result(session, number)
    if dataset.status != DatasetStatus.ready or ingested is None:
        return f"dataset {number} ({dataset.name}) is {dataset.status}, not ready yet"
    if reference.kind == "latency" and ingested.document.get("latency") is None:
        return (
            f"dataset {number} ({dataset.name}) records no response times, so there are "
            "none to resample: pick a log with response times, or a fitted distribution"
        )
    if reference.kind == "arrivals" and not ingested.document.get("request_count"):
        return f"dataset {number} ({dataset.name}) has no requests"
    return None


def resolve(
    session: Session, store: ObjectStore, workspace_id: int, document: Mapping[str, Any]
) -> tuple[ScenarioJson, dict[str, np.ndarray]]:
    """The document with each reference renamed ``<kind>:<id>``, and those arrays (read
    once each). A reference that stopped being usable raises ScenarioError naming it."""
    out = normalised(document)
    arrays: dict[str, np.ndarray] = {}
    for reference in list(find(out)):
        problem = _problem(session, workspace_id, reference)
        if problem is not None:
            raise ScenarioError(f"{reference.field}: {problem}")
        number = dataset_id(reference)
        name = f"{reference.kind}:{number}"
        if name not in arrays:
            arrays[name] = _read(store, _table_keys(session, number), reference.kind)
        _rename(out, reference.field, name)
    return out, arrays


def _table_keys(session: Session, number: int | None) -> list[str]:
    ingested = ingest_result(session, number) if number is not None else None
    return list(ingested.table_keys) if ingested is not None else []


def _read(store: ObjectStore, keys: list[str], kind: Kind) -> np.ndarray:
    """Arrival times in seconds from the first request, or the logged response times."""
    import polars as pl  # the job's work only: the API process never loads polars

    if not keys:
        raise ScenarioError("the dataset has no request table")
    lazy = store.scan_parquet(keys)
    if kind == "latency":
        column = lazy.select(pl.col("latency_s").drop_nulls()).collect()["latency_s"]
        return column.cast(pl.Float64).to_numpy()
    ns = lazy.select(pl.col("ts").drop_nulls().cast(pl.Int64)).collect()["ts"].to_numpy()
    ns = np.sort(ns)
    return (ns - ns[0]).astype(np.float64) / 1e9 if len(ns) else ns.astype(np.float64)


def _rename(document: ScenarioJson, field: str, name: str) -> None:
    node: Any = document
    keys = field.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[keys[-1]] = name
