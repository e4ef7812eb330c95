"""A small client of the Headroom REST API for pipelines: credentials, resumable uploads
(chunk by chunk, each with its SHA-256, resuming where the server says), and job polling."""

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import httpx

from headroom.client.responses import DatasetJson, JobJson, UploadJson, UploadOptions

CHUNK_BYTES = 8 * 1024**2
TIMEOUT_S = 120.0
RETRIES = 6
RATE_LIMIT_ATTEMPTS = 5  # requests sent in all when the server keeps answering 429
RATE_LIMIT_WAIT_S = 120.0  # the most time spent waiting on 429s for one request


class RemoteError(Exception):
    """The server refused (4xx) or could not be reached; the message says which."""


@dataclass(frozen=True)
class Credentials:
    url: str
    token: str


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "headroom"


def state_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "headroom" / "uploads"


def save_credentials(credentials: Credentials) -> Path:
    path = config_dir() / "credentials.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_text(json.dumps({"url": credentials.url, "token": credentials.token}))
    return path


def load_credentials() -> Credentials:
    """HEADROOM_URL / HEADROOM_TOKEN win over the file written by `headroom login`."""
    stored: dict[str, str] = {}
    path = config_dir() / "credentials.json"
    if path.is_file():
        stored = json.loads(path.read_text())
    url = os.environ.get("HEADROOM_URL") or stored.get("url")
    token = os.environ.get("HEADROOM_TOKEN") or stored.get("token")
    if not url or not token:
        raise RemoteError(
            "not signed in: run `headroom login --url URL --token TOKEN` "
            "or set HEADROOM_URL and HEADROOM_TOKEN"
        )
    return Credentials(url.rstrip("/"), token)


def retry_after_s(value: str | None, attempt: int, now: datetime | None = None) -> float:
    """Seconds to wait from a Retry-After header (delta seconds or an HTTP date); without a
    usable one, exponential backoff (1, 2, 4 ... s)."""
    fallback = float(min(2**attempt, 30))
    if not value:
        return fallback
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return fallback
    if when.tzinfo is None:
        return fallback
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _to_stderr(message: str) -> None:
    sys.stderr.write(f"headroom: {message}\n")
    sys.stderr.flush()


class RateLimitRetry(httpx.BaseTransport):
    """Resends a request the server refused with 429, after the wait its Retry-After asks
    for, at most `attempts` times in all and `max_wait_s` of waiting; says so on stderr.
    The last 429 is returned as is when the bounds are reached (or the server asks for a
    wait beyond them)."""

    def __init__(
        self,
        inner: httpx.BaseTransport,
        attempts: int = RATE_LIMIT_ATTEMPTS,
        max_wait_s: float = RATE_LIMIT_WAIT_S,
        sleep: Callable[[float], None] = time.sleep,
        notify: Callable[[str], None] = _to_stderr,
    ) -> None:
        self.inner, self.attempts, self.max_wait_s = inner, attempts, max_wait_s
        self.sleep, self.notify = sleep, notify

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        waited = 0.0
        for attempt in range(1, self.attempts + 1):
            response = self.inner.handle_request(request)
            if response.status_code != 429 or attempt == self.attempts:
                return response
            wait = retry_after_s(response.headers.get("Retry-After"), attempt - 1)
            if waited + wait > self.max_wait_s:
                return response
            response.read()
            response.close()
            self.notify(
                f"rate limited by the server (HTTP 429) on {request.method} {request.url.path}; "
                f"retrying in {wait:g} s (attempt {attempt + 1} of {self.attempts})"
            )
            self.sleep(wait)
            waited += wait
        raise AssertionError("unreachable: the last attempt returns")

    def close(self) -> None:
        self.inner.close()


def client(credentials: Credentials, transport: httpx.BaseTransport | None = None) -> httpx.Client:
    return httpx.Client(
        base_url=credentials.url,
        timeout=TIMEOUT_S,
        headers={"Authorization": f"Bearer {credentials.token}"},
        transport=RateLimitRetry(transport or httpx.HTTPTransport()),
    )


