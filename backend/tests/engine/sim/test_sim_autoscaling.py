"""Autoscaling: policy decisions on hand-built observations, and lifecycle on hand-built runs."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation, load_scenario, sketch
from headroom.engine.sim import scenario as sc
from headroom.engine.sim.autoscaling import (
    LatencySloPolicy,
    Observation,
    PredictivePolicy,
    ScheduledPolicy,
    StepScalingPolicy,
    TargetTrackingPolicy,
    ThresholdPolicy,
)


def obs(
    util: list[float], now: float = 1000.0, active: int = 4, booting: int = 0, **kw: Any
) -> Observation:
    n = len(util)
    defaults: dict[str, Any] = {
        "arrivals": np.zeros(n, np.int32),
        "window_s": 60.0,
        "window_hist": np.zeros((0, sketch.n_buckets(sketch.COARSE_ALPHA)), np.int32),
    }
    return Observation(
        now_s=now,
        monitor_s=1.0,
        booting=booting,
        active=active,
        utilization=np.asarray(util, np.float32),
        active_series=np.full(n, active, np.int32),
        **{**defaults, **kw},
    )


def threshold(**kw: Any) -> ThresholdPolicy:
    return ThresholdPolicy(sc.ThresholdPolicy(policy="threshold", step_s=10, **kw))


def test_threshold_averages_over_time_steps() -> None:
    util = [0.3] * 30 + [1.0] * 10  # last step hot, the three before cool
    assert threshold(time_steps=4).decide(obs(util)) == 4  # mean 0.475: inside the band
    assert threshold(time_steps=1).decide(obs(util)) == 5  # mean 1.0: above 0.8
    assert threshold(time_steps=2).decide(obs(util)) == 4  # mean 0.65
    assert threshold(time_steps=4).decide(obs([0.3] * 40)) == 3  # below 0.4: release one


def test_threshold_cooldown_and_step_size() -> None:
    policy = threshold(time_steps=1, cooldown_s=40)
    policy.acted(1000.0)
    assert policy.decide(obs([1.0] * 10, now=1030.0)) == 4  # within the cooldown
    assert policy.decide(obs([1.0] * 10, now=1040.0)) == 5
    assert threshold(time_steps=1, step_size=3).decide(obs([1.0] * 10)) == 7
    # "band_middle": enough VMs to bring 4 x 0.95 to the band's middle 0.6 -> ceil(6.33) = 7
    assert threshold(time_steps=1, step_size="band_middle").decide(obs([0.95] * 10)) == 7


def test_target_tracking_follows_the_hpa_formula() -> None:
    cfg = sc.TargetTrackingPolicy(policy="target_tracking", target=0.6, step_s=10)
    policy = TargetTrackingPolicy(cfg)
    assert policy.decide(obs([0.9] * 10, now=0.0)) == 6  # ceil(4 x 0.9 / 0.6)
    assert policy.decide(obs([0.63] * 10, now=10.0)) == 4  # ratio 1.05: within tolerance
    # Scale-in is stabilised: the highest recommendation of the last 300 s wins.
    six = obs([0.2] * 10, now=20.0, active=6)
    assert policy.decide(six) == 6
    late = obs([0.2] * 10, now=400.0, active=6)
    assert policy.decide(late) == 2  # ceil(6 x 0.2 / 0.6); older highs left the window


def test_step_scaling_bands() -> None:
    policy = StepScalingPolicy(sc.StepPolicy(policy="step", step_s=10, cooldown_s=0))
    assert policy.decide(obs([0.95] * 10)) == 7
    assert policy.decide(obs([0.85] * 10)) == 5
    assert policy.decide(obs([0.5] * 10)) == 4
    assert policy.decide(obs([0.1] * 10)) == 3
    assert policy.decide(obs([1.0] * 10)) == 7


def test_scheduled_policy() -> None:
    policy = ScheduledPolicy(sc.ScheduledPolicy(policy="scheduled", schedule=[(100, 2), (200, 5)]))
    assert policy.decide(obs([0.5], now=50)) == 4
    assert policy.decide(obs([0.5], now=150)) == 2
    assert policy.decide(obs([0.5], now=250)) == 5


def test_latency_slo_policy() -> None:
    cfg = sc.LatencySloPolicy(policy="latency_slo", threshold_s=1.0, step_s=60, cooldown_s=0)
    policy = LatencySloPolicy(cfg, 1.0)
    hist = np.zeros((2, sketch.n_buckets(sketch.COARSE_ALPHA)), np.int32)
    slow, fast = hist.copy(), hist.copy()
    inv = 1 / sketch.log_gamma(sketch.COARSE_ALPHA)
    slow[-1, sketch.bucket_of(2.0, inv, hist.shape[1])] = 100  # p95 = 2 s > 1 s
    fast[-1, sketch.bucket_of(0.1, inv, hist.shape[1])] = 100
    assert policy.decide(obs([0.9] * 60, window_hist=slow)) == 5
    assert policy.decide(obs([0.9] * 60, window_hist=fast)) == 4  # fast but busy: hold
    assert policy.decide(obs([0.1] * 60, window_hist=fast)) == 3  # fast and idle: release


def test_predictive_policy_uses_the_same_time_last_season() -> None:
    cfg = sc.PredictivePolicy(policy="predictive", season_s=100, horizon_s=10, step_s=10)
    cfg = cfg.model_copy(update={"target_utilization": 0.5, "time_steps": 1})
    policy = PredictivePolicy(cfg, work_per_request_s=0.1, capacity=1.0)
    arrivals = np.zeros(100, np.int32)
    arrivals[0:10] = 50  # 50 requests per 1 s tick at t in [0, 10) of the last season
    o = obs([0.5] * 100, now=100.0, arrivals=arrivals)
    assert policy.forecast_rate_per_s(o) == pytest.approx(50.0)
    assert policy.decide(o) == math.ceil(50 * 0.1 / 0.5)


def test_predictive_policy_takes_the_given_forecasts_peak_over_its_horizon() -> None:
    # Points (0, 10), (100, 50), (200, 20) joined by straight lines. Hand-worked peaks of the
    # horizon [now, now + 30]: at now = 50 the edges 30 and 42 (no point inside); at 80 the
    # point 50 at t = 100 is inside; at 190 the right edge lies beyond the last point (20).
    forecast = [(0.0, 10.0), (100.0, 50.0), (200.0, 20.0)]
    cfg = sc.PredictivePolicy(policy="predictive", horizon_s=30, step_s=10, forecast=forecast)
    cfg = cfg.model_copy(update={"target_utilization": 0.5})
    policy = PredictivePolicy(cfg, work_per_request_s=0.1, capacity=1.0)
    assert policy.forecast_rate_per_s(obs([0.5] * 10, now=50.0)) == pytest.approx(42.0)
    assert policy.forecast_rate_per_s(obs([0.5] * 10, now=80.0)) == pytest.approx(50.0)
    assert policy.forecast_rate_per_s(obs([0.5] * 10, now=190.0)) == pytest.approx(23.0)
    assert policy.decide(obs([0.5] * 10, now=80.0)) == math.ceil(50 * 0.1 / 0.5)


def test_predictive_forecast_times_must_increase() -> None:
    with pytest.raises(ValueError, match="forecast times must increase"):
        sc.PredictivePolicy(policy="predictive", forecast=[(10.0, 1.0), (10.0, 2.0)])


def run(autoscaling: dict[str, Any], vms: dict[str, int], **extra: Any) -> Any:
    scenario = {
        "duration_s": extra.pop("duration_s", 300),
        "seed": 3,
        "workload": extra.pop(
            "workload",
            {"arrivals": {"rate_per_s": 5}, "service_s": {"dist": "exponential", "mean": 0.1}},
        ),
        "cluster": {"vms": vms, "boot_s": extra.pop("boot_s", 25)},
        "autoscaling": {"monitor_s": 1.0, **autoscaling},
        **extra,
    }
    return Simulation(load_scenario(scenario), trace=True).run()


def at(series: np.ndarray, r: Any, t: float) -> int:
    return int(series[np.argmin(np.abs(r.series.t_s - t))])


def test_boot_delay() -> None:
    sched = {"policy": "scheduled", "schedule": [[0, 1], [60, 3]], "step_s": 60}
    r = run(sched, {"min": 1, "max": 5, "start": 1})
    s = r.series
    assert at(s.allocated_vms, r, 60) == 1 and at(s.allocated_vms, r, 61) == 3
    assert at(s.active_vms, r, 85) == 1  # booting VMs count as allocated, not active
    assert at(s.active_vms, r, 86) == 3  # active from 60 + boot_s = 85
    assert r.actions[0].t_s == 60 and (r.actions[0].from_vms, r.actions[0].to_vms) == (1, 3)


def test_min_max_clamps() -> None:
    busy = {"arrivals": {"rate_per_s": 100}, "service_s": {"dist": "exponential", "mean": 0.1}}
    hot = {"policy": "threshold", "step_s": 10, "time_steps": 1, "cooldown_s": 0}
    r = run(hot, {"min": 1, "max": 3, "start": 1}, workload=busy, boot_s=0)
    assert r.series.allocated_vms.max() == 3 and r.vms.max_allocated == 3
    idle = {"arrivals": {"rate_per_s": 0.1}, "service_s": {"dist": "exponential", "mean": 0.1}}
    r = run(hot, {"min": 2, "max": 5, "start": 5}, workload=idle, boot_s=0)
    assert r.series.allocated_vms.min() >= 2 and r.series.allocated_vms[-1] == 2
    sched = {"policy": "scheduled", "schedule": [[0, 9]], "step_s": 10}
    assert run(sched, {"min": 1, "max": 4, "start": 1}).vms.max_allocated == 4


def test_cooldown_spaces_actions() -> None:
    busy = {"arrivals": {"rate_per_s": 100}, "service_s": {"dist": "exponential", "mean": 0.1}}
    policy = {"policy": "threshold", "step_s": 10, "time_steps": 1, "cooldown_s": 35}
    r = run(policy, {"min": 1, "max": 20, "start": 1}, workload=busy, boot_s=0, duration_s=200)
    times = np.array([a.t_s for a in r.actions])
    assert len(times) >= 4 and np.all(np.diff(times) >= 35)
    assert np.allclose(np.diff(times), 40)  # the first step end after each cooldown


def test_draining_loses_nothing() -> None:
    page = {
        "objects": {"dist": "constant", "value": 20},
        "gap_s": {"dist": "uniform", "low": 0, "high": 2},
    }
    workload = {
        "arrivals": {"rate_per_s": 2},
        "page": page,
        "service_s": {"dist": "exponential", "mean": 0.05},
    }
    sched = {"policy": "scheduled", "schedule": [[0, 4], [100, 1]], "step_s": 50}
    r = run(sched, {"min": 1, "max": 4, "start": 4}, workload=workload)
    tr = r.trace
    assert r.rejected == 0 and r.pages_failed == 0
    assert r.requests == r.completed + r.in_system_at_end
    assert np.allclose(tr.end_s - tr.start_s >= tr.demand_s - 1e-9, True)  # none cut short
    # Draining VMs stay allocated while their pages finish (~20 s), then are released.
    assert at(r.series.allocated_vms, r, 101) == 4 and at(r.series.active_vms, r, 101) == 1
    assert at(r.series.allocated_vms, r, 160) == 1
    # Requests of pages that started on a draining VM still completed there after t = 100.
    late = (tr.end_s > 101) & (tr.page_arrival_s < 100) & (tr.vm != tr.vm[-1])
    assert late.any()
    assert r.vms.vm_hours < 4 * 300 / 3600


@pytest.mark.parametrize(("time_steps", "expected"), [(1, [(40.0, 1, 2), (50.0, 2, 1)]), (4, [])])
def test_time_step_window_in_a_run(time_steps: int, expected: list[tuple[float, int, int]]) -> None:
    # One saturated 10 s step (12/s x 0.1 s) between light ones (1/s: utilisation ~0.1).
    # Averaged over 1 step, the hot step alone exceeds 0.8 at t = 40 (scale out) and the
    # next, light one is below 0.4 at t = 50 (scale back in): close tracking. Averaged
    # over 4, the mean is near (3 x 0.1 + 1) / 4 = 0.33 at t = 40 and lower after: never
    # above 0.8, so no scale-out (and one VM is the minimum, so no scale-in either).
    workload = {
        "arrivals": {"profile": [[0, 1.0], [30, 12.0], [40, 1.0]]},
        "service_s": {"dist": "constant", "value": 0.1},
    }
    policy = {"policy": "threshold", "step_s": 10, "time_steps": time_steps, "cooldown_s": 0}
    r = run(policy, {"min": 1, "max": 3, "start": 1}, workload=workload, boot_s=0, duration_s=80)
    assert [(a.t_s, a.from_vms, a.to_vms) for a in r.actions] == expected


def test_predictive_scaling_from_a_forecast_is_ready_before_the_ramp() -> None:
    # The rate steps from 2/s to 40/s at t = 200 (0.1 s each: 4 busy cores). Fed the same
    # profile as its forecast, with a 120 s horizon and 60 s boots, the predictive policy has
    # the 8 VMs that 40/s needs at 60% utilisation active before t = 200; the reactive
    # threshold policy only starts booting after the ramp has made the VMs hot.
    profile = [[0, 2.0], [199.9, 2.0], [200, 40.0], [400, 40.0]]
    workload = {"arrivals": {"profile": profile}, "service_s": {"dist": "constant", "value": 0.1}}
    base = {"step_s": 10, "time_steps": 1, "cooldown_s": 0}
    predictive = {**base, "policy": "predictive", "horizon_s": 120, "target_utilization": 0.5}
    predictive["forecast"] = profile
    vms = {"min": 1, "max": 12, "start": 1}
    setting = {"workload": workload, "boot_s": 60, "duration_s": 400}
    ahead = run(predictive, vms, **setting)
    reactive = run({**base, "policy": "threshold"}, vms, **setting)
    assert at(ahead.series.active_vms, ahead, 199) == math.ceil(40 * 0.1 / 0.5)
    assert at(reactive.series.active_vms, reactive, 199) == 1
    assert ahead.latency.p95_s < reactive.latency.p95_s
