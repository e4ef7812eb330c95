"""Starts the whole stack for the browser tests, as production runs it: throwaway PostgreSQL
and Redis, `headroom migrate`, the API serving the built UI, and a Celery worker. Creates the
e2e user. Runs until SIGTERM/SIGINT, then stops everything and deletes its files."""

import contextlib
import math
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend" / "tests"))

from support.prometheus import prometheus_server  # noqa: E402
from support.services import Stack, postgres_server, redis_server, stack_env  # noqa: E402

E2E_EMAIL = os.environ.get("E2E_EMAIL", "e2e@headroom.local")
E2E_PASSWORD = os.environ.get("E2E_PASSWORD", "e2e-password")


def main() -> None:
    port = int(os.environ.get("E2E_PORT", "8765"))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with (
        tempfile.TemporaryDirectory(prefix="headroom-e2e-") as folder,
        postgres_server() as database_url,
        redis_server() as broker_url,
        _prometheus(port + 1),
    ):
        static_dir = os.environ.get("E2E_STATIC_DIR") or str(REPO / "frontend" / "dist")
        # alert deliveries retry within seconds here (alerts.spec.ts waits for a failure)
        env = stack_env(
            Path(folder),
            database_url,
            broker_url,
            static_dir=static_dir,
            alert_retry_base_s="1",
            alert_max_retries="2",
        )
        stack = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=Path(folder))
        stack.headroom("migrate")
        stack.headroom(
            "admin",
            "create-user",
            E2E_EMAIL,
            "--password-stdin",
            "--workspace",
            "E2E workspace",
            stdin=E2E_PASSWORD + "\n",
        )
        try:
            stack.start_worker()
            stack.start_api(port)
            print(f"stack ready at {stack.base_url}", flush=True)
            stop.wait()
        finally:
            stack.stop()
            _show_logs(Path(folder))


@contextlib.contextmanager
def _prometheus(port: int) -> Iterator[None]:
    """A Prometheus server for sources.spec.ts on the next port, its data the last hours
    (skipped where the prometheus package is not installed)."""
    if shutil.which("prometheus") is None or shutil.which("promtool") is None:
        yield
        return
    start = (math.floor(time.time() / 3600) - 4) * 3600
    with prometheus_server(start, port):
        yield


def _show_logs(folder: Path) -> None:
    if os.environ.get("E2E_SHOW_LOGS"):
        for log in sorted(folder.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-5000:]}", flush=True)


if __name__ == "__main__":
    main()
