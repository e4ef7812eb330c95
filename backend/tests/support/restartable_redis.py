"""A Redis server a test can kill and start again on the same port (broker outages)."""

import contextlib
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator

from support.services import die_with_parent, free_port, wait_for_port


class Redis:
    """A Redis server the test can kill and start again on the same port."""

    def __init__(self) -> None:
        self.port, self.root = free_port(), tempfile.mkdtemp(prefix="headroom-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--dir", self.root]
        self.process = subprocess.Popen(
            [binary, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        wait_for_port(self.port, 30, self.process)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


@contextlib.contextmanager
def running_redis() -> Iterator[Redis]:
    """A started Redis for a test (its stack's broker); killed and removed afterwards."""
    server = Redis()
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(server.root, ignore_errors=True)
