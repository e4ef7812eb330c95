"""Discrete-event simulation of web clusters under autoscaling and admission control.

``Simulation(scenario).run()`` is the one runner; scenarios are validated documents
(:func:`load_scenario`, :func:`scenario_json_schema`). The packages name the parts:
``scenario/`` (the document), ``tiers/`` (the compiled event loop and its runner: a
request visits every tier of a chain, and a single-tier cluster runs as the chain of one
tier, with pages, dispatch policies and admission stages) and ``kernel/`` (the FCFS fast
path, for a plain FCFS queue on one fixed VM). ``rows.py`` holds the state layout both
keep (counters, columns, free lists, growth, the resume loop), ``heaps.py`` the loop's
heaps, ``autoscaling.py`` the policies and their step. The runner, the feed of random
draws and the admission stages sit beside them. The method and what it approximates are
described in docs/methods/simulator.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from headroom.engine.sim.distributions import (
        Constant,
        Distribution,
        Empirical,
        Exponential,
        Lognormal,
        Mixture,
        Pareto,
        Uniform,
        parse_distribution,
    )
    from headroom.engine.sim.results import (
        ClassStats,
        LatencyStats,
        LittleCheck,
        RequestTrace,
        ScalingAction,
        SimulationResult,
        TimeSeries,
        UtilizationBox,
        VmStats,
    )
    from headroom.engine.sim.scenario import (
        Scenario,
        ScenarioError,
        load_scenario,
        scenario_json_schema,
    )
    from headroom.engine.sim.simulation import Simulation
    from headroom.engine.sim.version import ENGINE_VERSION

# Public name -> the module defining it. Imported on first use (PEP 562), so that
# importing the scenario contract does not load numba: the API process never needs it.
_HOME = {
    name: module
    for module, names in (
        ("distributions", "Constant Distribution Empirical Exponential Lognormal Mixture Pareto"),
        ("distributions", "Uniform parse_distribution"),
        ("results", "ClassStats LatencyStats LittleCheck RequestTrace ScalingAction"),
        ("results", "SimulationResult TimeSeries UtilizationBox VmStats"),
        ("scenario", "Scenario ScenarioError load_scenario scenario_json_schema"),
        ("simulation", "Simulation"),
        ("version", "ENGINE_VERSION"),
    )
    for name in names.split()
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "ENGINE_VERSION",
    "ClassStats",
    "Constant",
    "Distribution",
    "Empirical",
    "Exponential",
    "LatencyStats",
    "LittleCheck",
    "Lognormal",
    "Mixture",
    "Pareto",
    "RequestTrace",
    "ScalingAction",
    "Scenario",
    "ScenarioError",
    "Simulation",
    "SimulationResult",
    "TimeSeries",
    "Uniform",
    "UtilizationBox",
    "VmStats",
    "load_scenario",
    "parse_distribution",
    "scenario_json_schema",
]
