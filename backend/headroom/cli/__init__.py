"""The `headroom` command: serve the API, run a worker, migrate, seed the demo, admin."""

import copy
import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from headroom.cli.options import Range

if TYPE_CHECKING:
    from headroom.core.settings import Settings

DEMO_EMAIL = "demo@headroom.local"
DEMO_PASSWORD = "demo-password"

# Commands defined in other modules, imported only when run (or listed): `headroom parse`
# then starts without the settings, the HTTP client or the other commands' modules.
LAZY_COMMANDS = {
    "analyze": "headroom.cli.analysis:analyze_command",
    "sct": "headroom.cli.analysis:sct_command",
    "partition": "headroom.cli.analysis:partition_command",
    "login": "headroom.cli.remote:login",
    "upload": "headroom.cli.remote:upload",
    "check": "headroom.cli.check:check_command",
    "parse": "headroom.cli.workload:parse_command",
    "characterize": "headroom.cli.workload:characterize_command",
    "simulate": "headroom.cli.simulate:simulate_command",
    "scenario-from-model": "headroom.cli.simulate:scenario_from_model_command",
    "report": "headroom.cli.reports:report",
    "background": "headroom.cli.background:background_command",
    "export": "headroom.cli.export:export_command",
    "forecast": "headroom.cli.forecast:forecast_command",
    "import": "headroom.cli.sources:import_group",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in LAZY_COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, name = LAZY_COMMANDS[cmd_name].split(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        return command


def get_settings() -> "Settings":
    from headroom.core.settings import get_settings as settings

    return settings()


@click.group(cls=LazyGroup)
def main() -> None:
    """Headroom: capacity planning and SLA setting from web access logs."""
    from headroom.core import numba_cache

    numba_cache.configure()


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=Range(int, 1, 65_535))
@click.option("--with-worker", is_flag=True, help="Also start one Celery worker (embedded mode).")
@click.option(
    "--workers",
    type=Range(int, 1),
    default=None,
    help="API processes (default: one per core on PostgreSQL with Redis, else 1).",
)
def serve(host: str, port: int, with_worker: bool, workers: int | None) -> None:
    """Serve the API and the built UI."""
    import uvicorn

    processes = _api_processes(workers)
    worker = _spawn_worker() if with_worker else None
    try:
        uvicorn.run(
            "headroom.api.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=processes,
            log_config=_log_config(),
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        )
    finally:
        if worker is not None:
            _stop(worker)


# uvicorn kills an API process that does not answer its supervisor's ping in time (5 s by
# default): on a saturated machine that is a busy process, and its requests would be reset.
WORKER_HEALTHCHECK_S = 60


def _api_processes(requested: int | None) -> int:
    """Several processes need counters they share (Redis) and a database that many
    processes write well: SQLite serialises every write, so it is served by one."""
    settings = get_settings()
    sqlite = settings.resolved_database_url().startswith("sqlite")
    if requested is None:
        return 1 if sqlite or not settings.counters_url() else os.cpu_count() or 1
    if requested > 1 and sqlite:
        raise click.UsageError("--workers above 1 needs PostgreSQL (HEADROOM_DATABASE_URL)")
    if requested > 1 and not settings.counters_url():
        raise click.UsageError(
            "--workers above 1 needs Redis for the counters the processes share"
            " (a redis:// HEADROOM_BROKER_URL or HEADROOM_RATE_LIMIT_REDIS_URL)"
        )
    return requested


def _log_config() -> dict[str, object]:
    """uvicorn's logging, plus the application's records (to stderr) in every process."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["headroom"] = {"format": LOG_FORMAT}
    config["handlers"]["headroom"] = {"class": "logging.StreamHandler", "formatter": "headroom"}
    config["root"] = {"handlers": ["headroom"], "level": "INFO"}
    return config


def _spawn_worker() -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "headroom.cli", "worker", "--concurrency", "1", "--beat"]
    return subprocess.Popen(command, preexec_fn=_die_with_parent)


def _die_with_parent() -> None:
    """The embedded worker dies with `serve`, even when that is killed (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@main.command()
@click.option("--concurrency", default=2, show_default=True, type=Range(int, 1))
@click.option("--loglevel", default="INFO", show_default=True)
@click.option("--hostname", default=None, help="Celery node name (default: worker@host.pid).")
@click.option(
    "--beat", is_flag=True, help="Also run the schedule (source refreshes); in one worker only."
)
def worker(concurrency: int, loglevel: str, hostname: str | None, beat: bool) -> None:
    """Run a Celery worker that executes ingest and analysis jobs."""
    from headroom_worker.app import app

    node = hostname or f"worker{os.getpid()}@%h"
    schedule = get_settings().data_dir / "celerybeat-schedule"
    app.worker_main(
        [
            "worker",
            f"--concurrency={concurrency}",
            f"--loglevel={loglevel}",
            f"--hostname={node}",
            "--without-gossip",
            "--without-mingle",
            *(["--beat", f"--schedule={schedule}"] if beat else []),
        ]
    )


@main.command()
def migrate() -> None:
    """Upgrade the database schema to the latest version (Alembic)."""
    from headroom.core.migrations import upgrade

    upgrade(get_settings())
    click.echo("database is up to date")


@main.command()
def openapi() -> None:
    """Print the OpenAPI schema (JSON)."""
    from headroom.api.app import create_app

    click.echo(json.dumps(create_app().openapi(), indent=2, sort_keys=True))


@main.command()
@click.option("--email", default=DEMO_EMAIL, show_default=True)
@click.option("--password", default=DEMO_PASSWORD, show_default=True)
@click.option(
    "--sample",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Log to ingest into the demo workspace.",
)
def demo(email: str, password: str, sample: Path | None) -> None:
    """Create the demo account and workspace, with a sample log analysed."""
    from headroom.demo.seed import seed_demo

    dataset_name = seed_demo(get_settings(), email, password, sample)
    click.echo(f"demo workspace ready: sign in as {email} / {password} ({dataset_name})")


@main.group()
def admin() -> None:
    """Operator commands that act directly on the configured database."""


@admin.command("create-user")
@click.argument("email")
@click.option("--password-stdin", is_flag=True, required=True, help="Read the password from stdin.")
@click.option("--workspace", default=None, help="Add the user to this workspace (created if new).")
@click.option(
    "--role", type=click.Choice(["owner", "editor", "viewer"]), default="owner", show_default=True
)
def create_user(email: str, password_stdin: bool, workspace: str | None, role: str) -> None:
    """Create a user (and optionally a workspace membership)."""
    from headroom.admin import create_user as create

    password = sys.stdin.readline().rstrip("\n")
    if not password:
        raise click.UsageError("an empty password was given on stdin")
    create(get_settings(), email, password, workspace, role)
    click.echo(f"created {email}")


@admin.command("create-token")
@click.argument("email")
@click.option("--workspace", required=True)
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    type=click.Choice(["read", "write", "admin"]),
    default=("write",),
    show_default=True,
)
@click.option("--expires-days", type=Range(int, 1, unit="days"), default=None)
@click.option("--json", "as_json", is_flag=True)
def create_token(
    email: str, workspace: str, scopes: tuple[str, ...], expires_days: int | None, as_json: bool
) -> None:
    """Create an API token for a user in a workspace; printed once."""
    from headroom.admin import create_token as create

    token = create(get_settings(), email, workspace, list(scopes), expires_days)
    click.echo(json.dumps({"token": token}) if as_json else token)


@admin.command("janitor")
@click.option(
    "--grace-s",
    type=Range(float, 0, unit="seconds"),
    default=None,
    help="Keep objects changed this recently (default: HEADROOM_JANITOR_GRACE_S).",
)
def janitor(grace_s: float | None) -> None:
    """Remove stored objects no row owns (orphaned Parquet parts, stale staging files, the
    parts of uploads whose row is gone)."""
    from headroom.jobs.janitor import sweep

    done = sweep(get_settings(), grace_s)
    click.echo(
        f"removed {len(done.removed_keys)} objects ({done.removed_bytes} bytes), "
        f"aborted the parts of {len(done.aborted_parts_keys)} unfinished uploads"
    )


if __name__ == "__main__":
    main()
