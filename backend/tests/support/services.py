"""Throwaway PostgreSQL and Redis servers on free ports, from the installed binaries, and the
whole Headroom stack (API + workers) as subprocesses, the way production runs it.

Used by the pytest fixtures and by the Playwright suite (e2e/stack.py)."""

import contextlib
import ctypes
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[3]
HEADROOM = [sys.executable, "-m", "headroom.cli"]
PR_SET_PDEATHSIG = 1
STOP_TIMEOUT_S = 10.0  # for the whole stack; then whatever is left is killed


def die_with_parent() -> None:
    """In a child before exec: the kernel kills it when the process that started it dies,
    even by SIGKILL (Linux), so a test stack never outlives the test run that started it."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, timeout_s: float = 30.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode} before listening")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port} after {timeout_s} s")


def _pg_bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root; drop to the postgres user when we are root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yields a SQLAlchemy URL of a fresh PostgreSQL cluster; removes it afterwards."""
    root = Path(tempfile.mkdtemp(prefix="headroom-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", free_port()
    subprocess.run(
        _as_postgres(
            [
                _pg_bin("initdb"),
                "-D",
                str(data),
                "-U",
                "headroom",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        capture_output=True,
    )
    # stacks of several API processes and workers, each with its own pool, share this server
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    options += " -c max_connections=400"
    subprocess.run(
        _as_postgres(
            [
                _pg_bin("pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            _as_postgres(
                [
                    _pg_bin("createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "headroom",
                    "headroom",
                ]
            ),
            check=True,
        )
        yield f"postgresql+psycopg://headroom@127.0.0.1:{port}/headroom"
    finally:
        subprocess.run(
            _as_postgres([_pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    port, root = free_port(), tempfile.mkdtemp(prefix="headroom-redis-")
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            root,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # its own session: a signal to the test runner's group must not take the broker
        # away before the workers have stopped
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def s3_server() -> Iterator[dict[str, str]]:
    """A real S3 API server (moto in server mode) on a free port; yields the AWS_* variables
    that point boto3 and polars at it."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    try:
        wait_for_port(port, 60, process)
        yield {
            "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_REGION": "us-east-1",
        }
    finally:
        process.terminate()
        process.wait(10)


@dataclass
class Stack:
    """A running API and its workers, all configured by HEADROOM_* variables only."""

    env: dict[str, str]
    base_url: str
    log_dir: Path
    api: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def headroom(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [*HEADROOM, *args],
            env=self.env,
            input=stdin,
            text=True,
            capture_output=True,
            check=True,
        )
        return done.stdout

    def token_for(self, email: str, workspace: str, scope: str = "write") -> str:
        """A new user in a (new) workspace, and an API token for them."""
        self.headroom(
            "admin",
            "create-user",
            email,
            "--password-stdin",
            "--workspace",
            workspace,
            stdin="a-long-enough-password\n",
        )
        out = self.headroom(
            "admin", "create-token", email, "--workspace", workspace, "--scope", scope, "--json"
        )
        return str(json.loads(out)["token"])

    def start_api(self, port: int, *extra: str) -> None:
        self.api = self._spawn("api", ["serve", "--host", "127.0.0.1", "--port", str(port), *extra])
        wait_for_port(port, 60, self.api)

    def start_worker(self, concurrency: int = 1) -> subprocess.Popen[bytes]:
        index = len(self.workers)
        worker = self._spawn(
            f"worker{index}",
            ["worker", "--concurrency", str(concurrency), "--hostname", f"w{index}@%h"],
        )
        self.workers.append(worker)
        return worker

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        return subprocess.Popen(
            [*HEADROOM, *args],
            env=self.env,
            stdout=log,
            stderr=log,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )

    def kill_worker(self, worker: subprocess.Popen[bytes]) -> None:
        """SIGKILL the worker and its pool children: nothing gets to clean up."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)

    def stop(self) -> None:
        """SIGTERM to every process group it started, a bounded wait, then SIGKILL to each
        group (whatever is left in it, a pool process too)."""
        processes = [*self.workers, *([self.api] if self.api else [])]
        for process in processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(deadline - time.monotonic(), 0.1))
        for process in processes:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=300)


def stack_env(data_dir: Path, database_url: str, broker_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEADROOM_")}
    env.update(
        HEADROOM_DATA_DIR=str(data_dir),
        HEADROOM_DATABASE_URL=database_url,
        HEADROOM_BROKER_URL=broker_url,
        HEADROOM_STORAGE_URL=f"file://{data_dir / 'storage'}",
        HEADROOM_SECRET_KEY="test-secret",
        PYTHONUNBUFFERED="1",
    )
    env.update({f"HEADROOM_{k.upper()}": v for k, v in extra.items()})
    return env


def wait_for_job(client: httpx.Client, job_id: int, timeout_s: float = 120.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job: dict[str, object] = client.get(f"/api/v1/jobs/{job_id}").raise_for_status().json()
        if job["status"] in ("succeeded", "failed", "cancelled"):
            return job
        time.sleep(0.2)
    raise TimeoutError(f"job {job_id} did not finish in {timeout_s} s")
