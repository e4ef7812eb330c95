"""Invariants on random small scenarios (Hypothesis), reproducibility, results plumbing."""

from __future__ import annotations

import ast
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom.engine.sim import ENGINE_VERSION, Simulation, load_scenario
from headroom.engine.sim.results import lttb_indices

SERVICE = st.sampled_from(
    [
        {"dist": "exponential", "mean": 0.2},
        {"dist": "uniform", "low": 0.01, "high": 0.5},
        {"dist": "constant", "value": 0.1},
        {"dist": "lognormal", "mu": -2.0, "sigma": 1.0},
    ]
)
POLICY: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [
        {"policy": "none"},
        {"policy": "threshold", "step_s": 10, "time_steps": 2, "cooldown_s": 10},
        {"policy": "target_tracking", "step_s": 5, "stabilization_s": 20},
        {"policy": "latency_slo", "step_s": 10, "threshold_s": 0.5, "window_s": 10},
        {"policy": "step", "step_s": 10, "cooldown_s": 0},
    ]
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    vmax = draw(st.integers(1, 4))
    workload: dict[str, Any] = {
        "arrivals": {"rate_per_s": draw(st.floats(0.5, 30))},
        "service_s": draw(SERVICE),
    }
    if draw(st.booleans()):
        workload["page"] = {
            "objects": {"dist": "uniform", "low": 0, "high": draw(st.integers(0, 6))},
            "gap_s": {"dist": "exponential", "mean": 0.2},
            "push_fraction": draw(st.sampled_from([0.0, 0.5, 1.0])),
            "early_hints": draw(st.booleans()),
        }
    cluster: dict[str, Any] = {
        "vms": {"min": 1, "max": vmax, "start": draw(st.integers(1, vmax))},
        "cores": draw(st.integers(1, 3)),
        "discipline": draw(st.sampled_from(["ps", "fcfs"])),
        "boot_s": draw(st.sampled_from([0, 7.5])),
    }
    if draw(st.booleans()):
        cluster["pool_limit"] = draw(st.integers(1, 4))
        cluster["accept_queue"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        cluster["overhead"] = {"q_upper": 2, "factor": 0.9}
    dispatch = {
        "policy": draw(
            st.sampled_from(
                ["round_robin", "weighted_round_robin", "least_connections", "lru", "random"]
            )
        ),
        "per": draw(st.sampled_from(["page", "request"])),
        "weights": [1, 3],
    }
    return {
        "duration_s": draw(st.sampled_from([20, 60, 95])),
        "seed": draw(st.integers(0, 2**16)),
        "workload": workload,
        "cluster": cluster,
        "dispatch": dispatch,
        "autoscaling": {**draw(POLICY), "monitor_s": 0.5},
        "sla": {"threshold_s": 0.5, "window_s": 10},
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_conservation_little_and_bookkeeping(doc: dict[str, Any]) -> None:
    r = Simulation(load_scenario(doc)).run()
    # Conservation: every request that arrived completed, was refused, or is still inside.
    assert r.requests == r.completed + r.rejected + r.in_system_at_end
    # Little's law over [0, T] from an empty start, counting time-in-system up to T for the
    # requests still inside: the time-average L (integrated event by event) must equal
    # lambda W (summed request by request). Exact up to rounding; required within 1%.
    if r.little.arrival_rate_per_s > 0:
        assert r.little.relative_error < 0.01
    s = r.series
    assert int(s.arrivals_per_s.sum() * s.monitor_s + 0.5) == r.requests
    assert int(s.completions_per_s.sum() * s.monitor_s + 0.5) == r.completed
    assert int(s.rejected_per_s.sum() * s.monitor_s + 0.5) == r.rejected
    assert r.latency.count == r.completed
    if r.completed:
        assert r.latency.p50_s <= r.latency.p95_s <= r.latency.p99_s <= r.latency.max_s * 1.01
    vms = doc["cluster"]["vms"]
    assert vms["min"] <= s.allocated_vms.min() and s.allocated_vms.max() <= vms["max"]
    assert np.all(s.active_vms <= s.allocated_vms)
    assert s.utilization.min() >= 0 and s.utilization.max() <= 1
    assert r.vms.vm_hours <= vms["max"] * doc["duration_s"] / 3600 + 1e-9


def mm1(seed: int) -> Any:
    doc = {
        "duration_s": 20000,
        "seed": seed,
        "workload": {
            "arrivals": {"rate_per_s": 0.5},
            "service_s": {"dist": "exponential", "mean": 1},
        },
        "autoscaling": {"monitor_s": 10, "step_s": 5000},
        "sla": {"threshold_s": 5, "window_s": 100},
    }
    return Simulation(load_scenario(doc)).run()


def test_same_seed_identical_results() -> None:
    a, b = mm1(1), mm1(1)
    summary_a, summary_b = a.summary(), b.summary()
    summary_a.pop("wall_s"), summary_b.pop("wall_s")
    assert summary_a == summary_b
    assert np.array_equal(a.series.in_system, b.series.in_system)
    assert np.array_equal(
        a.series.window_p95_latency_s, b.series.window_p95_latency_s, equal_nan=True
    )
    assert a.seed == 1 and a.engine_version == ENGINE_VERSION and a.scenario.seed == 1


def test_different_seeds_differ_but_agree_statistically() -> None:
    means = np.array([mm1(seed).latency.mean_s for seed in range(1, 6)])
    assert len(set(means)) == 5
    # M/M/1-PS at rho 0.5: mean 2 s. Each run (~10,000 requests, relaxation ~10 s) has
    # a standard error near 0.06 s; 6 standard errors is a safe bound for every seed.
    assert np.all(np.abs(means - 2.0) < 0.4), means


def test_summary_contract_and_sla() -> None:
    r = mm1(2)
    s = r.summary()
    assert set(s) >= {"requests", "pages", "plt_s", "latency_s", "vms", "rejected_fraction"}
    assert set(s) >= {"sla_violation_fraction", "events", "wall_s"}
    assert set(s["latency_s"]) == {"mean", "median", "p95", "p99"} and s["plt_s"] is None
    assert set(s["vms"]) == {
        "mean_allocated",
        "mean_active",
        "max_allocated",
        "vm_hours",
        "scaling_actions",
    }
    # SLA: a window violates when more than 5% of its latencies exceed 5 s; the count of
    # such windows over windows with traffic, recomputed from the windowed p95 (within
    # the coarse sketch's 2%), must agree except for windows whose p95 sits at 5 s +- 2%.
    p95 = r.series.window_p95_latency_s
    seen = ~np.isnan(p95)
    borderline = np.abs(p95[seen] - 5) < 0.02 * 5
    by_p95 = (p95[seen] > 5)[~borderline]
    assert np.array_equal(by_p95, r.series.window_violated[seen][~borderline])
    assert r.sla_violation_fraction == r.series.window_violated[seen].mean()
    assert math.isclose(r.vms.vm_hours, 20000 / 3600)


def test_downsample_and_boxes() -> None:
    r = mm1(3)
    d = r.series.downsample(max_points=100)
    assert len(d["in_system"]) == 100 and d["in_system_t_s"][0] == r.series.t_s[0]
    assert d["in_system_t_s"][-1] == r.series.t_s[-1]
    x = np.arange(1000.0)
    y = np.zeros(1000)
    y[500] = 10.0
    assert 500 in lttb_indices(x, y, 50)  # LTTB keeps the spike
    (box,) = r.utilization_boxes
    assert box.allocated_vms == 1 and box.samples == len(r.series.t_s)
    assert box.min <= box.q1 <= box.median <= box.q3 <= box.max
    assert abs(np.mean(r.series.utilization) - 0.5) < 0.05  # utilisation = rho


def test_engine_imports_nothing_from_the_web_side() -> None:
    forbidden = ("fastapi", "sqlalchemy", "celery", "headroom.core", "headroom.settings")
    package = Path(__file__).parents[3] / "headroom" / "engine" / "sim"
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                assert not any(n.startswith(forbidden) for n in names), (path, names)


def test_progress_reports_and_cancels() -> None:
    seen: list[float] = []
    doc = {
        "duration_s": 600,
        "workload": {
            "arrivals": {"rate_per_s": 1},
            "service_s": {"dist": "constant", "value": 0.1},
        },
    }
    Simulation(load_scenario(doc)).run(progress=seen.append)
    assert seen == [k / 10 for k in range(1, 11)]  # one report per 60 s decision period

    class Cancelled(Exception):
        pass

    def cancel(fraction: float) -> None:
        if fraction >= 0.3:
            raise Cancelled

    try:
        Simulation(load_scenario(doc)).run(progress=cancel)
    except Cancelled:
        pass
    else:  # pragma: no cover
        raise AssertionError("the progress callback's exception must stop the run")


def test_every_run_in_this_folder_is_checked() -> None:
    # conftest.py wraps Simulation.run with assert_conserved for every test module here.
    assert Simulation.run.__name__ == "checked"


def test_the_scenario_contract_is_light_to_import() -> None:
    # The API validates scenarios; it must not pay numba's import (or polars').
    code = (
        "import sys; import headroom.engine.sim as sim; import headroom.engine.sim.scenario;"
        " sim.load_scenario, sim.ScenarioError, sim.scenario_json_schema;"
        " print(sorted({'numba', 'polars'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
