"""Soak: uploads (one-shot and resumable, some deleted during their ingest), capacity
analyses, simulations (some of them sweeps) and reads mixed for HEADROOM_SOAK_S seconds
(default 150) against real PostgreSQL, Redis, API and two worker processes, while a worker
is SIGKILLed and replaced every minute and Redis is killed and restarted once. It ends with
every job succeeded or failed with a reason, no stored object that no row owns (the
janitor's notion, reached by the workers' own periodic janitor) and no 5xx answer seen by
any client."""

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from simulations.scenarios import mm1
from sqlalchemy import create_engine, text

from headroom.core.db import session_scope
from headroom.core.storage import open_store
from headroom.jobs import janitor
from support.restartable_redis import Redis, running_redis
from support.services import Stack, wait_for_job

pytestmark = pytest.mark.faults

SOAK_S = float(os.environ.get("HEADROOM_SOAK_S", "150"))
KILL_EVERY_S = min(60.0, SOAK_S / 2)
REDIS_DOWN_S = 5.0
CLIENT_TIMEOUT_S = 120.0  # a request not answered by then counts as a failure
# an upload's staging object is its request's until registered: the grace outlasts any request
# (on a loaded machine, 20 s was not enough between the last byte written and its registration)
JANITOR = {"janitor_interval_s": "5", "janitor_grace_s": str(int(CLIENT_TIMEOUT_S))}
DRAIN_S = 240.0  # for the jobs left at the end, on a loaded machine
CLEAN_S = CLIENT_TIMEOUT_S + 90.0  # for the workers' janitor: grace + a few intervals, with room


