"""The virtual-queue recommendation of a capacity report, on the demo's synthetic M/M/4 log
(25 req/s per core, load rising from 5% to 95% over 20 minutes): C is the power-ratio
capacity, X the all-requests knee curve at C, and W the longest wait the wait-time
scheduler gives over the log's arrivals, checked against a plain Python scheduler (each
second takes at most floor(C) requests, an arrival takes the first second from its own
with room)."""

import json
import math

import numpy as np
import polars as pl
import pytest

from headroom.engine.capacity import analyze, synth
from headroom.engine.capacity.report import virtual_queue_advice


@pytest.fixture(scope="module")
def demo_table() -> pl.DataFrame:
    rates_per_s = [float(r) for r in np.linspace(0.05, 0.95, 20) * 100.0]
    return synth.queue_log(rates_per_s, 60.0, 25.0, 4, np.random.default_rng(2026))


def brute_force_waits(arrival_t_s: np.ndarray, capacity_per_s: float) -> np.ndarray:
    per_second = math.floor(capacity_per_s + 1e-9)
    booked: dict[int, int] = {}
    waits = np.empty(arrival_t_s.size, dtype=np.int64)
    start = arrival_t_s.min()
    for j, t in enumerate(np.sort(arrival_t_s) - start):
        now = math.floor(t)
        i = 0
        while booked.get(now + i, 0) >= per_second:
            i += 1
        booked[now + i] = booked.get(now + i, 0) + 1
        waits[j] = i
    return waits


def test_advice_on_the_demo_log(demo_table: pl.DataFrame) -> None:
    report = analyze(demo_table)
    advice = report.virtual_queue
    c = report.capacity.power_peak_load_per_s
    assert advice is not None and c is not None
    assert advice.capacity_per_s == c  # one site, no servers named
    t_s = (demo_table["ts"] - demo_table["ts"].min()).dt.total_nanoseconds().to_numpy() / 1e9
    waits = brute_force_waits(t_s, c)
    assert advice.max_wait_s == waits.max()
    assert advice.refused == 0
    # the peak: the load reaches 95 req/s, above C, so users would wait
    assert advice.max_wait_s > 0 and c < 95.0
    curve = report.classes["all"].curve_points()
    loads = [p["load_per_s"] for p in curve]
    assert advice.latency_s == pytest.approx(np.interp(c, loads, [p["latency_s"] for p in curve]))
    assert advice.latency_source in {"measured", "model"}
    out = report.to_dict()["virtual_queue"]
    assert json.loads(json.dumps(out, allow_nan=False)) == out
    assert set(out) == {
        "capacity_per_s",
        "latency_s",
        "latency_source",
        "percentile",
        "max_wait_s",
        "peak_at_s",
        "refused",
    }


def test_per_server_capacity_is_scaled_to_the_site(demo_table: pl.DataFrame) -> None:
    report = analyze(demo_table)
    advice = virtual_queue_advice(np.arange(100.0) / 50, 10.0, 3, report.classes["all"])
    assert advice is not None and advice.capacity_per_s == 30.0
    # 50 arrivals a second, 30 served a second: the 100th (in second 1) gets second 3
    assert advice.max_wait_s == brute_force_waits(np.arange(100.0) / 50, 30.0).max() == 2


def test_no_advice_without_a_capacity(demo_table: pl.DataFrame) -> None:
    report = analyze(demo_table)
    assert virtual_queue_advice(np.arange(10.0), None, 1, report.classes["all"]) is None
    assert virtual_queue_advice(np.zeros(0), 50.0, 1, report.classes["all"]) is None
