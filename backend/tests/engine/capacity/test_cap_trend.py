"""Capacity and Concurrency agree: latency that does not rise with load (a closed loop)
turns the knee-curve figures off, and no capacity above the measured throughput is shown.

The closed-loop traces are the demo's: two servers, each in front of users who wait for
every answer (synth.pool_trace), whose best pool sizes and peak throughputs are known.
On them the knee-curve method extrapolated an M/M/c model with 31 servers and told users
to keep each server under 1,271.6 req/s, while SCT measured a peak of 497.6 req/s for the
one-core server."""

import numpy as np
import polars as pl
import pytest

from headroom.engine.capacity import CapacityParams, analyze, analyze_trace, synth
from headroom.engine.capacity.trend import latency_trend

OVERLOAD = list(np.arange(5.0, 131.0, 5.0))  # through saturation to rho = 1.3
EARLY = list(np.linspace(5.0, 45.0, 9))


def _demo_pool_trace() -> pl.DataFrame:
    """The demo's synthetic pool trace (the same model, steps and seeds)."""
    ramp_1 = list(range(1, 46)) + list(range(45, 0, -1))
    ramp_2 = list(range(1, 61)) + list(range(60, 0, -1))
    servers = [("app-1", 10, 20, ramp_1, 1.5), ("app-2", 20, 30, ramp_2, 1.125)]
    tables = [
        synth.pool_trace(
            ramp, step_s, 0.005, synth.plateau_rates(50.0, lo, hi, 0.02, 100),
            np.random.default_rng(seed), server=name,
        )
        for seed, (name, lo, hi, ramp, step_s) in enumerate(servers, start=1)
    ]  # fmt: skip
    return pl.concat(tables).sort("ts")


@pytest.fixture(scope="module")
def pool() -> pl.DataFrame:
    return _demo_pool_trace()


def test_closed_loop_trace_gets_no_knee_figures(pool: pl.DataFrame) -> None:
    report = analyze(pool)
    out = report.to_dict()
    for name, cls in report.classes.items():
        assert cls.latency_trend is not None and not cls.latency_trend.rises, name
        assert cls.method == "concurrency"
        assert cls.knee is None and cls.sla is None and cls.mmc is None
        assert cls.breaking_point is None and cls.servers_needed is None
        assert any("Concurrency analysis" in w for w in cls.warnings)
        assert out["classes"][name]["method"] == "concurrency"
    assert report.capacity.power_peak_load_per_s is None
    assert "does not rise" in (report.capacity.reason or "") or "falls" in (
        report.capacity.reason or ""
    )


def test_no_capacity_figure_above_the_sct_peak(pool: pl.DataFrame) -> None:
    """Every per-server rate the Capacity analysis shows stays under what SCT measured."""
    sct = analyze_trace(pool, None)
    tp_max = min(r.tp_max_per_s or 0.0 for r in sct.servers.values())
    assert tp_max == pytest.approx(497.6, abs=15.0)  # the one-core server
    for threshold in (None, 0.05, 0.5):
        report = analyze(pool, CapacityParams(threshold_s=threshold))
        for cls in report.classes.values():
            figures = [cls.sla.max_rate_per_s if cls.sla else None]
            figures.append(cls.knee.load_per_s if cls.knee else None)
            assert all(f is None or f <= tp_max for f in figures)


@pytest.mark.parametrize("c", [1, 4])
def test_open_queues_rise(c: int) -> None:
    table = synth.queue_log(EARLY, 300.0, 100.0 / c, c, np.random.default_rng(2))
    cls = analyze(table, CapacityParams(model_servers=c)).classes["all"]
    assert cls.latency_trend is not None and cls.latency_trend.direction == "rises"
    assert cls.method == "knee" and cls.sla is not None and cls.knee is not None
    assert cls.max_throughput_per_s is not None
    # the model's knee lies beyond the loads measured: kept, as a model value
    assert cls.knee.source == "model"


def test_max_rate_above_the_measured_throughput_is_refused() -> None:
    """Past saturation the offered load outruns throughput: a threshold above the whole
    curve would make MaxRate(T) the top offered load (130/s) on a server that never
    completed more than ~100/s."""
    table = synth.queue_log(OVERLOAD, 300.0, 100.0, 1, np.random.default_rng(5))
    cls = analyze(table, CapacityParams(threshold_s=1e3)).classes["all"]
    assert cls.max_throughput_per_s is not None and cls.max_throughput_per_s < 110.0
    assert cls.sla is None
    assert any("is not shown" in w and "measured per server" in w for w in cls.warnings)


def test_trend_directions() -> None:
    load = np.linspace(1.0, 100.0, 40)
    assert latency_trend(load, 0.01 + load / 1e3).direction == "rises"
    assert latency_trend(load, 1.0 / load).direction == "falls"
    assert latency_trend(load, np.full(load.size, 0.05)).direction == "flat"
    assert latency_trend(load[:5], load[:5]).direction == "unknown"  # too few windows
    assert "too little" in (latency_trend(load[:5], load[:5]).message() or "")
    assert "closed loop" in (latency_trend(load, 1.0 / load).message() or "")
    assert latency_trend(load, 0.01 + load / 1e3).message() is None
