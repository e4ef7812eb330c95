"""Small scenarios for the simulation tests (each runs in well under a second)."""

from pathlib import Path
from typing import Any

import yaml

REFERENCE = Path(__file__).resolve().parents[1] / "engine" / "sim" / "reference_scenario.yaml"


def mm1(duration_s: float = 2000.0, rate_per_s: float = 0.8) -> dict[str, Any]:
    """M/M/1 at utilisation rate_per_s (mean service 1 s), one VM."""
    return {
        "name": "mm1",
        "duration_s": duration_s,
        "seed": 3,
        "workload": {
            "arrivals": {"rate_per_s": rate_per_s},
            "service_s": {"dist": "exponential", "mean": 1.0},
        },
        "cluster": {"vms": {"min": 1, "max": 1, "start": 1}},
    }


def reference(duration_s: float = 900.0) -> dict[str, Any]:
    """The spec's reference university site, shortened."""
    document: dict[str, Any] = yaml.safe_load(REFERENCE.read_text())
    document["duration_s"] = duration_s
    return document


def scaling(duration_s: float = 600.0) -> dict[str, Any]:
    """A threshold-autoscaled cluster under a load that needs several VMs."""
    return {
        "name": "scaling",
        "duration_s": duration_s,
        "seed": 5,
        "workload": {
            "arrivals": {"rate_per_s": 6.0},
            "service_s": {"dist": "exponential", "mean": 0.5},
        },
        "cluster": {"vms": {"min": 1, "max": 8, "start": 1}, "boot_s": 10},
        "autoscaling": {"policy": "threshold", "lower": 0.3, "upper": 0.8, "step_s": 30},
        "sla": {"percentile": 95, "threshold_s": 2.0, "window_s": 60},
    }
