"""`headroom simulate SCENARIO --json` with a partition policy, run as a real process: the
summary carries `admission` {k_mean, k_min, k_max} and each class's rejected_fraction,
equal to the engine's own result for the same scenario and seed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from headroom.engine.sim.simulation import Simulation

SERVICE = {"dist": "exponential", "mean": 0.1}
# 4 VMs (40 req/s) offered 60 req/s, 20% top: StaticPart's K = ceil(0.8 + 4 x 0.8 x 0.5) = 3.
SCENARIO = {
    "duration_s": 120,
    "seed": 4,
    "workload": {
        "arrivals": {"rate_per_s": 60},
        "classes": [
            {"name": "top", "share": 0.2, "user": "top", "service_s": SERVICE},
            {"name": "normal", "share": 0.8, "service_s": SERVICE},
        ],
    },
    "cluster": {"vms": {"min": 1, "max": 4, "start": 4}, "boot_s": 0},
    "admission": {"policy": "dynamic_part", "maxconn_sla": 4, "maxconn": 8},
}


@pytest.mark.parametrize("policy", ["static_part", "dynamic_part"])
def test_simulate_json_prints_k_and_per_class_rejections(tmp_path: Path, policy: str) -> None:
    doc = {**SCENARIO, "admission": {**SCENARIO["admission"], "policy": policy}}
    path = tmp_path / "partitions.yaml"
    path.write_text(yaml.safe_dump(doc))
    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "simulate", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    admission = out["admission"]
    assert set(admission) == {"k_mean", "k_min", "k_max"}
    assert 1 <= admission["k_min"] <= admission["k_mean"] <= admission["k_max"] <= 3
    if policy == "static_part":
        assert admission == {"k_mean": 3.0, "k_min": 3, "k_max": 3}
    classes = out["classes"]
    assert classes["top"]["rejected_fraction"] == 0.0
    assert 0.2 < classes["normal"]["rejected_fraction"] < 1.0
    direct = Simulation(doc).run().summary()
    assert direct["admission"] == admission
    for name in ("top", "normal"):
        assert classes[name]["rejected_fraction"] == direct["classes"][name]["rejected_fraction"]
        assert classes[name]["latency_s"] == pytest.approx(direct["classes"][name]["latency_s"])


def test_simulate_text_names_each_class_and_k(tmp_path: Path) -> None:
    doc = {**SCENARIO, "admission": {**SCENARIO["admission"], "policy": "static_part"}}
    path = tmp_path / "static.yaml"
    path.write_text(yaml.safe_dump(doc))
    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "simulate", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("class top: latency p95 ") for line in lines)
    assert "rejected 0.000%" in next(line for line in lines if line.startswith("class top"))
    assert "High Set K mean 3, min 3, max 3" in lines


def test_simulate_names_the_field_for_a_partitioned_single_vm(tmp_path: Path) -> None:
    doc = {**SCENARIO, "cluster": {"vms": {"min": 1, "max": 1, "start": 1}}}
    path = tmp_path / "one.yaml"
    path.write_text(yaml.safe_dump(doc))
    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "simulate", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert "cluster.vms.start" in done.stderr and len(done.stderr.strip().splitlines()) == 1
