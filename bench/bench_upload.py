"""A large upload end to end: a generated Combined + %D log of a given size (default 30 GB)
sent by the `headroom upload` CLI (resumable, in chunks) through the real API to a file://
store, and optionally to an S3 API server (moto), then parsed by the chunked ingest.

Starts its own stack (throwaway PostgreSQL and Redis, the API, one worker; moto with --s3).
The log is written once to bench/out/ a block at a time (never held in memory) with its
SHA-256 on the way, and removed at the end unless --keep. Prints, for the upload and the
ingest, wall time, CPU time and peak RSS (VmHWM) of the API, the worker and the CLI, and
checks that the stored object's streamed SHA-256 equals the source's.

    python bench/bench_upload.py                        # 30 GB: long, ~60 GB of disk
    python bench/bench_upload.py --gb 2 --s3 --json bench/out/upload.json
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "backend" / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from gen_combined import generate, render  # noqa: E402

from support.services import (  # noqa: E402
    HEADROOM,
    Stack,
    free_port,
    postgres_server,
    redis_server,
    s3_server,
    stack_env,
    wait_for_job,
)

OUT = ROOT / "bench" / "out"
LINES_PER_DAY = 200_000  # ~39 MB
FIRST_DATE, LAST_DATE = date(2024, 2, 29), date(2024, 3, 1)  # gen_combined's day, at -0500
READ_BYTES = 8 << 20
BUCKET = "headroom-bench"


def write_log(path: Path, size_bytes: int) -> tuple[int, str]:
    """A log of about size_bytes (whole lines, at least size_bytes) written a day at a time;
    its line count and SHA-256. One day is drawn (gen_combined, LINES_PER_DAY lines); each
    following day repeats it with its dates moved on (drawing every day would take longer
    than the upload it feeds)."""
    df = generate(LINES_PER_DAY, seed=7)
    day = ("\n".join(render(df).to_list()) + "\n").encode()
    first, last = (d.strftime("[%d/%b/%Y:").encode() for d in (FIRST_DATE, LAST_DATE))
    assert day.count(first) + day.count(last) == LINES_PER_DAY  # the day spans these dates
    template = day.replace(last, b"\0").replace(first, b"\1")
    digest, written, days = hashlib.sha256(), 0, 0
    with path.open("wb") as out:
        while written < size_bytes:
            shifted = (
                (d + timedelta(days=days)).strftime("[%d/%b/%Y:").encode()
                for d in (FIRST_DATE, LAST_DATE)
            )
            new_first, new_last = shifted
            block = template.replace(b"\1", new_first).replace(b"\0", new_last)
            out.write(block)
            digest.update(block)
            written += len(block)
            days += 1
    return days * LINES_PER_DAY, digest.hexdigest()


def streamed_sha256(chunks: Iterator[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()


def file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as handle:
        while block := handle.read(READ_BYTES):
            yield block


def stored_object(env: dict[str, str], size_bytes: int) -> tuple[str, Iterator[bytes]]:
    """The dataset's object in the stack's store (the one object of the source's size)."""
    url = env["HEADROOM_STORAGE_URL"]
    if url.startswith("file://"):
        root = Path(url.removeprefix("file://"))
        (path,) = [p for p in root.rglob("*") if p.is_file() and p.stat().st_size == size_bytes]
        return str(path.relative_to(root)), file_chunks(path)
    import boto3

    client = boto3.client("s3")
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET)
    (key,) = [o["Key"] for p in pages for o in p.get("Contents", []) if o["Size"] == size_bytes]
    body = client.get_object(Bucket=BUCKET, Key=key)["Body"]
    return key, iter(lambda: body.read(READ_BYTES), b"")


def tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def cpu_s(pid: int) -> float:
    used = 0.0
    for process in tree(pid):
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            used += times.user + times.system
    return used


def peak_rss_mb(pid: int) -> float:
    """The largest VmHWM of a process tree (each process's own peak so far)."""
    peak = 0
    for process in tree(pid):
        with contextlib.suppress(OSError, psutil.NoSuchProcess):
            for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
    return peak / 1024


def run_cli(stack: Stack, token: str, path: Path, cache: Path) -> dict[str, Any]:
    """`headroom upload FILE --json` under /usr/bin/time -v: wall, CPU, peak RSS."""
    env = {**stack.env, "HEADROOM_URL": stack.base_url, "HEADROOM_TOKEN": token}
    env["XDG_CACHE_HOME"] = str(cache)
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *HEADROOM, "upload", str(path), "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall_s = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"headroom upload failed: {done.stderr[-2000:]}")
    stats = dict(line.strip().split(": ", 1) for line in done.stderr.splitlines() if ": " in line)
    return {
        "result": json.loads(done.stdout.strip().splitlines()[-1]),
        "wall_s": wall_s,
        "cpu_s": float(stats["User time (seconds)"]) + float(stats["System time (seconds)"]),
        "peak_rss_mb": int(stats["Maximum resident set size (kbytes)"]) / 1024,
    }