def checked(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        try:
            error = response.json()["error"]
            message = f"{error['message']} ({error['code']})"
            if (error.get("detail") or {}).get("line"):
                message += f"\n  line {error['detail']['line_number']}: {error['detail']['line']}"
        except (ValueError, KeyError, TypeError):
            message = f"HTTP {response.status_code}: {response.text[:200]}"
        if response.status_code == 429:
            after = (response.headers.get("Retry-After") or "").strip()
            when = f"in {after} s" if after.isdigit() else "later"
            message += f"; still rate limited after retrying: try again {when}"
        raise RemoteError(message)
    return response.json() if response.content else None


Progress = Callable[[int, int], None]


# Datasets, uploads and jobs are read as the server's JSON (their domains' documents).
def upload_file(
    http: httpx.Client,
    path: Path,
    workspace_id: int | None,
    progress: Progress,
    chunk_bytes: int = CHUNK_BYTES,
    options: UploadOptions | None = None,
) -> DatasetJson:
    """Upload (or resume uploading) a file; returns the dataset. `options`: the upload's
    parse options (format, log_format, zip_members), sent when the upload starts."""
    size = path.stat().st_size
    state = _state_file(http, path)
    upload = _resume(http, state) or _start(http, path, size, workspace_id, state, options)
    offset = int(upload["offset_bytes"])
    with open(path, "rb") as handle:
        while offset < size:
            progress(offset, size)
            handle.seek(offset)
            offset = _send_chunk(http, upload["id"], offset, handle.read(chunk_bytes))
    progress(size, size)
    dataset: DatasetJson = checked(
        http.post(f"/api/v1/uploads/{upload['id']}/complete", timeout=TIMEOUT_S)
    )
    state.unlink(missing_ok=True)
    return dataset


def _state_file(http: httpx.Client, path: Path) -> Path:
    stat = path.stat()
    identity = f"{http.base_url}|{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    return state_dir() / f"{hashlib.sha256(identity.encode()).hexdigest()[:32]}.json"


def _resume(http: httpx.Client, state: Path) -> UploadJson | None:
    if not state.is_file():
        return None
    upload_id = json.loads(state.read_text())["upload_id"]
    response = http.get(f"/api/v1/uploads/{upload_id}")
    return response.json() if response.status_code == 200 else None


def _start(
    http: httpx.Client,
    path: Path,
    size: int,
    workspace_id: int | None,
    state: Path,
    options: UploadOptions | None = None,
) -> UploadJson:
    body = {"name": path.name, "size_bytes": size, "workspace_id": workspace_id, **(options or {})}
    upload: UploadJson = checked(http.post("/api/v1/uploads", json=body))
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({"upload_id": upload["id"]}))
    return upload


def _send_chunk(http: httpx.Client, upload_id: str, offset: int, chunk: bytes) -> int:
    """Sends one chunk, retrying with backoff; returns the server's new offset."""
    headers = {
        "X-Chunk-SHA256": hashlib.sha256(chunk).hexdigest(),
        "Content-Type": "application/octet-stream",
    }
    for attempt in range(RETRIES):
        try:
            response = http.put(
                f"/api/v1/uploads/{upload_id}/chunks",
                params={"offset": offset},
                content=chunk,
                headers=headers,
            )
        except httpx.TransportError:
            time.sleep(min(2**attempt, 30))
            continue
        if response.status_code == 409:  # the server has more (or less): go by its offset
            return int(response.json()["error"]["detail"]["offset_bytes"])
        if response.status_code >= 500:
            time.sleep(min(2**attempt, 30))
            continue
        return int(checked(response)["offset_bytes"])
    raise RemoteError(
        f"the server stayed unreachable after {RETRIES} attempts; "
        "run the same command again to resume"
    )


