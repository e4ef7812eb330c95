"""A multi-tier run's per-tier document against the engine's tick series: the VM and pool
step functions reproduce every tick (unbounded pools as null), the bucket means keep each
tier's mean utilisation, and every pool change the policy made is listed."""

import csv
import math
from functools import cache
from pathlib import Path

import numpy as np

from headroom.engine.sim import Simulation
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.tiers.presets import concurrency_scenario
from headroom.simulations.documents import run_document
from headroom.simulations.result_models import stored
from headroom.simulations.tier_docs import tiers_document

PROFILE = Path(__file__).resolve().parents[3] / "data" / "profiles" / "big_spike.csv"


@cache
def _tiered() -> SimulationResult:
    with open(PROFILE, newline="") as f:
        profile = [(float(r["t_s"]), float(r["rate_per_s"])) for r in csv.DictReader(f)]
    return Simulation(concurrency_scenario(profile, "concurrency_aware", 1, time_scale=1 / 6)).run()


def _at_ticks(steps: dict[str, list], starts: np.ndarray) -> list:
    at = np.searchsorted(np.asarray(steps["t_s"]), starts, side="right") - 1
    return [steps["value"][i] for i in at]


def test_tier_steps_reproduce_every_tick() -> None:
    result = _tiered()
    document = stored(run_document(result))["tiers"]
    series = result.tier_series
    assert series is not None and document is not None
    starts = np.asarray(series["t_s"]) - result.series.monitor_s
    names = [t.name for t in result.scenario.cluster.tiers or []]
    assert [t["name"] for t in document["tiers"]] == names
    assert document["scaled"] == result.scenario.autoscaling.tier
    for tier in document["tiers"]:
        for key in ("allocated", "active", "pool"):
            ticks = series[f"{tier['name']}.{key}"]
            expected = [v if math.isfinite(v) else None for v in ticks.tolist()]
            assert _at_ticks(tier[key], starts) == expected, (tier["name"], key)
            assert tier[key]["t_s"][-1] == result.duration_s
            assert len(tier[key]["t_s"]) <= 2000


def test_tier_means_and_pool_changes() -> None:
    result = _tiered()
    document = stored(run_document(result))["tiers"]
    series = result.tier_series
    assert series is not None and document is not None
    n = len(series["t_s"])
    size = round(document["bucket_s"] / result.series.monitor_s)
    counts = np.diff(np.append(np.arange(0, n, size), n))
    assert len(document["t_s"]) == len(counts) <= 500
    for tier in document["tiers"]:
        # float64 sums of float32 ticks on both sides
        mean = float(np.dot(tier["utilization"], counts)) / n
        assert (
            abs(mean - float(np.mean(series[f"{tier['name']}.utilization"], dtype=np.float64)))
            < 1e-9
        )
    changes = series["pool_changes"]
    assert len(changes) > 0  # the concurrency-aware policy resized the db pools
    assert document["pool_changes_total"] == len(changes)
    assert [c["t_s"] for c in document["pool_changes"]] == [c.t_s for c in changes]
    assert sum(r["pool_changes"] for r in (result.tiers or {}).values()) == len(changes)


def test_single_tier_runs_have_no_tier_document() -> None:
    assert tiers_document(None, ["web"], None, 0.1, 10.0) is None
