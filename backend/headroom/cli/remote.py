"""`headroom login` and `headroom upload`: the CLI as a client of a Headroom server.

Exit codes: 0 done, 1 the job failed, 2 usage or input errors (and refusals by the server)."""

import json
import sys
import time
from pathlib import Path
from typing import cast

import click
import httpx

from headroom.cli.check import check_command, fail
from headroom.cli.options import Range
from headroom.client import remote
from headroom.client.responses import UploadOptions, UploadResult


class Bar:
    """A one-line progress bar on stderr, only when stderr is a terminal and the command
    was not asked for --json (machine output stays quiet)."""

    def __init__(self, label: str) -> None:
        self.label, self.started = label, time.monotonic()
        self.enabled = sys.stderr.isatty() and not _json_requested()

    def show(self, fraction: float, note: str = "") -> None:
        if not self.enabled:
            return
        filled = int(30 * fraction)
        text = f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {fraction:6.1%} {note}"
        sys.stderr.write(text[:120].ljust(100))
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def _json_requested() -> bool:
    context = click.get_current_context(silent=True)
    return bool(context is not None and context.params.get("as_json"))


@click.command()
@click.option("--url", required=True, help="The Headroom server, e.g. https://headroom.example")
@click.option(
    "--token", required=True, help="An API token (headroom admin create-token, or the UI)"
)
def login(url: str, token: str) -> None:
    """Remember a server and a token for the commands that talk to it."""
    credentials = remote.Credentials(url.rstrip("/"), token)
    try:
        with remote.client(credentials) as http:
            me = remote.checked(http.get("/api/v1/auth/me"))
    except (remote.RemoteError, httpx.HTTPError) as error:
        fail(f"cannot sign in to {url}: {error}")
    path = remote.save_credentials(credentials)
    workspaces = ", ".join(w["name"] for w in me["workspaces"]) or "no workspace"
    click.echo(f"signed in to {credentials.url} as {me['email']} ({workspaces}); saved in {path}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--workspace-id", type=Range(int, 1), default=None, help="Needed when the token sees several."
)
@click.option("--wait", is_flag=True, help="Wait until the log is ingested.")
@click.option("--json", "as_json", is_flag=True, help="Print {dataset_id, job_id, status}.")
@click.option(
    "--chunk-bytes",
    type=Range(int, 1024, 16 * 1024**2, unit="bytes"),
    default=remote.CHUNK_BYTES,
    hidden=True,
)
@click.option("--format", "log_format", default=None, help="A known format name (default: auto).")
@click.option("--log-format", "spec", default=None, help="An Apache LogFormat or nginx log_format.")
@click.option(
    "--zip-members",
    type=click.Choice(["first", "all"]),
    default=None,
    help="Of a .zip: the first member (default) or all members concatenated.",
)
def upload(
    file: Path,
    workspace_id: int | None,
    wait: bool,
    as_json: bool,
    chunk_bytes: int,
    log_format: str | None,
    spec: str | None,
    zip_members: str | None,
) -> None:
    """Upload a log (resumable: run it again after an interruption to continue)."""
    if not file.is_file():
        fail(f"no such file: {file}")
    if log_format not in (None, "auto") and spec is not None:
        fail("give --format or --log-format, not both")
    given = (("format", log_format), ("log_format", spec), ("zip_members", zip_members))
    options = cast(UploadOptions, {k: v for k, v in given if v is not None})
    try:
        with remote.client(remote.load_credentials()) as http:
            result = _upload(http, file, workspace_id, wait, chunk_bytes, options)
    except (remote.RemoteError, httpx.HTTPError) as error:
        fail(str(error))
    _report(result, as_json)
    if result["status"] == "failed":
        sys.exit(1)


def _upload(
    http: httpx.Client,
    file: Path,
    workspace_id: int | None,
    wait: bool,
    chunk_bytes: int,
    options: UploadOptions | None = None,
) -> UploadResult:
    bar = Bar("uploading")
    dataset = remote.upload_file(
        http,
        file,
        workspace_id,
        lambda sent, total: bar.show(sent / max(total, 1)),
        chunk_bytes,
        options,
    )
    bar.done()
    job = dataset.get("job")
    result: UploadResult = {
        "dataset_id": dataset["id"],
        "job_id": None if job is None else job["id"],
        "status": dataset["status"] if job is None else job["status"],
    }
    if wait and job is not None:
        bar = Bar("ingesting")
        final = remote.wait_for_job(
            http, job["id"], lambda j: bar.show(j["progress"], j.get("stage") or "")
        )
        bar.done()
        result["status"] = final["status"]
        result["error_code"] = final.get("error_code")
        result["error_message"] = final.get("error_message")
    return result


def _report(result: UploadResult, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: result.get(k) for k in ("dataset_id", "job_id", "status")}))
        return
    click.echo(f"dataset {result['dataset_id']}: {result['status']}")
    if result.get("error_message"):
        click.echo(f"  {result['error_code']}: {result['error_message']}", err=True)


COMMANDS = (login, upload, check_command)
