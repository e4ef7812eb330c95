"""The whole stack as production runs it: API and Celery workers as processes, PostgreSQL
and Redis (and the embedded SQLite + filesystem-broker mode), driven over HTTP."""

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from headroom.core.migrations import upgrade
from headroom.core.settings import Settings
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in
from support.services import Stack, free_port, stack_env, wait_for_job

PASSWORD = "pipeline-password"


@pytest.fixture(params=["parallel", "sequential"])
def ingest_stack(request: pytest.FixtureRequest, make_stack: Callable[..., Stack]) -> Stack:
    return make_stack(parallel_ingest="true" if request.param == "parallel" else "false")


def upload(client: httpx.Client, data: bytes, name: str) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/v1/datasets", files={"file": (name, data)})
    assert response.status_code == 202, response.text
    return response.json()  # type: ignore[no-any-return]


def summary_of(client: httpx.Client, dataset_id: int) -> dict:  # type: ignore[type-arg]
    body = client.get(f"/api/v1/datasets/{dataset_id}/summary").raise_for_status().json()
    body.pop("dataset_id")
    return body  # type: ignore[no-any-return]


def test_pipeline_upload_poll_and_summary(stack: Stack, sample_log: Path) -> None:
    stack.start_worker()
    client = stack.client(stack.token_for("ci@example.com", "Pipelines"))
    created = upload(client, sample_log.read_bytes(), "access.log")
    job = wait_for_job(client, created["job"]["id"])
    assert job["status"] == "succeeded", job
    summary = summary_of(client, created["id"])
    assert summary["request_count"] + summary["rejected_count"] == 10_000
    assert summary["status_counts"]["5xx"] == 3


def test_killed_worker_job_is_finished_by_another(ingest_stack: Stack, sample_log: Path) -> None:
    """SIGKILL the worker mid-job: another worker process finishes it, with the same result
    as an uninterrupted run. Sequentially, the job's lease runs out and it is re-run
    (attempt 2); in parallel, the dead worker's parts come back to the queue."""
    stack = ingest_stack
    big_log = sample_log.read_bytes() * 20  # 200,000 lines, ~47 MB, ~180 parts of 256 KiB
    victim = stack.start_worker()
    client = stack.client(stack.token_for("ops@example.com", "Ops"))
    created = upload(client, big_log, "big.log")
    job_id = created["job"]["id"]
    _wait_until_running(client, job_id, min_progress=0.1)
    stack.kill_worker(victim)
    stack.start_worker()
    job = wait_for_job(client, job_id, timeout_s=180)
    assert job["status"] == "succeeded", job
    if stack.env["HEADROOM_PARALLEL_INGEST"] == "false":
        assert job["attempts"] == 2
    other = stack.client(stack.token_for("ops2@example.com", "Ops2"))
    clean = upload(other, big_log, "big.log")
    assert wait_for_job(other, clean["job"]["id"], timeout_s=180)["status"] == "succeeded"
    assert summary_of(client, created["id"]) == summary_of(other, clean["id"])


def test_parallel_ingest_matches_one_pass(stack: Stack, sample_log: Path, tmp_path: Path) -> None:
    """Two workers share one file's parts; the summary equals the in-process one pass."""
    big_log = b"".join([sample_log.read_bytes()] * 8 + [b"not a log line\n"] * 3)
    stack.start_worker()
    stack.start_worker()
    client = stack.client(stack.token_for("par@example.com", "Par"))
    created = upload(client, big_log, "par.log")
    assert wait_for_job(client, created["job"]["id"])["status"] == "succeeded"
    parallel = summary_of(client, created["id"])
    assert parallel["rejected_count"] == 3
    assert [r["line_number"] for r in parallel["rejects"]] == [80_001, 80_002, 80_003]
    assert parallel["request_count"] == 80_000
    one_pass = _one_pass_summary(tmp_path, big_log)
    assert parallel == one_pass


def _one_pass_summary(tmp_path: Path, data: bytes) -> dict:  # type: ignore[type-arg]
    settings = Settings(data_dir=tmp_path / "one-pass", static_dir=tmp_path / "no-ui")
    upgrade(settings)
    client = signed_in(settings, member(settings, "one@example.com", "One"))
    created = client.post("/api/v1/datasets", params={"name": "par.log"}, content=data).json()
    run_job(settings, created["job"]["id"], ingest_body)
    body = client.get(f"/api/v1/datasets/{created['id']}/summary").json()
    body.pop("dataset_id")
    return body  # type: ignore[no-any-return]


