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
- tiers.py (loop in tiers_loop.py), multi-tier clusters (``cluster.tiers``): a request
  visits every tier in order, holding its pool slot upstream while served downstream;
  the concurrency-aware policy resizes the downstream pools from SCT (tiers_sct.py).

Admission stages (issue 7: partitions, a virtual waiting queue) belong between the new
request and the dispatcher, in ``core._arrival`` (base requests) and ``core._send``
(requests dispatched one by one): admit, hold in a stage queue, or refuse through the
existing ``_reject`` path. A scenario with an admission stage must not take the fast
path (extend ``fcfs.applies``); multi-tier clusters likewise.

Class-aware admission (sla.md; ``admission.policy`` switch_adm, static_part,
dynamic_part) runs inside the compiled core, chosen by an int code (state.ip), so a run
without a stage pays only a few counter updates per request:
- Every run counts arrived and refused requests per class (ClassStats) and keeps
  connection accounting: the live requests (in service or in the pool/accept queue) each
  VM holds by kind, static or dynamic (the class's ``kind``), and their totals per set.
- The stage decides once per page, on its base request (``core._admit``); the page's
  objects follow it (to its VM, or with per-request dispatch to VMs of the same set)
  and are refused only by a full VM. Refusals take the ``_reject`` path.
- SwitchAdm: N = the active VMs at each arrival (so it works with autoscaling); a normal
  request of a kind is refused while that kind's live connections exceed N x
  maxconn_sla (dynamic) or N x maxconn_static_sla (static; unlimited without it); a top
  request only while the dynamic connections exceed N x maxconn (top static requests are
  never refused: the scenario gives no MaxConn_S). Dispatch over all active VMs.
- StaticPart and DynamicPart need a fixed cluster (autoscaling none; N = vms.start >= 2).
  rho_T = the top classes' share of the offered request rate over the run (pages count
  1 + mean objects); K = sla.md's formula clamped to [1, N - 1]; the first K VMs form the
  High Set. Top requests go to the High Set, the others to the Low Set, each by the
  scenario's dispatch policy within the set. Both refuse normal requests (either kind)
  while the Low Set's live dynamic connections exceed (N - K) x maxconn_sla (StaticPart
  by the same rule as DynamicPart, so the two compare on "normal requests refused");
  top requests are never refused by the stage.
- DynamicPart's controller is a timer event in the core every period_s (from t =
  period_s). Its load SumLoad_HS is the High Set's live connections, static and dynamic
  (sla.md). It grows K while the load at that instant exceeds K x maxconn_sla, and
  shrinks K only when the load stayed under (K - 1) x maxconn_sla all period (its peak
  since the last period, kept as connections arrive): one low instant of a set that is
  busy on average would hand away a server its load needs and overload the rest (a mean
  over the period lags the load and overshoots after an overloaded period; tried and
  dropped). A move takes the least-loaded VM (fewest live requests) of one set to the
  other (K +- 1); the moved VM keeps and finishes what it holds, which then counts in its
  new set's load. K(t) is the result's ``admission_series`` and its time-weighted mean, min and
  max ``admission``.

The virtual waiting queue (capacity-queue.md; ``admission.policy`` virtual_queue) runs
in the runner, not the core (waiting_room.py): each segment's drawn arrivals (a page's
base request, or a single request) check in with the wait-time scheduler
(admission/virtual_queue.py; a class's ``hardness`` units each) and the core gets their
release times as its arrivals: at once with no wait, else at a uniform instant of the
booked second (users do not come back in step). A wait past ``max_wait_s`` drops the
check-in (a rejected request and a failed page); releases after the segment wait for
later ones. So ``latency_s``, Little's law and the SLA windows are the server's, and
``requests`` counts check-ins (those still waiting at the end are in
``in_system_at_end``). ``capacity: discover`` runs discovery (admission/discovery.py)
every ``epoch_s``: segments also end at epoch boundaries (``segment_bounds`` merges them
with the decision periods), where the epoch's goodput and mean response come from the
core's counters. The probed rate applies to the current epoch's seconds only; later
seconds are promised beta x the rate discovery would back off to, then the estimate,
since bookings cannot be taken back. ``admission`` holds the estimate, the last
convergence time, served, dropped and wait mean/p95/max; ``admission_series`` the
per-epoch and per-second arrays.

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
