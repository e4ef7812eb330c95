"""Capacity discovery as a simulator stage, on a simulated server with a known power peak.

The server: one PS VM with 4 cores and a constant 0.04 s demand, i.e. a configured
capacity of 4 / 0.04 = 100 req/s, a pool of 16 and the overhead model above 8 requests in
service (x 0.98 each), so at most 100 x 0.98^8 = 85 req/s get through. Demand: Poisson
260 req/s, far above. The reference peak is measured, not assumed: a sweep of fixed-
capacity virtual-queue runs (the same server, the same demand, so the same release
process as discovery's) at 40..90 req/s measures gamma = goodput / mean response time;
it peaks at 65 req/s (gamma ~1316/s^2, within 3% from 60 to 70), "a bit lower" than the
configured 100 as docs/methods/admission.md says. With 2 VMs the sweep (80..180 req/s) peaks near
twice that.

max_wait_s is 60 s here: a virtual queue keeps the promises it made, so after capacity
falls the server still gets the old rate for as long as bookings reach ahead (up to
max_wait_s), and re-convergence cannot be faster than that.

Tolerances (seeds 0..2, measured: first convergence 168-184 s, estimates 55.6-63 req/s;
re-convergence 144-176 s after a doubling, 304-312 s after a halving): convergence
within 300 s, re-convergence within 400 s, and the estimate where the swept gamma is at
least 85% of its peak (the measured worst is 92%: the curve is flat at its top, so the
estimate's location varies more than its power ratio).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation

DEMAND_PER_S = 260.0


def server(vms: Any = 1, duration_s: float = 160.0, **admission: Any) -> dict[str, Any]:
    schedule = vms if isinstance(vms, list) else [[0, vms]]
    return {
        "duration_s": duration_s,
        "seed": 0,
        "workload": {
            "arrivals": {"rate_per_s": DEMAND_PER_S},
            "service_s": {"dist": "constant", "value": 0.04},
        },
        "cluster": {
            "cores": 4,
            "pool_limit": 16,
            "overhead": {"q_upper": 8, "factor": 0.98},
            "vms": {"min": 1, "max": 2, "start": schedule[0][1]},
            "boot_s": 0,
        },
        "dispatch": {"policy": "least_connections", "per": "request"},
        "autoscaling": {"policy": "scheduled", "schedule": schedule, "step_s": 8},
        "admission": {"policy": "virtual_queue", "max_wait_s": 60, **admission},
    }


def power_curve(vms: int, rates: np.ndarray) -> np.ndarray:
    """gamma = goodput / mean response time of fixed-capacity runs (the reference)."""
    gamma = []
    for rate in rates:
        r = Simulation(server(vms, capacity=float(rate))).run()
        gamma.append(r.completed / r.duration_s / r.latency.mean_s)
    return np.array(gamma)


@pytest.fixture(scope="module")
def curves() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    one = np.arange(40.0, 90.1, 5.0)
    two = np.arange(80.0, 180.1, 10.0)
    return {1: (one, power_curve(1, one)), 2: (two, power_curve(2, two))}


def near_peak(estimate: float, curve: tuple[np.ndarray, np.ndarray]) -> float:
    """The swept gamma at the estimate (linear interpolation) over the swept peak."""
    rates, gamma = curve
    return float(np.interp(estimate, rates, gamma) / gamma.max())


def test_the_reference_peak_is_a_bit_below_the_configured_capacity(curves) -> None:
    rates, gamma = curves[1]
    peak = rates[int(np.argmax(gamma))]
    assert 60 <= peak <= 75  # configured 100 req/s; at most 85 get through
    assert gamma[-1] < 0.1 * gamma.max()  # past saturation the backlog grows: gamma falls
    rates2, gamma2 = curves[2]
    assert 1.8 * peak <= rates2[int(np.argmax(gamma2))] <= 2.5 * peak


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discovery_converges_near_the_power_peak(curves, seed: int) -> None:
    r = Simulation(server(1, 400.0, capacity="discover")).run(seed)
    a, series = r.admission, r.admission_series
    assert a is not None and series is not None
    assert len(series["converged_t_s"]) == 1
    assert a["converged_at_s"] == series["converged_t_s"][0] <= 300
    assert near_peak(a["capacity_estimate_per_s"], curves[1]) >= 0.85
    phases = set(series["epoch_phase"].tolist())
    assert phases == {0, 1, 2, 3}  # coarse, stabilise, fine, monitor
    assert len(series["epoch_t_s"]) == 50  # one row per 8 s epoch
    # before convergence the estimate is NaN, after it the converged value
    converged = series["epoch_t_s"] >= a["converged_at_s"]
    assert np.isnan(series["epoch_estimate_per_s"][~converged]).all()
    assert np.allclose(series["epoch_estimate_per_s"][converged], a["capacity_estimate_per_s"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discovery_reconverges_after_the_capacity_doubles(curves, seed: int) -> None:
    r = Simulation(server([[0, 1], [400, 2]], 1000.0, capacity="discover")).run(seed)
    a, converged = r.admission, r.admission_series["converged_t_s"]
    assert converged[0] <= 300
    later = converged[converged > 400]
    assert later.size >= 1 and later[0] - 400 <= 400
    assert near_peak(a["capacity_estimate_per_s"], curves[2]) >= 0.85


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discovery_reconverges_after_the_capacity_halves(curves, seed: int) -> None:
    r = Simulation(server([[0, 2], [600, 1]], 1200.0, capacity="discover")).run(seed)
    a, converged = r.admission, r.admission_series["converged_t_s"]
    assert converged[0] <= 300
    later = converged[converged > 600]
    assert later.size >= 1 and later[0] - 600 <= 400
    assert near_peak(a["capacity_estimate_per_s"], curves[1]) >= 0.85
