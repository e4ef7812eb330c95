"""The run document's display shapes against hand-worked series and exact invariants: the
VM step function reproduces every tick, bucket means keep the run's mean, the overall CDF
is the classes' sketches added up."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from simulations.scenarios import scaling

from headroom.engine.sim import Simulation, TimeSeries
from headroom.simulations.documents import bucket_means, run_document, vm_steps
from headroom.simulations.result_models import (
    RunSummary,
    SweepAxis,
    SweepDocument,
    SweepKeyNumbers,
    SweepRow,
    stored,
)
from headroom.simulations.summaries import key_numbers


def series(allocated: list[int], active: list[int], arrivals: list[float]) -> TimeSeries:
    n = len(allocated)
    zeros = np.zeros(n, dtype=np.float32)
    return TimeSeries(
        monitor_s=0.5,
        t_s=np.arange(1, n + 1) * 0.5,
        allocated_vms=np.asarray(allocated, dtype=np.int32),
        active_vms=np.asarray(active, dtype=np.int32),
        arrivals_per_s=np.asarray(arrivals, dtype=np.float32),
        completions_per_s=zeros,
        rejected_per_s=zeros,
        utilization=np.linspace(0, 1, n).astype(np.float32),
        waiting=np.zeros(n, dtype=np.int32),
        in_system=np.zeros(n, dtype=np.int32),
        window_s=1.0,
        window_p95_latency_s=np.zeros(n // 2),
        window_violated=np.zeros(n // 2, dtype=np.bool_),
    )


def test_vm_steps_by_hand() -> None:
    # ticks end at 0.5, 1.0, ... 3.0; a VM is requested in tick 3 and boots in tick 5
    steps = stored(vm_steps(series([2, 2, 3, 3, 3, 3], [2, 2, 2, 2, 3, 3], [0.0] * 6), 100))
    assert steps == {
        "t_s": [0.0, 1.0, 2.0, 3.0],
        "allocated_vms": [2, 3, 3, 3],
        "active_vms": [2, 2, 3, 3],
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 3)), min_size=2, max_size=80))
def test_vm_steps_reproduce_every_tick(rows: list[tuple[int, int]]) -> None:
    allocated = [a for a, _ in rows]
    active = [max(0, a - b) for a, b in rows]
    s = series(allocated, active, [0.0] * len(rows))
    steps = stored(vm_steps(s, 1000))
    tick_starts = s.t_s - s.monitor_s
    at = np.searchsorted(np.asarray(steps["t_s"]), tick_starts, side="right") - 1
    assert np.array_equal(np.asarray(steps["allocated_vms"])[at], allocated)
    assert np.array_equal(np.asarray(steps["active_vms"])[at], active)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0, 1e4, allow_nan=False), min_size=1, max_size=300),
    st.integers(1, 50),
)
def test_bucket_means_keep_the_mean_and_the_time_span(values: list[float], buckets: int) -> None:
    s = series([1] * len(values), [1] * len(values), values)
    out = stored(bucket_means(s, buckets))
    size = round(out["bucket_s"] / s.monitor_s)
    counts = np.diff(np.append(np.arange(0, len(values), size), len(values)))
    assert len(out["t_s"]) == len(counts) <= buckets
    assert out["t_s"][-1] == s.t_s[-1]
    weighted = np.dot(out["arrivals_per_s"], counts) / len(values)
    expected = np.mean(np.asarray(values, dtype=np.float32), dtype=np.float64)
    assert abs(weighted - expected) <= 1e-9 * max(1.0, expected)  # float64 sums of float32 values


def test_a_run_document_is_small_and_consistent_with_the_run() -> None:
    result = Simulation(scaling()).run(7)
    document = stored(run_document(result))
    steps = document["vm_steps"]
    assert max(steps["allocated_vms"]) == result.vms.max_allocated
    changes = sum(
        1
        for a, b in zip(steps["allocated_vms"], steps["allocated_vms"][1:], strict=False)
        if a != b
    )
    assert changes == len(result.actions)  # one allocation change per scaling action
    assert steps["t_s"][-1] == result.duration_s
    cdf = document["latency_cdf"]
    assert cdf["fraction"][-1] == 1.0 and cdf["x_s"] == sorted(cdf["x_s"])
    assert document["plt_cdf"] is None  # single requests, no pages
    assert len(document["rates"]["t_s"]) <= 500
    windows = document["series"]
    assert len(windows["window_t_s"]) == len(windows["window_violated"]) <= 1500


def test_a_sweeps_key_numbers_name_its_cheapest_run_without_violations() -> None:
    latency = {"mean": 0.1, "median": 0.1, "p95": 0.2, "p99": 0.3}
    vms = {"mean_allocated": 2, "mean_active": 2, "max_allocated": 3, "vm_hours": 1}

    def row(index: int, cost: float, violations: float) -> SweepRow:
        summary = {
            "requests": 10,
            "pages": 0,
            "plt_s": None,
            "latency_s": latency,
            "vms": {**vms, "scaling_actions": 1, "cost": cost},
            "rejected_fraction": 0,
            "sla_violation_fraction": violations,
            "events": 20,
            "wall_s": 0.1,
            "seed": 1,
        }
        return SweepRow(index=index, values={"autoscaling.upper": index / 10}, cost=cost,
                        vm_hours=1, sla_violation_fraction=violations, rejected_fraction=0,
                        latency_p95_s=0.2, plt_p95_s=None,
                        summary=RunSummary.model_validate(summary))  # fmt: skip

    rows = [row(0, 5.0, 0.0), row(1, 3.0, 0.2), row(2, 4.0, 0.0)]
    axes = [SweepAxis(path="autoscaling.upper", values=[0.0, 0.1, 0.2])]
    numbers = key_numbers(SweepDocument(kind="sweep", axes=axes, runs=rows))
    assert isinstance(numbers, SweepKeyNumbers) and numbers.runs == 3
    assert numbers.best.values == {"autoscaling.upper": 0.2}  # 4.0: the cheapest at 0%
    assert key_numbers(SweepDocument(kind="sweep", axes=[], runs=[])) is None
