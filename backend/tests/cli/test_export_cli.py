"""`headroom export KIND FILE`: the engine's file on stdout, its note on stderr, refusals
as one line with exit status 2."""

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from headroom.cli import main
from headroom.engine.export import ExportOptions, from_scenario
from headroom.engine.sim.presets import reference
from headroom.engine.sim.scenario import load_scenario


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "reference.yaml"
    path.write_text(yaml.safe_dump(reference()))
    return path


def test_prints_the_hpa_of_a_scenario_file(scenario_file: Path) -> None:
    args = ["export", "hpa", str(scenario_file), "--deployment", "shop", "--namespace", "prod"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    expected = from_scenario(
        "hpa", load_scenario(reference()), ExportOptions(deployment="shop", namespace="prod")
    )
    assert result.stdout == expected.content
    assert result.stderr.startswith("# Scales Deployment shop between 1 and 100 pods")


def test_options_reach_the_file(scenario_file: Path) -> None:
    result = CliRunner().invoke(main, ["export", "slo", str(scenario_file), "--format", "rules"])
    assert result.exit_code == 0 and yaml.safe_load(result.stdout)["groups"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["keda", "{file}"], "exported for latency_slo policies"),
        (["hpa", "{file}", "--deployment", "Shop_1"], "is not a Kubernetes name"),
        (["hpa", "missing.yaml"], "no such file: missing.yaml"),
        (["hpa", "{file}", "--servers", "0"], "0 is out of range; use 1 to 1,000"),
        (["k8s", "{file}"], "'k8s' is not one of"),
    ],
)
def test_refusals_are_one_line_with_status_2(
    scenario_file: Path, args: list[str], says: str
) -> None:
    given = [a.replace("{file}", str(scenario_file)) for a in args]
    result = CliRunner().invoke(main, ["export", *given])
    assert result.exit_code == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
