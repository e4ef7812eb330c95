"""Monitoring only observes: with no autoscaling policy, a run monitored every 0.1 s and
one monitored once (an interval longer than the run) serve the same requests at the same
times, so every figure but the monitoring series is the same."""

import pytest

from headroom.engine.sim import Simulation, load_scenario


def run(discipline: str, monitor_s: float, fast_paths: bool) -> dict[str, float]:
    doc = {
        "duration_s": 2_000.0,
        "seed": 3,
        "workload": {
            "arrivals": {"rate_per_s": 8.0},
            "service_s": {"dist": "exponential", "mean": 1.0},
        },
        "cluster": {"cores": 10, "discipline": discipline},
        "autoscaling": {"policy": "none", "monitor_s": monitor_s},
    }
    r = Simulation(load_scenario(doc), fast_paths=fast_paths).run()
    return {
        "requests": r.requests,
        "completed": r.completed,
        "in_system_at_end": r.in_system_at_end,
        "events": r.events,
        "latency_mean_s": r.latency.mean_s,
        "latency_p95_s": r.latency.p95_s,
        "latency_max_s": r.latency.max_s,
        "time_in_system_s": r.little.mean_time_in_system_s,
        "vm_hours": r.vms.vm_hours,
    }


@pytest.mark.parametrize(
    ("discipline", "fast_paths"), [("fcfs", False), ("fcfs", True), ("ps", False)]
)
def test_a_run_without_autoscaling_does_not_depend_on_the_monitor(
    discipline: str, fast_paths: bool
) -> None:
    often = run(discipline, 0.1, fast_paths)
    once = run(discipline, 1e6, fast_paths)
    assert often["requests"] > 10_000  # the comparison covers a real run
    assert often == pytest.approx(once, rel=1e-12)  # sums in another order: rounding only