def _wait_until_running(client: httpx.Client, job_id: int, min_progress: float) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        assert job["status"] in ("queued", "running"), job
        if job["status"] == "running" and job["progress"] >= min_progress:
            return
        time.sleep(0.05)
    raise TimeoutError("the job never got going")


def test_bad_input_fails_once_without_retries(stack: Stack, sample_log: Path) -> None:
    client = stack.client(stack.token_for("qa@example.com", "QA"))
    created = upload(client, sample_log.read_bytes(), "access.log")
    stored = next((Path(stack.env["HEADROOM_DATA_DIR"]) / "storage" / "datasets").rglob("*.log"))
    stored.write_bytes(b"\x00garbage that is no log at all\n" * 1000)  # storage went bad
    stack.start_worker()
    job = wait_for_job(client, created["job"]["id"])
    assert job["status"] == "failed" and job["attempts"] == 1
    assert job["error_code"] == "unparseable_log" and job["error_message"]
    time.sleep(3)
    assert client.get(f"/api/v1/jobs/{created['job']['id']}").json()["attempts"] == 1
    assert client.get(f"/api/v1/datasets/{created['id']}").json()["status"] == "failed"


def test_embedded_mode_sqlite_and_filesystem_broker(tmp_path: Path, sample_log: Path) -> None:
    env = stack_env(
        tmp_path, f"sqlite:///{tmp_path / 'headroom.db'}", "", static_dir=str(tmp_path / "no-ui")
    )
    port = free_port()
    embedded = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    embedded.headroom("migrate")
    try:
        embedded.start_api(port, "--with-worker")
        client = embedded.client(embedded.token_for("solo@example.com", "Solo"))
        created = upload(client, sample_log.read_bytes(), "access.log")
        assert wait_for_job(client, created["job"]["id"])["status"] == "succeeded"
        assert summary_of(client, created["id"])["status_counts"]["5xx"] == 3
        # no result backend here, so no chord: the sweep's runs go one after another
        scenario = {
            "duration_s": 300,
            "workload": {
                "arrivals": {"rate_per_s": 2.0},
                "service_s": {"dist": "exponential", "mean": 0.2},
            },
        }
        sweep = {"path": "seed", "values": [1, 2, 3]}
        body = {"name": "sweep", "scenario": scenario, "sweep": sweep}
        simulation = client.post("/api/v1/simulations", json=body).json()
        assert wait_for_job(client, simulation["job"]["id"])["status"] == "succeeded"
        result = client.get(f"/api/v1/simulations/{simulation['id']}").json()["result"]
        assert len(result["runs"]) == 3
    finally:
        embedded.stop()


def _peak_rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc status")


@pytest.mark.parametrize("encoding", ["raw", "multipart"])
def test_a_2gb_upload_streams_in_constant_memory(
    stack: Stack, sample_log: Path, encoding: str
) -> None:
    """The API's peak RSS stays under 300 MB while 2 GB stream through it to storage."""
    total_bytes, piece = 2 * 1024**3, sample_log.read_bytes()

    def body():  # type: ignore[no-untyped-def]
        sent = 0
        while sent < total_bytes:
            chunk = piece[: total_bytes - sent]
            sent += len(chunk)
            yield chunk

    client = stack.client(stack.token_for(f"{encoding}@example.com", f"Big-{encoding}"))
    if encoding == "raw":
        response = client.post("/api/v1/datasets", params={"name": "big.log"}, content=body())
    else:
        response = client.post("/api/v1/datasets", files={"file": ("big.log", _Stream(body()))})
    assert response.status_code == 202, response.text
    assert response.json()["size_bytes"] == total_bytes
    assert stack.api is not None
    peak_bytes = _peak_rss_bytes(stack.api.pid)
    print(f"API peak RSS after a 2 GB {encoding} upload: {peak_bytes / 1024**2:.0f} MB")
    assert peak_bytes < 300 * 1024**2


class _Stream:
    """A file-like over a generator, so httpx streams the multipart body too."""

    def __init__(self, chunks) -> None:  # type: ignore[no-untyped-def]
        self.chunks, self.buffer = chunks, b""

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self.buffer) < size:
            try:
                self.buffer += next(self.chunks)
            except StopIteration:
                break
        data, self.buffer = (
            (self.buffer, b"") if size < 0 else (self.buffer[:size], self.buffer[size:])
        )
        return data