@dataclass
class Seen:
    """What the clients saw, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)  # 5xx and dropped connections
    datasets: list[int] = field(default_factory=list)  # uploaded and kept
    created: Counter[str] = field(default_factory=Counter)  # jobs created, by kind

    def call(
        self, client: httpx.Client, method: str, url: str, **kwargs: object
    ) -> httpx.Response | None:
        for _ in range(20):  # a 429 is waited out; anything else is the answer
            try:
                response = client.request(method, url, **kwargs)  # type: ignore[arg-type]
            except httpx.TransportError as error:
                self._error(f"{method} {url}: {type(error).__name__}: {error}")
                return None
            route = f"{method} {_route(url)}"
            with self.lock:
                self.statuses[f"{route} {response.status_code}"] += 1
            if response.status_code >= 500:
                self._error(f"{route}: {response.status_code} {response.text[:300]}")
            if response.status_code != 429:
                return response
            time.sleep(float(response.headers.get("Retry-After", "1")))
        return None

    def _error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


def _route(url: str) -> str:
    return "/".join(
        "{id}" if part.isdigit() or len(part) == 32 else part for part in url.split("/")
    )


@pytest.fixture
def redis() -> Iterator[Redis]:
    with running_redis() as server:
        yield server


@pytest.fixture
def redis_url(redis: Redis) -> str:  # the stack's broker is this test's own Redis
    return redis.url


def log_bytes(seed: int) -> bytes:
    """A distinct log with response times (about 1 MB), so every upload is a new dataset."""
    return combined_latency_lines(mm1_table(segment_s=20.0, seed=seed))


def uploader(seen: Seen, client: httpx.Client, stop: threading.Event, seed: int) -> None:
    while not stop.is_set():
        seed += 1
        data = log_bytes(seed)
        if seed % 2:
            created = seen.call(
                client, "POST", "/api/v1/datasets", files={"file": (f"{seed}.log", data)}
            )
        else:
            created = resumable(seen, client, data, f"{seed}.log")
        if created is None or created.status_code not in (200, 202):
            continue
        seen.created["ingest"] += 1
        dataset_id = created.json()["id"]
        if seed % 5 == 0:  # deleted while its ingest is queued or running
            seen.call(client, "DELETE", f"/api/v1/datasets/{dataset_id}")
        else:
            with seen.lock:
                seen.datasets.append(dataset_id)
        stop.wait(2.0)


def resumable(seen: Seen, client: httpx.Client, data: bytes, name: str) -> httpx.Response | None:
    body = {"name": name, "size_bytes": len(data)}
    created = seen.call(client, "POST", "/api/v1/uploads", json=body)
    if created is None or created.status_code != 201:
        return None
    upload = f"/api/v1/uploads/{created.json()['id']}"
    half = len(data) // 2
    for offset, chunk in ((0, data[:half]), (half, data[half:])):
        put = seen.call(client, "PUT", f"{upload}/chunks", params={"offset": offset}, content=chunk)
        if put is None or put.status_code != 200:
            return None
    return seen.call(client, "POST", f"{upload}/complete")


def analyst(seen: Seen, client: httpx.Client, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.wait(1.5):
        with seen.lock:
            candidates = list(seen.datasets)
        if not candidates:
            continue
        url = f"/api/v1/datasets/{rng.choice(candidates)}/analyses"
        created = seen.call(client, "POST", url, json={"percentile": rng.randint(50, 99)})
        if created is not None and created.status_code == 202:
            seen.created["capacity"] += 1


def simulator(seen: Seen, client: httpx.Client, stop: threading.Event, seed: int) -> None:
    while not stop.wait(2.0):
        seed += 1
        scenario = {**mm1(duration_s=2000.0), "seed": seed}
        body: dict[str, object] = {"name": f"sim {seed}", "scenario": scenario}
        if seed % 3 == 0:
            body["sweep"] = {"path": "workload.arrivals.rate_per_s", "values": [0.5, 0.7, 0.9]}
        created = seen.call(client, "POST", "/api/v1/simulations", json=body)
        if created is not None and created.status_code == 202:
            seen.created["simulation"] += 1


def reader(seen: Seen, client: httpx.Client, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.wait(0.2):
        listed = seen.call(client, "GET", "/api/v1/datasets")
        items = listed.json()["items"] if listed is not None and listed.status_code == 200 else []
        if items:
            dataset = rng.choice(items)
            seen.call(client, "GET", f"/api/v1/datasets/{dataset['id']}/summary")
            if dataset.get("job"):
                seen.call(client, "GET", f"/api/v1/jobs/{dataset['job']['id']}")
        seen.call(client, "GET", "/api/v1/simulations")


def chaos(stack: Stack, redis: Redis, began: float) -> None:
    """A worker SIGKILLed and replaced every KILL_EVERY_S; Redis down once, between kills."""
    events = [(KILL_EVERY_S * k, "kill") for k in range(1, int(SOAK_S / KILL_EVERY_S) + 1)]
    events = [e for e in events if e[0] < SOAK_S] + [(1.5 * KILL_EVERY_S, "redis")]
    for at_s, what in sorted(events):
        time.sleep(max(began + at_s - time.monotonic(), 0.0))
        if what == "kill":
            alive = [w for w in stack.workers if w.poll() is None]
            stack.kill_worker(alive[0])  # the older of the two
            stack.start_worker()
            print(f"{at_s:.0f} s: worker killed and replaced")
        else:
            redis.kill()
            time.sleep(REDIS_DOWN_S)
            redis.start()
            print(f"{at_s:.0f} s: Redis killed and restarted")


def unfinished_jobs(database_url: str) -> list[tuple[int, str, str]]:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id, kind, status FROM job WHERE status IN ('queued', 'running')")
        ).all()
    engine.dispose()
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def wait_until(done: Callable[[], bool], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not done():
        time.sleep(1.0)


def orphans(stack: Stack) -> list[str]:
    store = open_store(stack.env["HEADROOM_STORAGE_URL"])
    keys = [key for prefix in janitor.PREFIXES for key in store.list(prefix)]
    with session_scope(stack.env["HEADROOM_DATABASE_URL"]) as session:
        who = janitor.owners(session)
    return [key for key in keys if not janitor.owned(key, who)]


def warm_up(stack: Stack) -> None:
    """One upload ingested and analysed before the clock starts: the first sniff and parse
    of a process compile the parser (minutes on a cold numba cache, not what is measured)."""
    client = stack.client(stack.token_for("warm@example.com", "Warm"))
    created = client.post("/api/v1/datasets", files={"file": ("warm.log", log_bytes(0))})
    assert created.status_code == 202, created.text
    assert wait_for_job(client, created.json()["job"]["id"], 600)["status"] == "succeeded"
    analysis = client.post(f"/api/v1/datasets/{created.json()['id']}/analyses", json={})
    assert analysis.status_code == 202, analysis.text
    assert wait_for_job(client, analysis.json()["job"]["id"], 600)["status"] == "succeeded"


@pytest.mark.timeout(SOAK_S + 1200)
def test_soak_with_worker_kills_and_a_broker_restart(
    redis: Redis, make_stack: Callable[..., Stack]
) -> None:
    stack = make_stack(**JANITOR)
    stack.start_worker()
    stack.start_worker()
    warm_up(stack)
    seen, stop = Seen(), threading.Event()
    roles = [uploader, uploader, analyst, simulator, reader, reader]
    threads = []
    for index, role in enumerate(roles):
        client = stack.client(stack.token_for(f"soak{index}@example.com", "Soak"))
        client.timeout = httpx.Timeout(CLIENT_TIMEOUT_S)
        threads.append(threading.Thread(target=role, args=(seen, client, stop, 1000 * index)))
    began = time.monotonic()
    for thread in threads:
        thread.start()
    chaos(stack, redis, began)
    time.sleep(max(began + SOAK_S - time.monotonic(), 0.0))
    stop.set()
    for thread in threads:
        thread.join(120)
    database_url = stack.env["HEADROOM_DATABASE_URL"]
    wait_until(lambda: not unfinished_jobs(database_url), DRAIN_S)
    wait_until(lambda: not orphans(stack), CLEAN_S)

    print(f"jobs created: {dict(seen.created)}")
    print("answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(seen.statuses.items())))
    assert not seen.errors, "\n".join(seen.errors[:20])
    assert not unfinished_jobs(database_url)
    assert all(seen.created[kind] for kind in ("ingest", "capacity", "simulation")), seen.created
    engine = create_engine(database_url)
    with engine.connect() as connection:
        failed = connection.execute(
            text("SELECT id, kind, error_code, error_message FROM job WHERE status = 'failed'")
        ).all()
        outcomes = dict(
            connection.execute(text("SELECT status, count(*) FROM job GROUP BY status")).all()
        )
    engine.dispose()
    print(f"job outcomes: {outcomes}")
    for job_id, kind, code, message in failed:
        assert code and message and code != "internal_error", (job_id, kind, code, message)
    assert not orphans(stack)
