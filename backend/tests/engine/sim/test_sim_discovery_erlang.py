"""Capacity discovery on the reference server: configured capacity 100 req/s, power-ratio peak
"a bit lower" (docs/methods/admission.md: "a server configured for 100 req/s peaks near 80-85
req/s"), with the peak computed independently of the engine, in closed form.

The server: one processor-sharing VM of 16 cores, exponential demand of mean 0.16 s
(configured capacity 16 / 0.16 = 100 req/s), no pool limit and no overhead model. A
k-core PS VM with exponential demand has the M/M/k number-in-system process (total
service rate min(n, k) x mu), so by Little its mean response time at an admitted rate c
is Erlang C's: r(c) = 1/mu + C(k, c/mu) / (k mu - c), and gamma(c) = c / r(c) peaks at
81.05 req/s (r = 0.1775 s). The queue releases a request that waited at a uniform
instant of its second, so the server sees about Poisson arrivals at the admitted rate.
Two such VMs behind least-connections: at most two independent M/M/16 at c/2, peak 162.2.
Demand: Poisson 260 req/s, above both.

Measured (seeds 0..2): first convergence at 192-200 s (the spec's "about 200 s for an
80 req/s capacity"), estimates 73.2-81.9 req/s, gamma there 96-100% of the closed-form
peak; after the capacity halves at 600 s, re-convergence 320-328 s later at 77.8-81.1.
Tolerances: convergence within 300 s, re-convergence within 400 s, gamma at the estimate
at least 90% of the closed-form peak.

A doubling is not detected on this server (the 4-core server of
test_sim_waiting_room_discovery.py re-converges in 144-176 s): at the estimate, doubling
the cores lowers r from 0.178 to 0.160 s, so gamma rises 11% (closed form, 457 -> 506),
inside the 2 e_max band the exponential demand's epoch-to-epoch noise sets; a server
near its power peak with many cores is barely congested there, so the power ratio hardly
sees the added room. The test pins that down (one convergence, no false restart, still
near the one-VM peak) so a change in the detector shows here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim import Simulation

CORES, MEAN_S, DEMAND_PER_S = 16, 0.16, 260.0


def server(vms: Any, duration_s: float) -> dict[str, Any]:
    schedule = vms if isinstance(vms, list) else [[0, vms]]
    return {
        "duration_s": duration_s,
        "seed": 0,
        "workload": {
            "arrivals": {"rate_per_s": DEMAND_PER_S},
            "service_s": {"dist": "exponential", "mean": MEAN_S},
        },
        "cluster": {
            "cores": CORES,
            "discipline": "ps",
            "vms": {"min": 1, "max": 2, "start": schedule[0][1]},
            "boot_s": 0,
        },
        "dispatch": {"policy": "least_connections", "per": "request"},
        "autoscaling": {"policy": "scheduled", "schedule": schedule, "step_s": 8},
        "admission": {"policy": "virtual_queue", "capacity": "discover", "max_wait_s": 60},
    }


def erlang_c(k: int, load: float) -> float:
    """The probability of waiting in M/M/k at offered load a = lambda / mu < k."""
    below = sum(load**i / math.factorial(i) for i in range(k))
    top = load**k / math.factorial(k) * k / (k - load)
    return top / (below + top)


def gamma(rate_per_s: float, vms: int) -> float:
    """Closed-form power ratio at an admitted rate split evenly over ``vms`` M/M/k VMs."""
    per_vm, mu = rate_per_s / vms, 1 / MEAN_S
    if per_vm >= CORES * mu:
        return 0.0
    return rate_per_s / (MEAN_S + erlang_c(CORES, per_vm * MEAN_S) / (CORES * mu - per_vm))


def peak(vms: int) -> tuple[float, float]:
    rates = np.arange(1.0, 100.0 * vms, 0.05)
    values = np.array([gamma(float(c), vms) for c in rates])
    return float(rates[int(np.argmax(values))]), float(values.max())


def test_the_closed_form_peak_is_a_bit_below_the_configured_capacity() -> None:
    rate, top = peak(1)
    assert 80 <= rate <= 85 and math.isclose(rate / top, 0.1775, abs_tol=5e-4)
    assert 2 * rate - 1 <= peak(2)[0] <= 2 * rate + 1
    assert math.isclose(erlang_c(1, 0.5), 0.5)  # M/M/1: P(wait) = rho


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discovery_converges_near_the_closed_form_peak(seed: int) -> None:
    a = Simulation(server(1, 400.0)).run(seed).admission
    assert a is not None and a["converged_at_s"] is not None
    assert a["converged_at_s"] <= 300
    assert gamma(a["capacity_estimate_per_s"], 1) >= 0.9 * peak(1)[1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discovery_reconverges_after_the_capacity_halves(seed: int) -> None:
    r = Simulation(server([[0, 2], [600, 1]], 1200.0)).run(seed)
    a, series = r.admission, r.admission_series
    assert a is not None and series is not None
    converged = series["converged_t_s"]
    assert converged[0] <= 300
    later = converged[converged > 600]
    assert later.size >= 1 and later[0] - 600 <= 400
    assert gamma(a["capacity_estimate_per_s"], 1) >= 0.9 * peak(1)[1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_doubling_stays_undetected_on_this_server(seed: int) -> None:
    """See the module docstring: gamma at the estimate rises only 11% when the cores double."""
    assert 1.10 <= gamma(81.05, 2) / gamma(81.05, 1) <= 1.12
    r = Simulation(server([[0, 1], [400, 2]], 1000.0)).run(seed)
    a, series = r.admission, r.admission_series
    assert a is not None and series is not None
    assert len(series["converged_t_s"]) == 1 and series["converged_t_s"][0] <= 300
    assert gamma(a["capacity_estimate_per_s"], 1) >= 0.9 * peak(1)[1]
