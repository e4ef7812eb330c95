"""`headroom simulate`: the JSON contract run as a real process, agreement with the engine
called directly, --out files, --schema, and one-line exit-2 errors naming the field."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml
from simulations.scenarios import mm1, reference

from headroom.engine.sim import Simulation, scenario_json_schema

STATS = {"mean", "median", "p95", "p99"}
VMS = {"mean_allocated", "mean_active", "max_allocated", "vm_hours", "scaling_actions"}


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "headroom.cli", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def scenario_file(tmp_path: Path, document: dict[str, Any], name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document))
    return str(path)


def test_mm1_json_contract_matches_the_engine(tmp_path: Path) -> None:
    done = simulate(scenario_file(tmp_path, mm1()), "--seed", "11", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out["latency_s"]) == STATS and out["plt_s"] is None and out["pages"] == 0
    assert set(out["vms"]) >= VMS and out["sla_violation_fraction"] is None
    assert out["rejected_fraction"] == 0.0 and out["seed"] == 11
    expected = Simulation(mm1()).run(11).summary()
    for key in ("requests", "pages", "latency_s", "rejected_fraction", "events"):
        assert out[key] == expected[key], key
    assert {k: out["vms"][k] for k in VMS} == expected["vms"]
    # Poisson arrivals at 0.8/s for 2000 s: 1600 expected, sd 40; 5 sd is a safe bound
    assert abs(out["requests"] - 1600) < 200
    assert out["wall_s"] > 0


def test_reference_scenario_shortened_has_pages_and_an_sla(tmp_path: Path) -> None:
    done = simulate(
        scenario_file(tmp_path, reference(600.0)), "--json", "--out", str(tmp_path / "o")
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out["plt_s"]) == STATS and out["pages"] > 0
    assert out["requests"] >= 40 * out["pages"]  # a base request plus 40 objects per page
    assert 0.0 <= out["sla_violation_fraction"] <= 1.0
    assert json.loads((tmp_path / "o" / "summary.json").read_text()) == out
    series = pl.read_csv(tmp_path / "o" / "series.csv")
    assert series.columns == ["series", "t_s", "value"]
    assert set(series["series"]) >= {"allocated_vms", "active_vms", "arrivals_per_s"}
    allocated = series.filter(pl.col("series") == "allocated_vms")
    assert allocated.height <= 2000 and allocated["t_s"].max() == pytest.approx(600.0)
    assert allocated["value"][0] == 20  # the scenario starts with 20 VMs


def test_schema_is_the_engines() -> None:
    schema = simulate("--schema")
    assert schema.returncode == 0
    assert json.loads(schema.stdout) == json.loads(json.dumps(scenario_json_schema()))


@pytest.mark.parametrize(
    "text, field",
    [
        ("duration_s: 10\nworkload: {arrivals: {rate_per_s: -1}, service_s: 1}\n", "workload"),
        ("duration_s: -5\nworkload: {arrivals: {rate_per_s: 1}}\n", "duration_s"),
        ("duration_s: [10\n", "(document)"),
        ('{"duration_s": 10,', "(document)"),
        ("- just\n- a list\n", "(document)"),
    ],
)
def test_bad_scenarios_exit_2_with_one_line_naming_the_field(
    tmp_path: Path, text: str, field: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    done = simulate(str(path), "--json")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: {field}"), lines
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_missing_file_and_bad_seed_exit_2(tmp_path: Path) -> None:
    for args in ([str(tmp_path / "nope.yaml")], [], ["x.yaml", "--seed", "-1"]):
        done = simulate(*args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_text_output_names_the_figures(tmp_path: Path) -> None:
    done = simulate(scenario_file(tmp_path, reference(300.0)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("requests ") and "plt_s mean" in done.stdout
    assert "SLA windows violated" in done.stdout


def test_a_scenario_naming_an_unknown_dataset_exits_2(tmp_path: Path) -> None:
    document = mm1()
    document["workload"]["arrivals"] = {"dataset": "nowhere"}
    done = simulate(scenario_file(tmp_path, document))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("workload.arrivals.dataset: unknown dataset 'nowhere'")
