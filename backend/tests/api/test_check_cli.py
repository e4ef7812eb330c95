"""`headroom check` against a live API with a worker: the SLA gate's exit codes, its JSON,
and its figures checked against the p95 computed here from the log's own bytes."""

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from headroom.engine.capacity import synth
from support.services import HEADROOM, Stack, free_port, stack_env


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tmp_path = tmp_path_factory.mktemp("check")
    env = stack_env(
        tmp_path, f"sqlite:///{tmp_path / 'headroom.db'}", "", static_dir=str(tmp_path / "no-ui")
    )
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.headroom("migrate")
    running.start_api(port, "--with-worker")
    token = running.token_for("ci@example.com", "CI")
    running.env.update(HEADROOM_URL=running.base_url, HEADROOM_TOKEN=token)
    yield running
    running.stop()


def queue_log(path: Path, mu_per_s: float) -> Path:
    """An M/M/2 server under load rising over 4 minutes (seeded, so the same bytes)."""
    rates_per_s = [float(r) for r in np.linspace(0.1, 0.9, 8) * 2 * 25.0]
    table = synth.queue_log(rates_per_s, 30.0, mu_per_s, 2, np.random.default_rng(7))
    path.write_bytes(synth.combined_log(table, user_agent="check-test/1.0"))
    return path


def p95_bracket_s(path: Path) -> tuple[float, float]:
    """The order statistics either side of the 95th percentile of the log's last field
    (microseconds, %D): any interpolation of the quantile lies between them."""
    micros = np.array([int(line.rsplit(b" ", 1)[1]) for line in path.read_bytes().splitlines()])
    seconds = micros / 1e6
    return (
        float(np.quantile(seconds, 0.95, method="lower")),
        float(np.quantile(seconds, 0.95, method="higher")),
    )


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HEADROOM, *args], env=stack.env, capture_output=True, text=True, timeout=600
    )


def upload(stack: Stack, path: Path) -> int:
    done = cli(stack, "upload", str(path), "--wait", "--json")
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["dataset_id"])


def test_the_gate_passes_fails_and_reports_by_how_much(live: Stack, tmp_path: Path) -> None:
    log = queue_log(tmp_path / "fast.log", 25.0)
    low_s, high_s = p95_bracket_s(log)
    dataset_id = upload(live, log)
    passing = cli(live, "check", str(dataset_id), "--max-p95-s", f"{high_s * 1.5}", "--json")
    assert passing.returncode == 0, passing.stderr
    result = json.loads(passing.stdout)
    assert result["passed"] is True and len(result["checks"]) == 1
    observed = result["checks"][0]["observed"]
    assert low_s - 1e-6 <= observed <= high_s + 1e-6  # 1 µs: the log's resolution
    assert result["checks"][0]["limit"] == pytest.approx(high_s * 1.5)
    failing = cli(live, "check", "fast.log", "--max-p95-s", f"{low_s / 2}")
    assert failing.returncode == 1
    assert failing.stdout.startswith("FAIL p95 latency (all requests)")
    assert f"{observed - low_s / 2:.4g} s" in failing.stdout and "over the limit" in failing.stdout


def test_a_regression_against_the_baseline_fails(live: Stack, tmp_path: Path) -> None:
    base_id = upload(live, queue_log(tmp_path / "base.log", 25.0))
    slow = queue_log(tmp_path / "slow.log", 18.0)  # a slower release: service rate -28 %
    slow_id = upload(live, slow)
    done = cli(live, "check", str(slow_id), "--baseline", str(base_id), "--json")
    assert done.returncode == 1, done.stderr
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    p95 = checks["p95 latency vs baseline (all requests)"]
    assert p95["passed"] is False and p95["observed"] > p95["limit"]
    same = cli(live, "check", str(base_id), "--baseline", str(base_id), "--json")
    assert same.returncode == 0, same.stdout + same.stderr
    for item in json.loads(same.stdout)["checks"]:  # against itself: observed = baseline
        factor = 1.1 if item["name"].startswith("p95") else 0.9
        assert item["limit"] == pytest.approx(item["observed"] * factor)


def test_a_request_class_and_input_errors(live: Stack, tmp_path: Path) -> None:
    log = queue_log(tmp_path / "classes.log", 25.0)
    dataset_id = upload(live, log)
    low_s, high_s = p95_bracket_s(log)
    by_class = cli(live, "check", str(dataset_id), "--class", "dynamic", "--max-p95-s", "100")
    assert by_class.returncode == 0, by_class.stderr
    assert by_class.stdout.startswith("PASS p95 latency (dynamic)")
    unknown = cli(live, "check", str(dataset_id), "--class", "nope", "--max-p95-s", "1")
    assert unknown.returncode == 2 and "no request class 'nope'" in unknown.stderr
    assert "dynamic" in unknown.stderr
    assert cli(live, "check", "99999", "--max-p95-s", "1").returncode == 2
    assert cli(live, "check", str(dataset_id)).returncode == 2  # no limit given
    assert low_s <= high_s
