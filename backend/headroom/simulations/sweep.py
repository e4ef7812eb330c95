"""Sweeps: a scenario field (a dotted path) over a list of values, optionally crossed with a
second one (a grid). Each combination is one run of the scenario with the values set."""

import copy
import itertools
from collections.abc import Mapping
from typing import Any

from headroom.engine.sim.scenario import Scenario, ScenarioError, load_scenario
from headroom.simulations.result_models import SweepValue
from headroom.simulations.scenario_json import ScenarioJson

MAX_RUNS = 100


class SweepError(ValueError):
    """A sweep that cannot be applied; the message starts with the sweep's field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def axes(sweep: Mapping[str, Any]) -> list[tuple[str, list[SweepValue]]]:
    """[(path, values)] for each swept field, the first one first."""
    found = [(str(sweep["path"]), list(sweep["values"]))]
    second = sweep.get("second")
    if second:
        found.append((str(second["path"]), list(second["values"])))
    return found


def points(sweep: Mapping[str, Any]) -> list[dict[str, SweepValue]]:
    """Every combination of values as {path: value}, in grid order (first axis outermost)."""
    found = axes(sweep)
    paths = [path for path, _ in found]
    return [
        dict(zip(paths, combo, strict=True)) for combo in itertools.product(*(v for _, v in found))
    ]


def set_path(document: Mapping[str, Any], path: str, value: Any) -> ScenarioJson:
    """A deep copy of ``document`` with the field at the dotted ``path`` set (integers
    index lists; missing mappings on the way are created)."""
    out = copy.deepcopy(dict(document))
    node: Any = out
    keys = path.split(".")
    for key in keys[:-1]:
        if isinstance(node, list):
            node = node[_index(node, key, path)]
            continue
        if not isinstance(node, dict):
            raise SweepError("sweep.path", f"{path}: {key} is not inside a mapping")
        node = node.setdefault(key, {})
    if isinstance(node, list):
        node[_index(node, keys[-1], path)] = value
    elif isinstance(node, dict):
        node[keys[-1]] = value
    else:
        raise SweepError("sweep.path", f"{path}: {keys[-1]} is not inside a mapping")
    return out


def _index(node: list[Any], key: str, path: str) -> int:
    if not key.isdigit() or int(key) >= len(node):
        raise SweepError("sweep.path", f"{path}: {key} is not an index of a list")
    return int(key)


def scenario_at(document: Mapping[str, Any], point: Mapping[str, Any]) -> Scenario:
    for path, value in point.items():
        document = set_path(document, path, value)
    return load_scenario(document)


def validate(document: Mapping[str, Any], sweep: Mapping[str, Any]) -> int:
    """Checks every combination is a valid scenario; returns how many runs there are."""
    combos = points(sweep)
    if len(combos) > MAX_RUNS:
        raise SweepError("sweep", f"{len(combos)} runs; at most {MAX_RUNS}")
    for combo in combos:
        try:
            scenario_at(document, combo)
        except ScenarioError as error:
            raise SweepError("sweep.values", f"at {combo}: {error}") from None
    return len(combos)
