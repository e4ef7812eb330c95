"""A test stack stops all it started, even when the process that started it is killed
(the browser tests' runner is), and a worker whose broker is gone exits promptly on
SIGTERM (it took about 4 s, longer than its runner waited)."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from support.restartable_redis import Redis
from support.services import REPO_ROOT, Stack, stack_env

pytestmark = pytest.mark.faults

SIGTERM_EXIT_BOUND_S = 3.0  # an idle worker exits within a second; room for a loaded machine
ORPHAN_BOUND_S = 10.0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def sqlite_stack(tmp_path: Path, broker_url: str) -> Stack:
    env = stack_env(tmp_path, f"sqlite:///{tmp_path / 'h.db'}", broker_url)
    stack = Stack(env=env, base_url="http://127.0.0.1:1", log_dir=tmp_path)
    stack.headroom("migrate")
    return stack


def wait_for_log(path: Path, text: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise TimeoutError(f"{text!r} not in {path.name} after {timeout_s} s")


def test_a_killed_runner_leaves_no_process_behind(tmp_path: Path) -> None:
    """The runner (as e2e/stack.py) starts Redis and a worker, then is SIGKILLed."""
    runner = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        sys.path.insert(0, {str(REPO_ROOT / "backend" / "tests")!r})
        from support.services import Stack, redis_server, stack_env
        folder = Path({str(tmp_path)!r})
        with redis_server() as url:
            env = stack_env(folder, f"sqlite:///{{folder / 'h.db'}}", url)
            stack = Stack(env=env, base_url="http://127.0.0.1:1", log_dir=folder)
            stack.headroom("migrate")
            worker = stack.start_worker()
            print(worker.pid, flush=True)
            time.sleep(600)
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", runner], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    assert process.stdout is not None
    worker_pid = int(process.stdout.readline())
    wait_for_log(tmp_path / "worker0.log", "ready.")
    assert group_members(worker_pid)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    deadline = time.monotonic() + ORPHAN_BOUND_S
    while group_members(worker_pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = group_members(worker_pid)
    for pid in left:  # clean up before failing
        os.kill(pid, signal.SIGKILL)
    assert left == [], "the worker outlived the process that started it"


def test_a_worker_whose_broker_is_gone_exits_promptly(tmp_path: Path) -> None:
    redis = Redis()
    redis.start()
    stack = sqlite_stack(tmp_path, redis.url)
    try:
        worker = stack.start_worker()
        wait_for_log(tmp_path / "worker0.log", "ready.")
        redis.kill()
        time.sleep(3)  # the worker notices and retries its connection
        began = time.monotonic()
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(60)
        exit_s = time.monotonic() - began
        print(f"worker exited {exit_s:.2f} s after SIGTERM, its broker gone")
        assert exit_s < SIGTERM_EXIT_BOUND_S
    finally:
        stack.stop()
        redis.kill()
