"""The size of a run, estimated before anything is allocated, and the refusal above a limit.

The events a run needs: expected arrivals (the arrival process's mean rate x duration_s,
per class) x requests per arrival (1 + the mean objects per page) x events per request
(its arrival and its completion at each tier), plus the monitor ticks (duration_s /
monitor_s; arrays of that length are allocated) and the decision, SLA and admission
periods (and SCT intervals per VM). An estimate is an
upper bound with room for Poisson noise (``MARGIN`` and ``SLACK_EVENTS``), so an accepted
run stays within it. Distributions are also drawn once (seeded) to catch values that
overflow (a lognormal ``mu: 2000`` draws inf) before the run meets them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from headroom.engine.sim.feed import build_arrivals
from headroom.engine.sim.scenario import Scenario, ScenarioError, build_distribution

DEFAULT_MAX_EVENTS = 2e8  # the reference full-day scenario needs about 2e7
EVENTS_PER_REQUEST = 2  # its arrival and its completion, per tier visited
MARGIN = 1.25
SLACK_EVENTS = 10_000
PROBE_DRAWS = 4096


@dataclass(frozen=True)
class Estimate:
    events: float
    arrivals: float
    requests: float
    ticks: float
    field: str  # the field that drives the estimate most, for the refusal

    def refusal(self, max_events: float) -> str:
        return (
            f"{self.field}: this scenario needs about {self.events:.2g} events "
            f"(limit {max_events:.2g}): lower {_lower(self.field)}"
        )


def _lower(field: str) -> str:
    if field.endswith("monitor_s"):
        return "duration_s or raise monitor_s"
    if field.endswith("objects"):
        return "duration_s or the objects per page"
    if field.endswith(("interval_s", "epoch_s", "period_s", "window_s")):
        return f"duration_s or raise {field.rsplit('.', 1)[-1]}"
    return "duration_s or the rate"


def _names_unresolved(value: Any, datasets: Mapping[str, np.ndarray]) -> bool:
    """Whether a distribution (or a part of a mixture) draws from a dataset not given."""
    if isinstance(value, dict):
        named = value.get("dataset")
        if named is not None and str(named) not in datasets:
            return True
        return any(_names_unresolved(v, datasets) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_names_unresolved(v, datasets) for v in value)
    return False


def _probe_mean(field: str, spec: BaseModel, datasets: Mapping[str, np.ndarray]) -> float:
    """The mean of seeded draws; ScenarioError when the draws overflow. A distribution drawn
    from a dataset not given yet counts 1 (it is sized again when the run is built)."""
    if _names_unresolved(spec.model_dump(), datasets):
        return 1.0
    dist = build_distribution(spec, datasets)
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            draws = dist.sample(np.random.default_rng(0), PROBE_DRAWS)
        except (OverflowError, ValueError) as exc:
            raise ScenarioError(f"{field}: its values cannot be drawn ({exc})") from None
        mean = float(np.mean(draws))
    if not (np.all(np.isfinite(draws)) and math.isfinite(mean)):
        raise ScenarioError(f"{field}: its values overflow (beyond 1e308); lower them")
    return mean


def estimate(scenario: Scenario, datasets: Mapping[str, np.ndarray] | None = None) -> Estimate:
    """The events a run of ``scenario`` needs (an upper bound, see the module's text)."""
    data = datasets or {}
    duration = scenario.duration_s
    tiers = len(scenario.cluster.tiers) if scenario.cluster.tiers else 1
    arrivals = requests = 0.0
    object_share = 0.0
    for i, c in enumerate(scenario.workload.class_list()):
        base = "workload" if scenario.workload.classes is None else f"workload.classes.{i}"
        assert c.arrivals is not None
        if c.arrivals.dataset is not None and c.arrivals.dataset not in data:
            continue  # resolved (and sized) when the run is built
        mean_rate = build_arrivals(c.arrivals, data).mean_rate_per_s(duration)
        expected = mean_rate * duration
        per_page = 1.0
        _probe_mean(f"{base}.service_s", c.service_s, data)
        if c.page is not None:
            objects = max(_probe_mean(f"{base}.page.objects", c.page.objects, data), 0.0)
            _probe_mean(f"{base}.page.gap_s", c.page.gap_s, data)
            per_page += objects
            object_share += expected * objects
        arrivals += expected
        requests += expected * per_page
    for tier in scenario.cluster.tiers or ():
        if tier.service_s is not None:
            _probe_mean(f"cluster.tiers.{tier.name}.service_s", tier.service_s, data)
    ticks, tick_field = _periodic(scenario)
    request_events = EVENTS_PER_REQUEST * tiers * requests
    events = MARGIN * (request_events + ticks) + SLACK_EVENTS
    if ticks > request_events:
        field = tick_field
    elif object_share > arrivals:
        field = "workload.page.objects"
    else:
        field = "duration_s"
    return Estimate(events, arrivals, requests, ticks, field)


def _periodic(scenario: Scenario) -> tuple[float, str]:
    """Periodic events (monitor ticks per VM, decision steps, SLA windows, admission
    periods, SCT intervals) and the field of the largest."""
    duration = scenario.duration_s
    a = scenario.autoscaling
    tiers = scenario.cluster.tiers
    vms = sum(t.vms.max for t in tiers) if tiers else scenario.cluster.vms.max
    counts = {
        "autoscaling.monitor_s": duration / a.monitor_s,
        "autoscaling.step_s": duration / a.step_s,
    }
    if scenario.sla is not None:
        counts["sla.window_s"] = duration / scenario.sla.window_s
    adm = scenario.admission
    if (period := getattr(adm, "period_s", None)) is not None:
        counts["admission.period_s"] = duration / period
    if (epoch := getattr(adm, "epoch_s", None)) is not None:
        counts["admission.epoch_s"] = duration / epoch
    if (interval := getattr(a, "sct_interval_s", None)) is not None:
        window = getattr(a, "sct_window_s", 0.0)
        counts["autoscaling.sct_interval_s"] = window / interval * vms
    # a period at its default is not the cause: a long duration_s is
    fields = [k for k in counts if _below_default(scenario, k)]
    field = max(fields, key=lambda k: counts[k]) if fields else "duration_s"
    return sum(counts.values()), field


def _below_default(scenario: Scenario, field: str) -> bool:
    section, name = field.split(".")
    model = getattr(scenario, section)
    default = type(model).model_fields[name].default
    return isinstance(default, float) and getattr(model, name) < default


def check_budget(
    scenario: Scenario,
    max_events: float = DEFAULT_MAX_EVENTS,
    datasets: Mapping[str, np.ndarray] | None = None,
) -> Estimate:
    """The estimate, or ScenarioError naming the field and the estimate above the limit."""
    found = estimate(scenario, datasets)
    if not math.isfinite(found.events) or found.events > max_events:
        raise ScenarioError(found.refusal(max_events))
    return found
