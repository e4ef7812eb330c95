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


def queue_log(path: Path, mu_per_s: float, user_agent: str = "check-test/1.0") -> Path:
    """An M/M/2 server under load rising over 4 minutes (seeded, so the same timings for
    the same service rate; another user agent gives other bytes, so another dataset)."""
    rates_per_s = [float(r) for r in np.linspace(0.1, 0.9, 8) * 2 * 25.0]
    table = synth.queue_log(rates_per_s, 30.0, mu_per_s, 2, np.random.default_rng(7))
    path.write_bytes(synth.combined_log(table, user_agent=user_agent))
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
    against = cli(
        live, "check", str(dataset_id), "--class", "dynamic", "--baseline", str(dataset_id)
    )
    assert against.returncode == 0, against.stderr  # the capacity analysis has no classes
    assert "SKIP knee load vs baseline (dynamic): no class 'dynamic' in the capacity" in (
        against.stdout
    )
    unknown = cli(live, "check", str(dataset_id), "--class", "nope", "--max-p95-s", "1")
    assert unknown.returncode == 2 and "no request class 'nope'" in unknown.stderr
    assert "dynamic" in unknown.stderr
    assert cli(live, "check", "99999", "--max-p95-s", "1").returncode == 2
    assert cli(live, "check", str(dataset_id)).returncode == 2  # no limit given
    assert low_s <= high_s


KNEE = "knee load vs baseline (all requests)"


def baseline_check(stack: Stack, current: int, baseline: int) -> tuple[int, dict]:
    done = cli(stack, "check", str(current), "--baseline", str(baseline), "--json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def by_name(result: dict) -> dict[str, dict]:
    return {c["name"]: c for c in result["checks"]}


def test_a_lower_knee_than_the_baselines_fails_by_how_much(live: Stack, tmp_path: Path) -> None:
    faster = upload(live, queue_log(tmp_path / "knee-base.log", 30.0))
    slower = upload(live, queue_log(tmp_path / "knee-slow.log", 25.0))
    code, result = baseline_check(live, slower, faster)
    knee = by_name(result)[KNEE]
    assert code == 1 and result["passed"] is False
    assert knee["passed"] is False and knee["unit"] == "req/s" and "skipped" not in knee
    _, reverse = baseline_check(live, faster, slower)  # the baseline's knee, read the other way
    base_knee = by_name(reverse)[KNEE]["observed"]
    assert knee["limit"] == pytest.approx(base_knee * 0.9)
    assert knee["observed"] < knee["limit"]
    text = cli(live, "check", str(slower), "--baseline", str(faster))
    assert text.returncode == 1
    shortfall = knee["limit"] - knee["observed"]
    line = next(x for x in text.stdout.splitlines() if x.startswith(f"FAIL {KNEE}"))
    assert f"{shortfall:.4g} req/s, {shortfall / knee['limit']:.1%} under the limit" in line


def test_equal_knees_pass(live: Stack, tmp_path: Path) -> None:
    first = upload(live, queue_log(tmp_path / "eq-a.log", 25.0, "first/1.0"))
    second = upload(live, queue_log(tmp_path / "eq-b.log", 25.0, "second/1.0"))
    assert first != second
    code, result = baseline_check(live, second, first)
    assert code == 0 and result["passed"] is True, result
    knee = by_name(result)[KNEE]
    assert knee["passed"] is True and knee["observed"] > 0
    assert knee["limit"] == pytest.approx(knee["observed"] * 0.9)  # the same knee


def test_a_missing_knee_is_reported_and_does_not_fail_the_gate(live: Stack, tmp_path: Path) -> None:
    saturated = upload(live, queue_log(tmp_path / "sat.log", 16.0))  # overloaded: no knee
    healthy = upload(live, queue_log(tmp_path / "ok.log", 25.0))
    code, result = baseline_check(live, healthy, saturated)
    knee = by_name(result)[KNEE]
    assert code == 0 and result["passed"] is True, result
    assert knee["observed"] is None and knee["limit"] is None and knee["passed"] is None
    assert knee["skipped"].startswith(f"no knee in the baseline, dataset {saturated}")
    code, result = baseline_check(live, saturated, healthy)
    knee = by_name(result)[KNEE]
    assert knee["skipped"].startswith(f"no knee in dataset {saturated}")
    assert code == 1  # the p95 check fails: the knee's absence is no excuse
    assert by_name(result)["p95 latency vs baseline (all requests)"]["passed"] is False
    text = cli(live, "check", str(healthy), "--baseline", str(saturated))
    assert text.returncode == 0 and f"SKIP {KNEE}: no knee in the baseline" in text.stdout
    twin = upload(live, queue_log(tmp_path / "sat-twin.log", 16.0, "twin/1.0"))
    code, result = baseline_check(live, twin, saturated)  # the same timings: the same p95
    assert code == 0, result
    assert by_name(result)[KNEE]["skipped"] == (
        f"no knee in dataset {twin} (sat-twin.log); no knee in the baseline, dataset "
        f"{saturated} (sat.log): the knee is not compared"
    )
