"""The remote CLI against the real stack: login, a resumable upload killed and resumed,
--wait --json output and exit codes, the progress bar on a terminal (a pseudo-terminal)."""

import json
import os
import pty
import select
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.services import HEADROOM, Stack, free_port, stack_env


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[Stack]:
    env = stack_env(
        tmp_path, f"sqlite:///{tmp_path / 'headroom.db'}", "", static_dir=str(tmp_path / "no-ui")
    )
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.headroom("migrate")
    running.start_api(port, "--with-worker")
    yield running
    running.stop()


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HEADROOM, *args], env=stack.env, capture_output=True, text=True, timeout=300
    )


def test_login_upload_wait_json(embedded: Stack, sample_log: Path) -> None:
    token = embedded.token_for("ci@example.com", "CI")
    logged = cli(embedded, "login", "--url", embedded.base_url, "--token", token)
    assert logged.returncode == 0, logged.stderr
    assert "ci@example.com" in logged.stdout
    credentials = Path(embedded.env["XDG_CONFIG_HOME"]) / "headroom" / "credentials.json"
    assert credentials.stat().st_mode & 0o777 == 0o600
    done = cli(embedded, "upload", str(sample_log), "--wait", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "succeeded" and result["dataset_id"] > 0 and result["job_id"] > 0


def test_bad_input_exits_2_with_one_line(embedded: Stack, tmp_path: Path) -> None:
    token = embedded.token_for("ci2@example.com", "CI2")
    cli(embedded, "login", "--url", embedded.base_url, "--token", token)
    missing = cli(embedded, "upload", str(tmp_path / "nope.log"))
    assert missing.returncode == 2 and missing.stderr.startswith("Error: no such file")
    not_a_log = tmp_path / "notes.txt"
    not_a_log.write_text("dear diary\n" * 50)
    refused = cli(embedded, "upload", str(not_a_log), "--json")
    assert refused.returncode == 2 and "no supported log format" in refused.stderr
    bad_token = cli(embedded, "login", "--url", embedded.base_url, "--token", "hr_wrong")
    assert bad_token.returncode == 2


def test_an_interrupted_upload_resumes_where_it_stopped(
    embedded: Stack, sample_log: Path, tmp_path: Path
) -> None:
    token = embedded.token_for("ci3@example.com", "CI3")
    cli(embedded, "login", "--url", embedded.base_url, "--token", token)
    big = tmp_path / "big.log"
    big.write_bytes(sample_log.read_bytes() * 5)
    first = subprocess.Popen(
        [*HEADROOM, "upload", str(big), "--chunk-bytes", "65536"],
        env=embedded.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    sent = _wait_for_partial_upload(embedded, minimum_bytes=2_000_000)
    os.killpg(first.pid, signal.SIGKILL)  # the pipeline's runner dies mid-upload
    first.wait(10)
    second = cli(embedded, "upload", str(big), "--chunk-bytes", "65536", "--wait", "--json")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["status"] == "succeeded"
    assert sent >= 2_000_000
    database = sqlite3.connect(Path(embedded.env["HEADROOM_DATA_DIR"]) / "headroom.db")
    sessions = database.execute("SELECT count(*), max(completed_at) FROM upload").fetchone()
    database.close()
    assert sessions[0] == 1 and sessions[1] is not None  # one session, resumed and completed
    storage = Path(embedded.env["HEADROOM_DATA_DIR"]) / "storage"
    left_over = [p for p in storage.rglob("*") if p.is_file() and "uploads" in p.parts]
    assert left_over == []  # neither the assembled upload nor its parts stay behind


def _wait_for_partial_upload(stack: Stack, minimum_bytes: int) -> int:
    """Bytes the server has recorded as received for the upload so far."""
    database_path = Path(stack.env["HEADROOM_DATA_DIR"]) / "headroom.db"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        database = sqlite3.connect(database_path)
        try:
            row = database.execute("SELECT max(offset_bytes) FROM upload").fetchone()
        except sqlite3.OperationalError:  # the table is being written: ask again
            row = None
        finally:
            database.close()
        if row and row[0] is not None and row[0] >= minimum_bytes:
            return int(row[0])
        time.sleep(0.05)
    raise TimeoutError("the upload never got going")


def on_terminal(stack: Stack, *args: str) -> tuple[int, str]:
    """Runs the CLI with stdin, stdout and stderr on a pseudo-terminal; its exit code and
    everything it wrote there."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*HEADROOM, *args], env=stack.env, stdin=terminal, stdout=terminal, stderr=terminal
    )
    os.close(terminal)
    output = bytearray()
    deadline = time.monotonic() + 300
    readable = select.poll()  # not select.select: a long test run's descriptors pass 1024
    readable.register(controller, select.POLLIN)
    while time.monotonic() < deadline:
        ready = bool(readable.poll(1000))
        try:
            chunk = os.read(controller, 65536) if ready else b""
        except OSError:  # EIO: every end of the terminal is closed, the CLI has exited
            break
        if ready and not chunk:
            break
        output += chunk
    os.close(controller)
    return process.wait(30), output.decode(errors="replace")


def test_upload_shows_a_progress_bar_on_a_terminal_only(
    embedded: Stack, sample_log: Path, tmp_path: Path
) -> None:
    token = embedded.token_for("tty@example.com", "TTY")
    embedded.env.update(HEADROOM_URL=embedded.base_url, HEADROOM_TOKEN=token)
    code, shown = on_terminal(
        embedded, "upload", str(sample_log), "--wait", "--chunk-bytes", "65536"
    )
    assert code == 0, shown
    assert "\ruploading [" in shown and "\ringesting [" in shown
    assert f"uploading [{'#' * 30}] 100.0%" in shown  # the last chunk's update
    assert shown.count("\ruploading [") > 2  # one update per 64 KiB chunk (2.4 MB here)
    assert "dataset " in shown and ": succeeded" in shown
    lines = sample_log.read_bytes().splitlines(keepends=True)
    half = tmp_path / "half.log"
    half.write_bytes(b"".join(lines[: len(lines) // 2]))
    code, quiet = on_terminal(embedded, "upload", str(half), "--wait", "--json")
    assert code == 0, quiet
    assert "uploading [" not in quiet and "ingesting [" not in quiet
    assert json.loads(quiet.strip())["status"] == "succeeded"  # the JSON line alone
    third = tmp_path / "third.log"
    third.write_bytes(b"".join(lines[: len(lines) // 3]))
    piped = cli(embedded, "upload", str(third), "--wait")  # stderr is a pipe: no bar
    assert piped.returncode == 0 and "uploading [" not in piped.stderr + piped.stdout