def wait_for_job(
    http: httpx.Client,
    job_id: int,
    on_update: Callable[[JobJson], None],
    poll_s: float = 1.0,
) -> JobJson:
    while True:
        job: JobJson = checked(http.get(f"/api/v1/jobs/{job_id}"))
        on_update(job)
        if job["status"] in ("succeeded", "failed", "cancelled"):
            return job
        time.sleep(poll_s)


def find_dataset(http: httpx.Client, ref: str) -> DatasetJson:
    """A dataset by id, or the newest one with that name; waits until it is ingested."""
    if ref.isdigit():
        response = http.get(f"/api/v1/datasets/{ref}")
        if response.status_code == 404:
            raise RemoteError(f"no dataset {ref} (or not visible to this token)")
        dataset: DatasetJson = checked(response)
    else:
        page = checked(http.get("/api/v1/datasets", params={"limit": 200}))
        named = [d for d in page["items"] if d["name"] == ref]
        if not named:
            raise RemoteError(f"no dataset named {ref!r}")
        dataset = max(named, key=lambda d: (d["created_at"], d["id"]))
    return _ready(http, dataset)


def _ready(http: httpx.Client, dataset: DatasetJson) -> DatasetJson:
    job = dataset.get("job")
    if dataset["status"] in ("uploaded", "processing") and job is not None:
        wait_for_job(http, job["id"], lambda _: None)
        dataset = checked(http.get(f"/api/v1/datasets/{dataset['id']}"))
    if dataset["status"] != "ready":
        final = dataset.get("job")
        reason = (final and final.get("error_message")) or dataset["status"]
        raise RemoteError(f"dataset {dataset['id']} ({dataset['name']}) is not usable: {reason}")
    return dataset


def p95_s(http: httpx.Client, dataset: DatasetJson, request_class: str | None) -> float:
    """The dataset's p95 response time: overall from its summary, or of one request class
    from its workload characterization (default rules; created when missing)."""
    label = f"dataset {dataset['id']} ({dataset['name']})"
    if request_class is None:
        latency = checked(http.get(f"/api/v1/datasets/{dataset['id']}/summary"))["latency"]
        if latency is None:
            raise RemoteError(f"{label} records no response times: there is no p95 to check")
        return float(latency["p95_s"])
    from headroom.characterizations.documents import (
        CharacterizationDoc,  # the model's schema: numpy
    )

    result = CharacterizationDoc.model_validate(_finished(http, dataset["id"], "characterizations"))
    by_class = result.latency_by_class
    if request_class not in by_class:
        known = ", ".join(sorted(by_class)) or "none with response times"
        raise RemoteError(f"{label} has no request class {request_class!r} (classes: {known})")
    return float(by_class[request_class].p95_s or 0.0)


def knee_per_s(
    http: httpx.Client, dataset: DatasetJson, request_class: str | None
) -> tuple[float | None, list[str]]:
    """The load at the knee of the latency curve (default capacity analysis), if any, and
    the classes that analysis has (a class missing from it has no knee either)."""
    from headroom.analyses.documents import CapacityReportDoc

    classes = CapacityReportDoc.model_validate(_finished(http, dataset["id"], "analyses")).classes
    report = classes.get(request_class or "all")
    knee = None if report is None else report.knee
    return (None if knee is None else float(knee.load_per_s)), sorted(classes)


def _finished(http: httpx.Client, dataset_id: int, kind: str) -> object:
    """The result of the dataset's default-parameter `kind` ("analyses" or
    "characterizations"): asks for it (the server answers with the existing one when there
    is one), waits for its job, then reads it."""
    item = checked(http.post(f"/api/v1/datasets/{dataset_id}/{kind}", json={}))
    job = item.get("job") or {}
    if job.get("id") is not None and job.get("status") not in ("succeeded",):
        final = wait_for_job(http, job["id"], lambda _: None)
        if final["status"] != "succeeded":
            message = final.get("error_message") or final["status"]
            raise RemoteError(f"{message} ({final.get('error_code')})")
    result: object = checked(http.get(f"/api/v1/{kind}/{item['id']}"))["result"]
    if result is None:
        raise RemoteError(f"{kind} {item['id']} has no result")
    return result
