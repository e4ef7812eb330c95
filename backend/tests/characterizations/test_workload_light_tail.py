"""A log whose sizes are light-tailed (uniform 100..90,000 bytes) end to end: the
characterization completes (the body/tail fit overflowed on it) and its workload model
simulates; a quantity that cannot be fitted says why in the CLI's text; uploaded to a live
server it passes `headroom check --class` with the p95 numpy takes of its own %D field,
and a simulation replaying the dataset runs to the end."""

import json
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from headroom.cli import main
from headroom.engine.sim.distributions import parse_distribution
from headroom.engine.workload.sketch import ALPHA
from support.services import HEADROOM, Stack, free_port, stack_env, wait_for_job

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


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tmp_path = tmp_path_factory.mktemp("light-live")
    env = stack_env(
        tmp_path, f"sqlite:///{tmp_path / 'headroom.db'}", "", static_dir=str(tmp_path / "no-ui")
    )
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.headroom("migrate")
    running.start_api(port, "--with-worker")
    token = running.token_for("light@example.com", "Light")
    running.env.update(HEADROOM_URL=running.base_url, HEADROOM_TOKEN=token)
    yield running
    running.stop()


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HEADROOM, *args], env=stack.env, capture_output=True, text=True, timeout=600
    )


def test_uniform_sizes_pass_the_class_gate_and_a_dataset_simulation(live: Stack, log: Path) -> None:
    """Upload -> `headroom check --class` (p95 against the log's own %D) -> a simulation
    replaying the dataset's requests with its response times."""
    done = cli(live, "upload", str(log), "--wait", "--json")
    assert done.returncode == 0, done.stderr
    dataset_id = str(json.loads(done.stdout)["dataset_id"])
    unknown = cli(live, "check", dataset_id, "--class", "no-such-class", "--max-p95-s", "1")
    assert unknown.returncode == 2, unknown.stderr
    # .html and .png are both static files: one class, holding every request
    assert "(classes: static)" in unknown.stderr, unknown.stderr
    static = log.read_text().splitlines()
    seconds = np.array([int(x.rsplit(" ", 1)[1]) for x in static]) / 1e6
    low, high = (float(np.quantile(seconds, 0.95, method=m)) for m in ("lower", "higher"))
    gate = cli(live, "check", dataset_id, "--class", "static", "--max-p95-s", str(2 * high))
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert gate.stdout.startswith("PASS p95 latency (static)"), gate.stdout
    verdict = cli(live, "check", dataset_id, "--class", "static", "--max-p95-s", "100", "--json")
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    observed = json.loads(verdict.stdout)["checks"][0]["observed"]
    # the static requests' own p95, as the characterization's sketch gives it (within its
    # stated relative error of the exact percentile)
    assert low * (1 - ALPHA) - 1e-9 <= observed <= high * (1 + ALPHA) + 1e-9
    with live.client(live.env["HEADROOM_TOKEN"]) as client:
        preset = client.get(
            f"/api/v1/simulations/presets/datasets/{dataset_id}", params={"source": "replay"}
        )
        assert preset.status_code == 200, preset.text
        scenario = preset.json()["scenario"]
        assert scenario["workload"]["arrivals"] == {"dataset": dataset_id}
        scenario["duration_s"] = 120
        created = client.post("/api/v1/simulations", json={"name": "light", "scenario": scenario})
        assert created.status_code == 202, created.text
        job = wait_for_job(client, created.json()["job"]["id"], timeout_s=300)
        assert job["status"] == "succeeded", job
