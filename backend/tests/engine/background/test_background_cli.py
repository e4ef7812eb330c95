"""`headroom background`: the JSON contract, agreement with the engine called directly,
one-line exit-2 errors, and a light import."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from headroom.cli import main
from headroom.engine.background.outcome import outcome
from headroom.engine.background.reservation import ReservationParams, simulate
from headroom.engine.background.series import parse_series

EPA = Path(__file__).parents[4] / "data" / "profiles" / "epa_cpu_demand.csv"
KEYS = {
    "background_cpu_fraction",
    "idle_fraction",
    "foreground_delayed_fraction",
    "foreground_delay_p95_s",
}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["background", *args])


@pytest.mark.parametrize("policy", ["none", "suspend", "static", "adaptive"])
def test_json_contract_matches_the_engine(policy: str) -> None:
    result = run(str(EPA), "--policy", policy, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document) == KEYS
    series = parse_series(EPA.read_text())
    rounds = simulate(series.busy_fraction, policy, ReservationParams())
    assert document == outcome(series.busy_fraction, rounds, series.round_s).to_dict()


def test_static_quota_option() -> None:
    result = run(str(EPA), "--policy", "static", "--static-quota", "0.3", "--json")
    assert json.loads(result.stdout)["background_cpu_fraction"] > 0.25
    text = run(str(EPA), "--policy", "static", "--static-quota", "0.3")
    assert text.exit_code == 0 and text.stdout.startswith("static: background CPU")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.csv"], "no such file: missing.csv"),
        (["BAD", "--policy", "greedy"], "'greedy' is not one of"),
        (["BAD", "--static-quota", "2"], "--static-quota"),
        (["BAD"], "line 3: busy_fraction 1.5 is outside [0, 1]"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("t_s,busy_fraction\n0,0.5\n1,1.5\n")
    result = run(*[str(bad) if a == "BAD" else a for a in args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_command_module_imports_no_numba() -> None:
    code = "import headroom.cli.background, sys; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
