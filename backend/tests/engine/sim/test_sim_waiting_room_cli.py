"""`headroom simulate SCENARIO --json` with a virtual queue prints the `admission` keys of
the issue-7 contract, run as a real process (no server)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

SCENARIO = {
    "duration_s": 60,
    "seed": 2,
    "workload": {
        "arrivals": {"rate_per_s": 30},
        "service_s": {"dist": "constant", "value": 0.01},
    },
    "admission": {"policy": "virtual_queue", "capacity": 20, "max_wait_s": 20},
}


def test_simulate_json_prints_the_admission_keys(tmp_path: Path) -> None:
    """30 req/s into 20 req/s for 60 s with at most 20 s of wait: the queue's reach
    (20 s x 20 req/s) fills after ~40 s, then ~10 req/s are dropped."""
    path = tmp_path / "vq.yaml"
    path.write_text(yaml.safe_dump(SCENARIO))
    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "simulate", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    a = out["admission"]
    assert set(a) == {"capacity_estimate_per_s", "converged_at_s", "served", "dropped", "wait_s"}
    assert set(a["wait_s"]) == {"mean", "p95", "max"}
    assert a["capacity_estimate_per_s"] == 20 and a["converged_at_s"] is None
    assert a["wait_s"]["max"] == 20  # never past max_wait_s
    assert a["dropped"] > 0 and a["served"] <= 20 * 60
    assert out["rejected_fraction"] == a["dropped"] / out["requests"]
    assert out["classes"]["default"]["rejected_fraction"] == out["rejected_fraction"]
