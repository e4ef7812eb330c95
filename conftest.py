"""Shared fixtures: throwaway PostgreSQL and Redis, migrated databases, settings, clients."""

import shutil
import sys
import uuid
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).parent / "backend" / "tests"))

from headroom.core import numba_cache
from headroom.core.db import forget_engines
from headroom.core.migrations import upgrade
from headroom.core.settings import Settings
from support.services import (
    Stack,
    free_port,
    postgres_server,
    redis_server,
    s3_server,
    stack_env,
)

numba_cache.configure()  # before any test module loads numba; the stacks' processes inherit it

SAMPLE_LOG = Path(__file__).parent / "data" / "logs" / "apache_combined_elastic.log"
LOG_TAIL_LINES = 80


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """A failed test that ran processes (API, workers) reports the tail of their logs: the
    temporary folder that holds them is gone once the run ends, on CI too."""
    outcome = yield
    report = outcome.get_result()
    tmp_path = getattr(item, "funcargs", {}).get("tmp_path")
    if report.failed and isinstance(tmp_path, Path):
        for log in sorted([*tmp_path.glob("*.log"), *tmp_path.glob("*/*.log")])[:8]:
            lines = log.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:]
            report.sections.append((f"{log.relative_to(tmp_path)}, last lines", "\n".join(lines)))


@pytest.fixture(autouse=True)
def _close_database_connections() -> Iterator[None]:
    """Every test gets its own database; its pooled connections would otherwise stay open for
    the whole run and exhaust the server's max_connections."""
    yield
    forget_engines(close_connections=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def s3_env() -> Iterator[dict[str, str]]:
    with s3_server() as env:
        yield env


@pytest.fixture
def s3_url(s3_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    """A new bucket on the test S3 server, and this process pointed at it (the heavy-call
    pool's processes too: they are started again with these variables)."""
    import boto3

    from headroom.core.heavy_calls import shutdown_pool

    for name, value in s3_env.items():
        monkeypatch.setenv(name, value)
    shutdown_pool()
    bucket = f"t{uuid.uuid4().hex[:16]}"
    boto3.client("s3").create_bucket(Bucket=bucket)
    return f"s3://{bucket}/headroom"


@pytest.fixture(scope="session")
def postgres_template(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated database that each test clones (CREATE DATABASE ... TEMPLATE)."""
    template_url = postgres_url.rsplit("/", 1)[0] + "/headroom_template"
    _admin(postgres_url, "CREATE DATABASE headroom_template")
    upgrade(Settings(data_dir=tmp_path_factory.mktemp("pgtpl"), database_url=template_url))
    from headroom.core.db import get_engine

    get_engine(template_url).dispose()
    return "headroom_template"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sqlitetpl")
    settings = Settings(data_dir=folder)
    upgrade(settings)
    from headroom.core.db import get_engine

    get_engine(settings.resolved_database_url()).dispose()  # checkpoints the WAL into the file
    return folder / "headroom.db"


def _admin(url: str, statement: str) -> None:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(statement))
    engine.dispose()


def fresh_database(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if kind == "sqlite":
        target = tmp_path / "headroom.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), target)
        return f"sqlite:///{target}"
    server_url: str = request.getfixturevalue("postgres_url")
    template = request.getfixturevalue("postgres_template")
    # uuid, not a counter: test modules import this file a second time (importlib mode)
    name = f"t{uuid.uuid4().hex[:16]}"
    _admin(server_url, f"CREATE DATABASE {name} TEMPLATE {template}")
    return server_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database(request.param, request, tmp_path)


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path, database_url=database_url, static_dir=tmp_path / "no-ui", job_lease_s=5.0
    )


@pytest.fixture
def sample_log() -> Path:
    return SAMPLE_LOG


def production_stack(request: pytest.FixtureRequest, tmp_path: Path, **extra: str) -> Stack:
    """The API (no worker yet) on PostgreSQL + Redis, with short leases for the tests."""
    database_url = fresh_database("postgresql", request, tmp_path)
    settings = {
        "job_lease_s": "5",
        "reaper_interval_s": "1",
        "ingest_chunk_bytes": str(256 * 1024),
        "static_dir": str(tmp_path / "no-ui"),
    }
    env = stack_env(
        tmp_path, database_url, request.getfixturevalue("redis_url"), **{**settings, **extra}
    )
    port = free_port()
    running = Stack(env=env, base_url=f"http://127.0.0.1:{port}", log_dir=tmp_path)
    running.start_api(port)
    return running


@pytest.fixture
def make_stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    """A factory of production stacks with extra HEADROOM_* settings; stopped afterwards."""
    started: list[Stack] = []

    def make(**extra: str) -> Stack:
        started.append(production_stack(request, tmp_path, **extra))
        return started[-1]

    yield make
    for running in started:
        running.stop()
    shutil.rmtree(tmp_path / "storage", ignore_errors=True)  # large uploads


@pytest.fixture
def stack(make_stack: Callable[..., Stack]) -> Stack:
    return make_stack()
