"""The demo's sources of exports, and the tools that read the exported files."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from headroom.engine.sim.presets import reference
from headroom.engine.sim.scenario import Scenario, load_scenario

# The demo's capacity analysis of its synthetic M/M/4 log and its SCT analysis of its pool
# trace (headroom.demo.samples), as `headroom analyze --json` / `headroom sct --json` print them,
# keeping the fields exports read.
DEMO = json.loads((Path(__file__).parent / "demo_analyses.json").read_text())


def demo_capacity() -> dict[str, Any]:
    return copy.deepcopy(DEMO["capacity"])


def demo_sct() -> dict[str, Any]:
    return copy.deepcopy(DEMO["sct"])


def scenario(**changes: Any) -> Scenario:
    """The demo's reference scenario (engine/sim/presets.py) with sections replaced or
    merged: ``scenario(autoscaling={"upper": 0.9})`` keeps the rest of the policy, a
    new ``policy`` replaces it."""
    document = reference()
    for section, value in changes.items():
        old = document.get(section)
        same = isinstance(old, dict) and isinstance(value, dict)
        same = same and value.get("policy", old.get("policy")) == old.get("policy")
        merged = {**old, **value} if same else value
        document[section] = merged
    return load_scenario(document)


def replaced(**sections: Any) -> Scenario:
    """The reference scenario with whole sections replaced."""
    return load_scenario({**reference(), **sections})


def tool(command: str, package: str) -> str:
    """The tool's path; a missing tool fails the test (never a silent skip)."""
    path = shutil.which(command)
    if path is None:
        pytest.fail(f"{command} not found: install {package} (make system-deps)")
    return path
