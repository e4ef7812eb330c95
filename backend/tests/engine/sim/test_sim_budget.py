"""Absurd but well-formed scenarios are refused before anything is allocated, naming the
field and the estimate; accepted runs stay within their estimate (the simulator's own
event count is checked against it)."""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom.engine.sim import ScenarioError, Simulation, load_scenario
from headroom.engine.sim.budget import DEFAULT_MAX_EVENTS, check_budget, estimate
from headroom.engine.sim.presets import reference


def base(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "duration_s": 60,
        "workload": {
            "arrivals": {"rate_per_s": 5},
            "service_s": {"dist": "exponential", "mean": 0.05},
        },
    }
    for path, value in changes.items():
        node = doc
        keys = path.split(".")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    return doc


def refusal(doc: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        Simulation(doc)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
@pytest.mark.parametrize(
    "path",
    ["duration_s", "workload.arrivals.rate_per_s", "workload.service_s.mean", "sla.threshold_s"],
)
def test_non_finite_numbers_are_refused_naming_the_field(path: str, value: float) -> None:
    doc = base(**{path: value})
    message = refusal(doc)
    field = message.split(":", 1)[0].replace(".exponential", "")  # the union's tag
    assert field == path and "finite" in message, message


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("duration_s", 1e13, "duration_s"),
        ("workload.arrivals.rate_per_s", 1e13, "duration_s"),
        ("autoscaling.monitor_s", 1e-10, "autoscaling.monitor_s"),
        ("workload.page", {"objects": {"dist": "constant", "value": 1e16},
                           "gap_s": {"dist": "constant", "value": 0.1}}, "workload.page.objects"),
    ],
)  # fmt: skip
def test_runs_too_large_are_refused_with_the_estimate(path: str, value: Any, field: str) -> None:
    # regression: these allocated terabytes or ran for years before failing
    message = refusal(base(**{path: value}))
    assert message.startswith(f"{field}: this scenario needs about "), message
    found = re.search(r"about ([0-9.e+]+) events \(limit ([0-9.e+]+)\): lower ", message)
    assert found, message
    assert float(found.group(1)) > float(found.group(2)) == DEFAULT_MAX_EVENTS


def test_overflowing_draws_are_refused() -> None:
    # regression: lognormal mu 2000 raised OverflowError (mean) / drew inf service times
    doc = base(**{"workload.service_s": {"dist": "lognormal", "mu": 2000, "sigma": 1}})
    assert refusal(doc).startswith("workload.service_s: its values overflow")


def test_the_estimate_is_the_closed_form_for_a_poisson_run() -> None:
    # 5/s for 60 s: 300 arrivals, one request each, 2 events; ticks 600, steps 1
    e = estimate(load_scenario(base()))
    assert e.arrivals == pytest.approx(300) and e.requests == pytest.approx(300)
    assert e.events == pytest.approx(1.25 * (600 + 600 + 1) + 10_000)


def test_the_reference_full_day_runs_under_the_default_limit() -> None:
    e = check_budget(load_scenario(reference()))
    assert 1e7 < e.events < DEFAULT_MAX_EVENTS
    # the profile's integral: 0.7 x 21600 + 3.5 x 14400 + 6.67 x 14400 + 5 x 21600 + 3 x 14400
    assert e.arrivals == pytest.approx(15120 + 50400 + 96048 + 108000 + 43200, rel=1e-9)


def test_an_accepted_run_stays_within_its_estimate() -> None:
    doc = copy.deepcopy(reference())
    doc["duration_s"] = 300
    sim = Simulation(doc)
    assert sim.run().events <= sim.estimate.events


ranges = st.fixed_dictionaries(
    {
        "duration_s": st.floats(1e-3, 1e15),
        "rate": st.floats(0, 1e14),
        "monitor_s": st.floats(1e-12, 1e4),
        "objects": st.floats(0, 1e17),
        "mu": st.floats(-3000, 3000),
        "sigma": st.floats(0, 19.9),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranges)
def test_any_scenario_in_range_is_refused_or_runs_within_its_estimate(p: dict[str, float]) -> None:
    doc = base(
        duration_s=p["duration_s"],
        **{
            "workload.arrivals.rate_per_s": p["rate"],
            "workload.page": {
                "objects": {"dist": "constant", "value": p["objects"]},
                "gap_s": {"dist": "exponential", "mean": 0.01},
            },
            "workload.service_s": {"dist": "lognormal", "mu": p["mu"], "sigma": p["sigma"]},
            "autoscaling.monitor_s": p["monitor_s"],
        },
    )
    try:
        sim = Simulation(doc, max_events=2e5)
    except ScenarioError as error:
        assert "\n" not in str(error) and ":" in str(error)
        return
    assert sim.run().events <= sim.estimate.events
