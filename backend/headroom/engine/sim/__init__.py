"""Discrete-event simulation of web clusters under autoscaling (spec: simulation.md).

``Simulation(scenario).run()`` is the one runner; scenarios are validated documents
(:func:`load_scenario`, :func:`scenario_json_schema`); the event loop is compiled
with numba over typed arrays (core.py, vm.py), fed with vectorised pre-draws (feed.py)
and paused at every decision point for the autoscaling policy (autoscaling.py).

Two loops run a scenario, with the same semantics (tests compare them):
- fcfs.py, the fast path for a plain FCFS queue on one fixed VM (an M/M/c queue): a
  heap of the c cores' free times, each request recorded once at its arrival;
- core.py, the general event loop for everything else: arrival -> dispatch (choose_vm)
  -> the VM (vm.py: processor sharing or FCFS cores, pool, accept queue) -> completion.

Admission stages (issue 7: partitions, a virtual waiting queue) belong between the new
request and the dispatcher, in ``core._arrival`` (base requests) and ``core._send``
(requests dispatched one by one): admit, hold in a stage queue, or refuse through the
existing ``_reject`` path. A scenario with an admission stage must not take the fast
path (extend ``fcfs.applies``); multi-tier clusters likewise.

Modelling choices where the spec leaves room:
- Client gaps chain from the base request: object k of a page is requested at
  max(base response, base arrival + gap_1 + ... + gap_k), so without push the mean PLT
  is about the sum of the mean gaps plus the last object's response.
- Push: floor(p n + U) of a page's n objects (unbiased rounding) are generated on the
  base's VM when the base response completes; the rest follow the client chain.
- 103 Early Hints: every object is requested when the base response completes, no gaps.
- The overhead model counts requests in service (PS) or held by the VM (FCFS).
- A refused base request refuses its page; a refused object marks the page failed
  (it gets no PLT). A draining VM keeps serving the pages that stick to it.
- Utilisation: busy cores / cores over each monitoring tick, averaged over active VMs.
- Quantiles are nearest-rank; an SLA window is violated when more than (100 - p)% of
  the latencies (PLTs with pages) completed in it exceed the threshold.
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
    from headroom.engine.sim.simulation import ENGINE_VERSION, Simulation

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
        ("simulation", "ENGINE_VERSION Simulation"),
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
