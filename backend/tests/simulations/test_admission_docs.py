"""The admission parts of the stored documents against brute force: the thinned K(t) step
function gives the value in force at every original instant (exactly, up to the point
budget), bucket means keep the totals, the weighted mean wait is the mean over the
requests that waited, the bucket maximum is the longest wait; sweep rows carry per-class
p95 and rejected fraction straight from the run's summary."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from simulations.scenarios import mm1

from headroom.engine.sim import Simulation
from headroom.simulations import admission_docs
from headroom.simulations.admission_docs import k_steps, second_buckets, series_document
from headroom.simulations.documents import run_document, summary, sweep_row
from headroom.simulations.result_models import stored


def k_at(t: float, steps: dict[str, list[float]]) -> float:
    """The step function's value at t (K from t_s[i] on)."""
    i = int(np.searchsorted(np.asarray(steps["t_s"]), t, side="right")) - 1
    return steps["k"][max(i, 0)]


def test_k_steps_by_hand() -> None:
    steps = k_steps([0, 10, 20, 30, 40], [3, 3, 4, 4, 3], end_s=50, max_points=100)
    assert steps == {"t_s": [0.0, 20.0, 40.0, 50.0], "k": [3.0, 4.0, 3.0, 3.0]}


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=120))
def test_k_steps_reproduce_every_period(ks: list[int]) -> None:
    t = [10.0 * i for i in range(len(ks))]
    steps = k_steps(t, ks, end_s=10.0 * len(ks), max_points=4000)
    assert all(k_at(ti + 0.5, steps) == k for ti, k in zip(t, ks, strict=True))
    assert steps["t_s"][-1] == 10.0 * len(ks)
    assert len(steps["t_s"]) <= len(ks) + 1


def test_k_steps_thinned_keep_the_budget_and_values_in_force() -> None:
    ks = np.tile([3, 4], 5000)  # 9,999 changes
    steps = k_steps(np.arange(ks.size) * 10.0, ks, end_s=1e5, max_points=400)
    assert len(steps["t_s"]) <= 400
    # every kept point shows the value that was really in force from then on
    assert all(
        ks[int(t // 10)] == k for t, k in zip(steps["t_s"][:-1], steps["k"][:-1], strict=True)
    )


def vq_series(n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    offered = rng.poisson(20.0, n).astype(np.float64)
    dropped = np.minimum(offered, rng.poisson(1.0, n))
    mean = rng.uniform(0, 30, n)
    mean[offered - dropped == 0] = np.nan  # nobody waited that second
    return {
        "second_t_s": np.arange(n, dtype=np.float64),
        "second_offered": offered,
        "second_admitted": rng.poisson(18.0, n).astype(np.float64),
        "second_dropped": dropped.astype(np.float64),
        "second_wait_mean_s": mean,
        "second_wait_max_s": np.where(np.isnan(mean), np.nan, mean * 2),
    }


def test_second_buckets_against_brute_force() -> None:
    rng = np.random.default_rng(7)
    s = vq_series(1000, rng)
    out = second_buckets(s, 64)
    size = math.ceil(1000 / 64)  # 16 s buckets
    assert out["bucket_s"] == size and len(out["bucket_t_s"]) == math.ceil(1000 / size)
    for b, end in enumerate(out["bucket_t_s"]):
        part = slice(b * size, min((b + 1) * size, 1000))
        assert end == min((b + 1) * size, 1000)
        assert out["second_offered"][b] == np.mean(s["second_offered"][part])
        waited = s["second_offered"][part] - s["second_dropped"][part]
        ok = waited > 0
        if ok.any():
            mean = s["second_wait_mean_s"][part][ok]
            expected = float(np.sum(mean * waited[ok]) / np.sum(waited[ok]))
            assert math.isclose(out["wait_mean_s"][b], expected, rel_tol=1e-12)
            assert out["wait_max_s"][b] == np.nanmax(s["second_wait_max_s"][part])
        else:
            assert out["wait_mean_s"][b] is None and out["wait_max_s"][b] is None
    # the bucket means keep the offered total (the last bucket may be shorter)
    counts = np.diff(np.append(np.arange(0, 1000, size), 1000))
    assert math.isclose(float(np.dot(out["second_offered"], counts)), s["second_offered"].sum())


def test_virtual_queue_document_names_phases_and_nulls_nan() -> None:
    s = {
        **vq_series(10, np.random.default_rng(1)),
        "epoch_t_s": np.array([8.0, 16.0, 24.0]),
        "epoch_rate_per_s": np.array([15.0, 17.25, 19.8]),
        "epoch_goodput_per_s": np.array([15.0, 17.0, 19.0]),
        "epoch_response_s": np.array([0.01, 0.011, 0.012]),
        "epoch_power": np.array([1500.0, 1545.0, 1583.0]),
        "epoch_phase": np.array([0, 0, 2]),
        "epoch_estimate_per_s": np.array([np.nan, np.nan, 80.0]),
    }
    typed = series_document(s, end_s=10.0)
    assert typed is not None
    doc = stored(typed)
    assert doc["kind"] == "virtual_queue"
    assert doc["epoch_phase"] == ["coarse", "coarse", "fine"]
    assert doc["epoch_estimate_per_s"] == [None, None, 80.0]
    assert series_document(None, 10.0) is None


def test_run_and_sweep_documents_carry_class_figures() -> None:
    result = Simulation(mm1(duration_s=300.0)).run()
    doc = stored(run_document(result))
    assert doc["admission"] is None and doc["admission_series"] is None
    (cls,) = doc["classes"]
    assert cls["arrived"] == result.classes[0].arrived
    assert cls["rejected_fraction"] == result.classes[0].rejected_fraction
    row = stored(sweep_row(0, {"workload.arrivals.rate_per_s": 0.8}, summary(result)))
    assert row["classes"] == {
        "default": {
            "latency_p95_s": result.classes[0].latency.p95_s,
            "plt_p95_s": None,
            "rejected_fraction": result.classes[0].rejected_fraction,
        }
    }
    without = summary(result).model_copy(update={"classes": {}})
    assert admission_docs.class_figures(without) == {}
