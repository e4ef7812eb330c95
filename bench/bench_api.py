"""API load: 50 clients reading (dataset list, summary, job status), then the same reads
while 10 clients each upload 20 MB.

Starts its own stack (throwaway PostgreSQL and Redis, the API, one worker), seeds a
workspace with a few ingested datasets, and prints throughput and p50/p95/p99 per endpoint,
and the slowest read while the uploads run. The code under test is whatever
`python -m headroom.cli` imports (set PYTHONPATH to measure another checkout).

    python bench/bench_api.py                       # 20 s of reads, then the mixed phase
    python bench/bench_api.py --seconds 5 --json bench/out/api.json
    python bench/bench_api.py --compare bench/out/api-main.json
    python bench/bench_api.py --serve-args "--workers 2"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend" / "tests"))

from support.services import (  # noqa: E402
    Stack,
    free_port,
    postgres_server,
    redis_server,
    stack_env,
    wait_for_job,
)

SAMPLE = ROOT / "data" / "logs" / "apache_combined_elastic.log"
SEED_LINES = (2000, 2001, 2002)
UPLOAD_CHUNK_BYTES = 256 * 1024
UPLOAD_TIMEOUT_S = 300.0
READ_TIMEOUT_S = 60.0
READ_ENDPOINTS = ("datasets", "summary", "job")
# one token reads at several hundred requests a second: far above the default budget
BENCH_SETTINGS = {"rate_limit_token_per_min": "1000000", "rate_limit_ip_per_min": "1000000"}


class Recorder:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.failures: dict[str, int] = defaultdict(int)  # status or exception -> count

    def add(self, endpoint: str, latency_s: float, failure: str | None) -> None:
        self.samples[endpoint].append(latency_s)
        if failure is not None:
            self.errors[endpoint] += 1
            self.failures[failure] += 1


def seeded_stack(tmp: Path, database_url: str, redis_url: str, serve_args: list[str]) -> Stack:
    env = stack_env(tmp, database_url, redis_url, static_dir=str(tmp / "no-ui"), **BENCH_SETTINGS)
    port = free_port()
    stack = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp)
    stack.headroom("migrate")
    stack.start_api(port, *serve_args)
    stack.start_worker()
    return stack


def seed(stack: Stack) -> tuple[str, list[str], list[int], list[int]]:
    """A read token, upload tokens, and the ids of ingested datasets and their jobs."""
    stack.token_for("bench@example.com", "bench")
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    datasets, jobs = [], []
    with stack.client() as client:
        signed_in = {"email": "bench@example.com", "password": "a-long-enough-password"}
        client.post("/api/v1/auth/login", json=signed_in).raise_for_status()
        workspace_id = client.get("/api/v1/auth/me").raise_for_status().json()["workspaces"][0]
        workspace_id = workspace_id["id"]
        tokens = [
            client.post(
                f"/api/v1/workspaces/{workspace_id}/tokens",
                json={"name": f"bench{i}", "scopes": ["write"]},
            )
            .raise_for_status()
            .json()["token"]
            for i in range(11)
        ]
        for count in SEED_LINES:
            body = b"".join(lines[:count])
            out = client.post("/api/v1/datasets", params={"name": f"seed{count}"}, content=body)
            job = out.raise_for_status().json()["job"]
            wait_for_job(client, job["id"], timeout_s=900)  # a cold numba cache compiles first
            datasets.append(out.json()["id"])
            jobs.append(job["id"])
    return tokens[0], tokens[1:], datasets, jobs


class Connection:
    """One keep-alive HTTP/1.1 connection sending a GET at a time. The readers use it instead
    of httpx, which costs about twice the API's own CPU per request: on a 2-core machine
    the load generator would otherwise be what is measured."""

    def __init__(self, base_url: str, token: str) -> None:
        parts = urllib.parse.urlsplit(base_url)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.headers = f"Host: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str) -> int:
        if self.streams is None:
            self.streams = await asyncio.open_connection(*self.address)
        reader, writer = self.streams
        try:
            writer.write(b"GET " + path.encode() + b" HTTP/1.1\r\n" + self.headers)
            status, headers = _head(await reader.readuntil(b"\r\n\r\n"))
            if headers.get(b"transfer-encoding") == b"chunked":
                await _skip_chunks(reader)
            else:
                await reader.readexactly(int(headers.get(b"content-length", b"0")))
            if headers.get(b"connection") == b"close":
                self.close()
            return status
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


def _head(raw: bytes) -> tuple[int, dict[bytes, bytes]]:
    status_line, *lines = raw.rstrip(b"\r\n").split(b"\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip().lower()
    return int(status_line.split()[1]), headers


async def _skip_chunks(reader: asyncio.StreamReader) -> None:
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        await reader.readexactly(size + 2)
    await reader.readuntil(b"\r\n")


async def reader(
    base_url: str,
    token: str,
    datasets: list[int],
    jobs: list[int],
    stop: asyncio.Event,
    rec: Recorder,
) -> None:
    rng, connection = random.Random(), Connection(base_url, token)
    while not stop.is_set():
        endpoint = rng.choice(READ_ENDPOINTS)
        url = {
            "datasets": "/api/v1/datasets",
            "summary": f"/api/v1/datasets/{rng.choice(datasets)}/summary",
            "job": f"/api/v1/jobs/{rng.choice(jobs)}",
        }[endpoint]
        started = time.perf_counter()
        try:
            async with asyncio.timeout(READ_TIMEOUT_S):
                status = await connection.get(url)
            failure = None if status == 200 else str(status)
        except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as error:
            failure = type(error).__name__
        rec.add(endpoint, time.perf_counter() - started, failure)
    connection.close()


def tree_cpu_s(pid: int) -> float:
    """CPU seconds used so far by a process and its children."""
    root = psutil.Process(pid)
    used = 0.0
    for process in [root, *root.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            used += times.user + times.system
    return used


def listener_pid(url: str) -> int:
    """The process listening on the port of a database or broker URL."""
    port = int(url.rsplit(":", 1)[1].split("/", 1)[0])
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            return conn.pid
    raise RuntimeError(f"nothing listens on port {port}")


def cpu_by_process(stack: Stack, database_url: str, redis_url: str) -> dict[str, float]:
    """CPU seconds so far of each part of the stack, and of this load generator."""
    assert stack.api is not None
    return {
        "api": tree_cpu_s(stack.api.pid),
        "postgresql": tree_cpu_s(listener_pid(database_url)),
        "redis": tree_cpu_s(listener_pid(redis_url)),
        "load generator": sum(psutil.Process(os.getpid()).cpu_times()[:2]),
    }


async def read_phase(
    base_url: str, token: str, datasets: list[int], jobs: list[int], clients: int, seconds: float
) -> tuple[Recorder, float]:
    rec, stop = Recorder(), asyncio.Event()
    tasks = [
        asyncio.create_task(reader(base_url, token, datasets, jobs, stop, rec))
        for _ in range(clients)
    ]
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    return rec, time.perf_counter() - started


async def upload_body(size_bytes: int, tag: int) -> AsyncIterator[bytes]:
    """`size_bytes` of the sample log repeated, with a line of its own so each is new."""
    base = SAMPLE.read_bytes()
    line = f'10.9.{tag}.1 - - [17/May/2015:10:05:03 +0000] "GET /u{tag} HTTP/1.1" 200 1 "-" "-"'
    yield line.encode() + b"\n"
    sent = 0
    while sent < size_bytes:
        chunk = base[: min(UPLOAD_CHUNK_BYTES, size_bytes - sent)]
        # whole lines only; a remainder shorter than a line ends the body with one whole line
        cut = chunk.rfind(b"\n") + 1 or base.find(b"\n") + 1
        sent += cut
        yield base[:cut]
        await asyncio.sleep(0)


async def upload(base_url: str, token: str, size_bytes: int, tag: int) -> tuple[int, float]:
    started = time.perf_counter()
    async with _client(base_url, token, 1) as client:
        answer = await client.post(
            "/api/v1/datasets",
            params={"name": f"upload{tag}"},
            content=upload_body(size_bytes, tag),
        )
    return answer.status_code, time.perf_counter() - started


async def mixed_phase(
    base_url: str,
    token: str,
    upload_tokens: list[str],
    datasets: list[int],
    jobs: list[int],
    clients: int,
    upload_bytes: int,
) -> tuple[Recorder, float, list[tuple[int, float]]]:
    rec, stop = Recorder(), asyncio.Event()
    tasks = [
        asyncio.create_task(reader(base_url, token, datasets, jobs, stop, rec))
        for _ in range(clients)
    ]
    started = time.perf_counter()
    uploads = await asyncio.gather(
        *(upload(base_url, t, upload_bytes, i) for i, t in enumerate(upload_tokens))
    )
    stop.set()
    await asyncio.gather(*tasks)
    return rec, time.perf_counter() - started, list(uploads)


def _client(base_url: str, token: str, connections: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base_url,
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
    )


def figures(rec: Recorder, elapsed_s: float) -> dict[str, dict[str, float]]:
    out = {}
    everything = [x for v in rec.samples.values() for x in v]
    for name, samples in [*sorted(rec.samples.items()), ("all reads", everything)]:
        if not samples:
            continue
        cuts = statistics.quantiles(samples, n=100, method="inclusive")
        errors = sum(rec.errors.values()) if name == "all reads" else rec.errors[name]
        out[name] = {
            "req_per_s": len(samples) / elapsed_s,
            "p50_ms": cuts[49] * 1000,
            "p95_ms": cuts[94] * 1000,
            "p99_ms": cuts[98] * 1000,
            "max_ms": max(samples) * 1000,
            "errors": errors,
        }
    return out


def report(results: dict, previous: dict | None) -> None:
    for phase in ("reads", "reads during uploads"):
        print(f"\n{phase}")
        header = f"  {'endpoint':<12}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
        print(
            header
            + f"{'max ms':>9}{'errors':>7}"
            + ("   previous (req/s, p99 ms)" if previous else "")
        )
        for name, row in results[phase].items():
            line = f"  {name:<12}{row['req_per_s']:>9.1f}{row['p50_ms']:>9.1f}{row['p95_ms']:>9.1f}"
            line += f"{row['p99_ms']:>9.1f}{row['max_ms']:>9.1f}{row['errors']:>7}"
            before = (previous or {}).get(phase, {}).get(name)
            if before:
                ratio = row["req_per_s"] / before["req_per_s"]
                line += f"   {before['req_per_s']:.1f}, {before['p99_ms']:.1f} (x{ratio:.2f} req/s)"
            print(line)
    if previous and "api_cpu_ms_per_read" in previous:
        print(f"\nAPI CPU per read: previous {previous['api_cpu_ms_per_read']:.2f} ms")
    for phase, failures in results["read failures"].items():
        if failures:
            print(f"\nfailed {phase}: {failures}")
    up = results["uploads"]
    slowest_read_ms = results["reads during uploads"].get("all reads", {}).get("max_ms", 0.0)
    print(
        f"\nuploads: {up['count']} x {up['bytes']:,} bytes, statuses {up['statuses']}, "
        f"slowest {up['max_s']:.1f} s; slowest read meanwhile {slowest_read_ms:.0f} ms"
    )


def profile_reads(stack: Stack, token: str, datasets: list[int], jobs: list[int], n: int) -> dict:
    """CPU ms per request of each read endpoint, in this process, one request at a time,
    with FastAPI's thread pool replaced by direct calls so that cProfile sees everything;
    prints where the time goes."""
    import cProfile
    import pstats

    import fastapi.dependencies.utils
    import fastapi.routing

    from headroom.api.app import create_app
    from headroom.core.settings import Settings

    async def inline(func, *args, **kwargs):
        return func(*args, **kwargs)

    fastapi.routing.run_in_threadpool = inline
    fastapi.dependencies.utils.run_in_threadpool = inline
    env = {
        k[len("HEADROOM_") :].lower(): v for k, v in stack.env.items() if k.startswith("HEADROOM_")
    }
    app = create_app(Settings(**env))
    urls = {
        "datasets": "/api/v1/datasets",
        "summary": f"/api/v1/datasets/{datasets[0]}/summary",
        "job": f"/api/v1/jobs/{jobs[0]}",
    }
    out = {}

    async def run(url: str, count: int) -> None:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 1))
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://t", headers=headers
        ) as c:
            for _ in range(count):
                (await c.get(url)).raise_for_status()

    for name, url in urls.items():
        asyncio.run(run(url, 20))  # warm up
        started = time.process_time()
        asyncio.run(run(url, n))
        out[name] = (time.process_time() - started) / n * 1000
        profiler = cProfile.Profile()
        profiler.runcall(asyncio.run, run(url, n))
        print(f"\n== {name}: {out[name]:.2f} CPU ms per request (with the in-process client)")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the read phase")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--upload-mb", type=float, default=20.0)
    parser.add_argument("--serve-args", default="", help="extra `headroom serve` options")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--compare", type=Path, help="figures of a previous run, side by side")
    parser.add_argument("--profile", type=int, default=0, help="profile N requests per endpoint")
    args = parser.parse_args()
    previous = json.loads(args.compare.read_text()) if args.compare else None
    with (
        tempfile.TemporaryDirectory(prefix="headroom-bench-") as tmp,
        postgres_server() as database_url,
        redis_server() as redis_url,
    ):
        stack = seeded_stack(Path(tmp), database_url, redis_url, args.serve_args.split())
        try:
            token, upload_tokens, datasets, jobs = seed(stack)
            if args.profile:
                cpu = profile_reads(stack, token, datasets, jobs, args.profile)
                print("CPU ms per request:", {k: round(v, 2) for k, v in cpu.items()})
                return
            cpu_before_s = cpu_by_process(stack, database_url, redis_url)
            rec, elapsed = asyncio.run(
                read_phase(stack.base_url, token, datasets, jobs, args.clients, args.seconds)
            )
            served = max(sum(len(v) for v in rec.samples.values()), 1)
            cpu_after_s = cpu_by_process(stack, database_url, redis_url)
            cpu_ms_per_read = {
                part: (cpu_after_s[part] - cpu_before_s[part]) / served * 1000
                for part in cpu_after_s
            }
            cpu_ms = cpu_ms_per_read["api"]
            print(
                "CPU ms per read: "
                + ", ".join(f"{part} {ms:.2f}" for part, ms in cpu_ms_per_read.items())
                + f" ({served} reads)",
                flush=True,
            )
            mixed, mixed_s, uploads = Recorder(), 1.0, []
            if args.uploads:
                mixed, mixed_s, uploads = asyncio.run(
                    mixed_phase(
                        stack.base_url,
                        token,
                        upload_tokens[: args.uploads],
                        datasets,
                        jobs,
                        args.clients,
                        int(args.upload_mb * 1024**2),
                    )
                )
        finally:
            stack.stop()
    results = {
        "serve_args": args.serve_args,
        "clients": args.clients,
        "reads": figures(rec, elapsed),
        "api_cpu_ms_per_read": cpu_ms,
        "cpu_ms_per_read": cpu_ms_per_read,
        "reads during uploads": figures(mixed, mixed_s),
        "read failures": {
            "reads": dict(rec.failures),
            "reads during uploads": dict(mixed.failures),
        },
        "uploads": {
            "count": len(uploads),
            "bytes": int(args.upload_mb * 1024**2),
            "statuses": sorted({s for s, _ in uploads}),
            "max_s": max((d for _, d in uploads), default=0.0),
        },
    }
    report(results, previous)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
