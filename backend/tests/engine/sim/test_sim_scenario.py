"""The scenario document: the spec's reference YAML, the JSON Schema, field-path errors."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from headroom.engine.sim import ScenarioError, load_scenario, scenario_json_schema
from headroom.engine.sim.scenario import NoPolicy, ThresholdPolicy

REFERENCE = Path(__file__).with_name("reference_scenario.yaml").read_text()
MINIMAL: dict[str, Any] = {
    "duration_s": 10,
    "workload": {"arrivals": {"rate_per_s": 1}, "service_s": {"dist": "exponential", "mean": 1}},
}


def test_reference_yaml_validates_as_written() -> None:
    s = load_scenario(REFERENCE)
    assert s.duration_s == 86400 and s.seed == 1
    assert isinstance(s.autoscaling, ThresholdPolicy)
    assert (s.autoscaling.lower, s.autoscaling.upper, s.autoscaling.time_steps) == (0.4, 0.8, 4)
    assert s.cluster.vms.start == 20 and s.dispatch.policy == "least_connections"
    assert s.workload.page is not None and s.workload.page.push_fraction == 0.5


def test_reference_validates_against_published_schema() -> None:
    schema = scenario_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(yaml.safe_load(REFERENCE), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**MINIMAL, "bogus": 1}, schema)


def test_json_and_mapping_inputs() -> None:
    assert load_scenario(json.dumps(MINIMAL)) == load_scenario(MINIMAL)


def test_defaults() -> None:
    s = load_scenario(MINIMAL)
    assert isinstance(s.autoscaling, NoPolicy) and s.autoscaling.monitor_s == 0.1
    assert s.cluster.discipline == "ps" and s.cluster.boot_s == 30 and s.sla is None
    assert load_scenario({**MINIMAL, "autoscaling": {"monitor_s": 1}}).autoscaling.policy == "none"


@pytest.mark.parametrize(
    ("patch", "path"),
    [
        ({"workload": {**MINIMAL["workload"], "foo": 1}}, "workload.foo"),
        ({"cluster": {"vms": {"min": 2, "max": 1, "start": 1}}}, "cluster.vms"),
        ({"cluster": {"discipline": "lifo"}}, "cluster.discipline"),
        ({"dispatch": "fastest"}, "dispatch.policy"),
        ({"autoscaling": {"policy": "threshold", "upper": 2}}, "autoscaling.threshold.upper"),
        ({"duration_s": -1}, "duration_s"),
        (
            {
                "workload": {
                    "arrivals": {"rate_per_s": 1},
                    "service_s": {"dist": "uniform", "low": 2, "high": 1},
                }
            },
            "workload.service_s.uniform",
        ),
        (
            {"workload": {"arrivals": {}, "service_s": {"dist": "constant", "value": 1}}},
            "workload.arrivals",
        ),
    ],
)
def test_errors_name_the_field_path(patch: dict[str, object], path: str) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario({**MINIMAL, **patch})
    assert str(err.value).startswith(path), str(err.value)


def test_required_fields() -> None:
    with pytest.raises(ScenarioError, match=r"^duration_s"):
        load_scenario({"workload": MINIMAL["workload"]})
    with pytest.raises(ScenarioError, match=r"^workload"):
        load_scenario({"duration_s": 1})
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_scenario("a: [")


def test_latency_slo_needs_a_threshold() -> None:
    with pytest.raises(ScenarioError, match="threshold_s"):
        load_scenario({**MINIMAL, "autoscaling": {"policy": "latency_slo"}})
    s = load_scenario(
        {**MINIMAL, "autoscaling": {"policy": "latency_slo"}, "sla": {"threshold_s": 1}}
    )
    assert s.autoscaling.policy == "latency_slo"


def test_classes_form() -> None:
    one = {
        "name": "a",
        "arrivals": {"rate_per_s": 1},
        "service_s": {"dist": "constant", "value": 1},
    }
    s = load_scenario({"duration_s": 1, "workload": {"classes": [one, {**one, "name": "b"}]}})
    assert [c.name for c in s.workload.class_list()] == ["a", "b"]
    assert load_scenario(MINIMAL).workload.class_list()[0].name == "default"
    with pytest.raises(ScenarioError, match="unique"):
        load_scenario({"duration_s": 1, "workload": {"classes": [one, one]}})
    with pytest.raises(ScenarioError, match="service_s per class"):
        load_scenario({"duration_s": 1, "workload": {**MINIMAL["workload"], "classes": [one]}})


def test_reference_scenario_runs_as_written() -> None:
    # The first simulated hour of the spec's 24 h document (night load, 0.7 pages/s).
    from headroom.engine.sim import Simulation

    s = load_scenario(REFERENCE).model_copy(update={"duration_s": 3600.0})
    r = Simulation(s).run()
    assert r.seed == 1 and r.rejected == 0 and r.plt is not None
    assert abs(r.pages - 0.7 * 3600) < 5 * (0.7 * 3600) ** 0.5
    # 20 VMs at ~8% utilisation: the threshold policy releases one VM per decision, a time
    # step apart (the 40 s cooldown is shorter than the 60 s step), until the averaged
    # utilisation leaves the band; every action moves one VM (step size 1).
    assert r.vms.max_allocated == 20 and r.series.allocated_vms[-1] < 10
    assert [a.t_s for a in r.actions[:10]] == [60.0 * k for k in range(1, 11)]
    assert all(abs(a.to_vms - a.from_vms) == 1 for a in r.actions)
    assert all(b.t_s - a.t_s >= 60 for a, b in itertools.pairwise(r.actions))
    # 50% push leaves 20 client objects per page: PLT ~ 20 mean gaps (0.53 s) + ~0.1 s.
    mean_gap = 0.97 * 0.5 + 0.03 * 1.5
    assert abs(r.plt.mean_s - 20 * mean_gap) < 0.5
