"""Discrete-event simulation of web clusters under autoscaling (spec: simulation.md).

``Simulation(scenario).run()`` is the one runner; scenarios are validated documents
(:func:`load_scenario`, :func:`scenario_json_schema`); the event loop is compiled
with numba over typed arrays.
"""

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
from headroom.engine.sim.simulation import ENGINE_VERSION, Simulation

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
