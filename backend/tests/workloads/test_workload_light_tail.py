"""A log whose sizes are light-tailed (uniform 100..90,000 bytes) end to end: the
characterization completes (the body/tail fit overflowed on it) and its workload model
simulates; a quantity that cannot be fitted says why in the CLI's text."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from headroom.cli import main
from headroom.engine.sim.distributions import parse_distribution

FORMAT = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" %D'


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def uniform_size_log(path: Path, n: int = 3000) -> Path:
    rng = np.random.default_rng(1)
    start = datetime(2024, 5, 1, 12, tzinfo=UTC)
    offsets = np.sort(rng.uniform(0, 1200, n))
    sizes = rng.integers(100, 90_001, n)
    html = rng.random(n) < 0.3
    lines = []
    for i in range(n):
        ts = (start + timedelta(seconds=float(offsets[i]))).strftime("%d/%b/%Y:%H:%M:%S +0000")
        page = "/page.html" if html[i] else "/img/a.png"
        latency_us = int(rng.exponential(20_000))
        lines.append(
            f'10.0.{i % 40}.{i % 7} - - [{ts}] "GET {page} HTTP/1.1" 200 {sizes[i]} '
            f'"-" "ua" {latency_us}\n'
        )
    path.write_text("".join(lines))
    return path


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return uniform_size_log(tmp_path_factory.mktemp("light") / "uniform.log")


def test_characterize_completes_on_uniform_sizes_and_the_model_simulates(
    log: Path, tmp_path: Path
) -> None:
    result = run("characterize", str(log), "--log-format", FORMAT, "--json")
    assert result.exit_code == 0, result.output  # was 1: OverflowError in k ** alpha
    doc = json.loads(result.stdout)
    sizes = doc["fits"]["object_bytes"]
    assert sizes["dist"] is not None and sizes["reason"] is None
    # the chosen form for the simulator has the data's mean (uniform: 45,050 bytes), 10%
    spec = doc["model"]["classes"][0]["fitted"]["object_bytes"]
    assert parse_distribution(spec).mean == pytest.approx(45_050, rel=0.1)
    model = tmp_path / "model.json"
    model.write_text(json.dumps(doc["model"]))
    sim = run("simulate", "--model", str(model), "--duration-s", "120", "--json")
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["requests"] > 0


def test_the_text_says_why_a_quantity_is_not_fitted(log: Path) -> None:
    result = run("characterize", str(log), "--log-format", FORMAT)
    assert result.exit_code == 0, result.output
    lines = [x for x in result.stdout.splitlines() if x.startswith("fit ")]
    for line in lines:
        assert not line.endswith(": -"), line
    assert any(x.startswith("fit objects_per_page: not fitted: ") for x in lines), lines
