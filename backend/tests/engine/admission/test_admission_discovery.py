"""Capacity discovery driven by a synthetic server with a known power-ratio peak.

The server: 16 exponential servers sharing the configured capacity (M/M/16, mean response
from the engine's Erlang C) up to 98% load; past it the epoch's backlog adds
(rate - 0.98 C) x 8 s / (2 C) of latency and goodput falls 30% per 100% of overload.
Its power ratio goodput / latency peaks at 0.81 x C (the reference, found by a grid
search below), matching the spec's "100 req/s configured peaks near 80-85". Measurements
get seeded 2% lognormal noise. Tolerance: the estimate within 10% of the true peak; over
seeds 0..19 the worst error seen was 8% (a cubic through noisy, unevenly spread points)."""

from collections.abc import Callable

import numpy as np
import pytest

from headroom.engine.admission.discovery import (
    DiscoveryParams,
    cubic_fit,
    discover,
    interior_max,
)
from headroom.engine.capacity.queueing import mean_response_s
from support.blas import needs_both_kernels, outputs_under_each_kernel

SERVERS, EPOCH_S, NOISE = 16, 8.0, 0.02


def server(rate: float, capacity: float) -> tuple[float, float]:
    knee = 0.98 * capacity
    latency = float(mean_response_s(min(rate, knee), capacity / SERVERS, SERVERS))
    latency += max(0.0, rate - knee) * EPOCH_S / (2 * capacity)
    goodput = min(rate, capacity) * max(0.3, 1 - 0.3 * max(0.0, rate / capacity - 1))
    return goodput, latency


def true_peak(capacity: float) -> float:
    grid = np.linspace(1, 1.5 * capacity, 30001)
    gamma = [np.divide(*server(c, capacity)) for c in grid]
    return float(grid[int(np.argmax(gamma))])


def measure(capacity_at: Callable[[int], float], seed: int):
    rng = np.random.default_rng(seed)

    def epoch(i: int, rate: float) -> tuple[float, float, float]:
        goodput, latency = server(rate, capacity_at(i))
        offered = 10 * capacity_at(i)  # demand always above the probe
        return offered, goodput * rng.lognormal(0, NOISE), latency * rng.lognormal(0, NOISE)

    return epoch


def test_reference_peak_is_a_bit_below_capacity() -> None:
    assert 80 <= true_peak(100) <= 85


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_converges_near_the_power_peak_in_about_200_s(seed: int) -> None:
    trace = discover(measure(lambda i: 100.0, seed), epochs=60)
    assert len(trace.converged_at_s) == 1
    assert trace.converged_at_s[0] <= 300
    assert trace.estimate_per_s[-1] == pytest.approx(true_peak(100), rel=0.10)
    assert set(trace.phase) == {0, 1, 2, 3}  # coarse, stabilise, fine, monitor


@pytest.mark.parametrize(("after", "seed"), [(200.0, 0), (50.0, 1), (200.0, 3), (50.0, 4)])
def test_reconverges_after_capacity_doubles_or_halves(after: float, seed: int) -> None:
    change_epoch = 60  # 480 s in, long after the first convergence
    trace = discover(measure(lambda i: 100.0 if i < change_epoch else after, seed), epochs=150)
    assert trace.converged_at_s[0] <= 300
    later = trace.converged_at_s[trace.converged_at_s > change_epoch * EPOCH_S]
    assert later.size >= 1
    assert later[0] - change_epoch * EPOCH_S <= 400  # "a few hundred seconds"
    assert trace.estimate_per_s[-1] == pytest.approx(true_peak(after), rel=0.10)


def test_works_the_same_at_10000_per_s() -> None:
    trace = discover(measure(lambda i: 10_000.0, 5), epochs=80)
    assert trace.converged_at_s.size == 1
    assert trace.estimate_per_s[-1] == pytest.approx(true_peak(10_000), rel=0.10)


def test_pauses_while_demand_is_below_the_probe() -> None:
    def low_demand(i: int, rate: float) -> tuple[float, float, float]:
        return 10.0, 10.0, 0.05

    trace = discover(low_demand, epochs=10)
    assert (trace.rate_per_s == 15.0).all() and (trace.phase == 0).all()


def test_cubic_helpers_against_numpy() -> None:
    x = np.linspace(10, 120, 12)
    coef = np.array([-1e-4, 0.01, 0.5, 3.0])
    y = np.polyval(coef, x)
    assert np.allclose(cubic_fit(x, y), np.polyfit(x, y, 3), rtol=1e-6)
    critical = np.roots(np.polyder(coef))
    expected = float(critical[np.polyval(np.polyder(coef, 2), critical) < 0][0])
    assert interior_max(coef, 10, 120) == pytest.approx(expected)
    assert np.isnan(interior_max(coef, 10, 50))  # still rising at the right end


def test_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="alpha"):
        DiscoveryParams(alpha=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        DiscoveryParams(epsilon=0.0)


RUN_DISCOVERING = """
import dataclasses, hashlib, pickle
from headroom.engine.sim import Simulation, load_scenario
from headroom.simulations import class_presets
doc = class_presets.with_virtual_queue(class_presets.virtual_queue())
r = Simulation(load_scenario(doc), fast_paths=False).run()
kept = [f.name for f in dataclasses.fields(r) if f.name not in ("scenario", "wall_s")]
figures = [getattr(r, name) for name in kept]
print(hashlib.sha256(pickle.dumps(figures)).hexdigest())
"""


@needs_both_kernels
def test_a_discovering_run_does_not_depend_on_the_blas_kernel() -> None:
    """The same scenario and seed give the same result on every machine: here under two
    of OpenBLAS's CPU kernels (LAPACK's least squares differed in their last bits)."""
    assert len(outputs_under_each_kernel(RUN_DISCOVERING)) == 1
