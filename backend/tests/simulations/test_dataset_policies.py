"""The policy scenarios built from a characterization (dataset_policies.py) against their
stated derivations: the hourly rates are the classes' step functions summed, the mix and
service times come from the characterization (stated defaults otherwise), the limits
reproduce class_presets' hand-worked 5 and 10 for its mix, the loads are the stated
percentiles times one factor that puts the busiest hour at 1.4x capacity, and the queue
profile is the hourly profile compressed to 10 s an hour with its peak at 130 req/s."""

import math
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim.scenario import load_scenario
from headroom.simulations import dataset_policies as dp
from headroom.simulations import sweep


def _characterization(latency: bool = False, top: float = 0.0) -> dict[str, Any]:
    """Two user classes on a 4-hour grid; the second has a profile with fewer steps."""
    users = {"normal": 1 - top, **({"top": top} if top else {})}
    by_class = {"static": {"p50_s": 0.002}, "dynamic": {"p50_s": 0.04}} if latency else {}
    return {
        "classes": {"request": {"static": 0.6, "dynamic": 0.4}, "user": users},
        "latency_by_class": by_class,
        "model": {
            "profile_step_s": 3600.0,
            "duration_s": 4 * 3600.0,
            "classes": [
                {"name": "a", "profile": [[0, 0.01], [3600, 0.02], [7200, 0.03], [10800, 0.0]]},
                {"name": "b", "profile": [[3600, 0.01], [10800, 0.005]]},
            ],
        },
    }


def test_hourly_rates_sum_the_step_functions() -> None:
    rates, step = dp.hourly_rates(_characterization()["model"])
    assert step == 3600.0
    assert np.allclose(rates, [0.01, 0.03, 0.04, 0.005])


def test_mix_from_the_log_or_the_stated_defaults() -> None:
    assumed = dp.class_mix(_characterization())
    assert (assumed.static_share, assumed.top_share) == (0.6, dp.DEFAULT_TOP_SHARE)
    assert (assumed.static_mean_s, assumed.dynamic_mean_s) == (0.005, 0.05)
    assert assumed.top_assumed and assumed.service_assumed
    measured = dp.class_mix(_characterization(latency=True, top=0.3))
    assert (measured.top_share, measured.static_mean_s, measured.dynamic_mean_s) == (
        0.3,
        0.002,
        0.04,
    )
    assert not measured.top_assumed and not measured.service_assumed


def test_limits_reproduce_the_hand_worked_preset() -> None:
    """class_presets' 50/50 mix at 5 / 50 ms: MaxConn_D(T_D) = 5, MaxConn_D = 10."""
    mix = dp.ClassMix(0.5, 0.2, 0.005, 0.05, top_assumed=True, service_assumed=True)
    limits = dp.partition_limits(mix)
    assert (limits["maxconn_sla"], limits["maxconn"]) == (5, 10)
    # the dynamic share of the work: 0.5 x 50 / (0.5 x 5 + 0.5 x 50) = 10/11
    assert math.isclose(mix.dynamic_work_fraction, 10 / 11)


def test_class_policies_loads_scale_the_busiest_hour_to_1_4x_capacity() -> None:
    built = dp.class_policies_from(_characterization(), "log")
    rates, _ = dp.hourly_rates(_characterization()["model"])
    capacity = 6 / (0.6 * 0.005 + 0.4 * 0.05)
    factor = 1.4 * capacity / rates.max()
    expected = [round(float(np.quantile(rates, q)) * factor, 1) for q in dp.LOAD_QUANTILES]
    assert built.sweep is not None
    assert built.sweep["second"]["values"] == expected
    assert math.isclose(expected[-1], 1.4 * capacity, rel_tol=1e-3)
    assert f"x{factor:,.0f}" in built.scenario["name"] and "1.4x capacity" in built.scenario["name"]
    scenario = load_scenario(built.scenario)
    shares = {c.name: c.share for c in scenario.workload.classes or []}
    assert math.isclose(shares["static_top"] or 0, 0.6 * 0.2)
    assert math.isclose(shares["dynamic_normal"] or 0, 0.4 * 0.8, abs_tol=1e-6)
    assert sweep.validate(built.scenario, built.sweep) == 4 * 5
    assert f"{expected[-1]:g} req/s" in built.description


def test_virtual_queue_profile_is_the_hourly_profile_compressed_and_scaled() -> None:
    built = dp.virtual_queue_from(_characterization(), "log")
    profile = built.scenario["workload"]["arrivals"]["profile"]
    assert [t for t, _ in profile] == [0, 10, 20, 30]
    assert built.scenario["duration_s"] == 40
    factor = 130 / 0.04
    assert np.allclose([r for _, r in profile], np.array([0.01, 0.03, 0.04, 0.005]) * factor)
    assert "360x faster" in built.scenario["name"] and "busiest hour is 130 req/s" in (
        built.description
    )
    load_scenario(built.scenario)


def test_a_model_without_arrivals_is_refused() -> None:
    empty = _characterization()
    for cls in empty["model"]["classes"]:
        cls["profile"] = [[0, 0.0]]
    for build in (dp.class_policies_from, dp.virtual_queue_from):
        with pytest.raises(ValueError, match="no arrivals"):
            build(empty, "log")