def run_store(kind: str, env: dict[str, str], path: Path, lines: int, sha: str) -> dict[str, Any]:
    port = free_port()
    stack = Stack(
        env=env, base_url=f"http://127.0.0.1:{port}", log_dir=Path(env["HEADROOM_DATA_DIR"])
    )
    stack.headroom("migrate")
    stack.start_api(port)
    worker = stack.start_worker()
    try:
        token = stack.token_for(f"bench-{kind}@example.com", f"bench-{kind}")
        assert stack.api is not None
        api_cpu, worker_cpu = cpu_s(stack.api.pid), cpu_s(worker.pid)
        cli = run_cli(stack, token, path, Path(env["HEADROOM_DATA_DIR"]) / "cache")
        api_upload_s, worker_upload_s = (
            cpu_s(stack.api.pid) - api_cpu,
            cpu_s(worker.pid) - worker_cpu,
        )
        api_rss = peak_rss_mb(stack.api.pid)
        started = time.perf_counter()
        with stack.client(token) as client:
            job = wait_for_job(client, cli["result"]["job_id"], timeout_s=6 * 3600)
            dataset = client.get(f"/api/v1/datasets/{cli['result']['dataset_id']}").json()
        ingest_s = time.perf_counter() - started
        key, stored = stored_object(env, path.stat().st_size)
        stored_sha = streamed_sha256(stored)
        return {
            "store": kind,
            "size_bytes": path.stat().st_size,
            "lines": lines,
            "upload": {
                "wall_s": cli["wall_s"],
                "cli_cpu_s": cli["cpu_s"],
                "cli_peak_rss_mb": cli["peak_rss_mb"],
                "api_cpu_s": api_upload_s,
                "api_peak_rss_mb": api_rss,
                "worker_cpu_s": worker_upload_s,
            },
            "ingest": {
                "status": job["status"],
                "error": job.get("error_message"),
                "wall_s": ingest_s,
                "worker_cpu_s": cpu_s(worker.pid) - worker_cpu - worker_upload_s,
                "worker_peak_rss_mb": peak_rss_mb(worker.pid),
                "api_peak_rss_mb": peak_rss_mb(stack.api.pid),
                "request_count": dataset.get("request_count"),
            },
            "stored_key": key,
            "stored_equals_source": stored_sha == sha == dataset.get("sha256"),
        }
    finally:
        stack.stop()


def report(run: dict[str, Any]) -> None:
    up, ing = run["upload"], run["ingest"]
    gb = run["size_bytes"] / 1e9
    print(f"\n{run['store']}: {gb:.2f} GB, {run['lines']:,} lines")
    print(
        f"  upload  wall {up['wall_s']:8.1f} s ({gb / up['wall_s'] * 1000:.0f} MB/s)  "
        f"CPU s: cli {up['cli_cpu_s']:.1f}, api {up['api_cpu_s']:.1f}  "
        f"peak RSS MB: cli {up['cli_peak_rss_mb']:.0f}, api {up['api_peak_rss_mb']:.0f}"
    )
    print(
        f"  ingest  wall {ing['wall_s']:8.1f} s  {ing['status']}  "
        f"CPU s: worker {ing['worker_cpu_s']:.1f}  "
        f"peak RSS MB: worker {ing['worker_peak_rss_mb']:.0f}, api {ing['api_peak_rss_mb']:.0f}"
        f"  requests parsed: {ing['request_count']}"
    )
    print(f"  stored object {run['stored_key']} equals the source: {run['stored_equals_source']}")
    if ing["error"]:
        print(f"  error: {ing['error']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gb", type=float, default=30.0, help="size of the log, in GB (10^9)")
    parser.add_argument("--s3", action="store_true", help="also upload to an S3 server (moto)")
    parser.add_argument("--no-file", action="store_true", help="skip the file:// store")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the generated log")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"upload_{args.gb:g}gb.log"
    started = time.perf_counter()
    lines, sha = write_log(path, int(args.gb * 1e9))
    print(f"generated {path.stat().st_size:,} bytes in {time.perf_counter() - started:.0f} s")
    runs = []
    try:
        with postgres_server() as database_url, redis_server() as redis_url:
            stores = [] if args.no_file else ["file"]
            stores += ["s3"] if args.s3 else []
            for kind in stores:
                with (
                    tempfile.TemporaryDirectory(prefix="headroom-bench-", dir=OUT) as tmp,
                    s3_server() if kind == "s3" else contextlib.nullcontext({}) as aws,
                ):
                    os.environ.update(aws)
                    env = stack_env(Path(tmp), database_url, redis_url, **aws_storage(kind))
                    if kind == "s3":
                        import boto3

                        boto3.client("s3").create_bucket(Bucket=BUCKET)
                    runs.append(run_store(kind, env, path, lines, sha))
                    report(runs[-1])
    finally:
        if not args.keep:
            path.unlink(missing_ok=True)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=2))


def aws_storage(kind: str) -> dict[str, str]:
    return {"storage_url": f"s3://{BUCKET}/data"} if kind == "s3" else {}


if __name__ == "__main__":
    main()
