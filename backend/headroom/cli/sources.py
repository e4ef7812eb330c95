"""`headroom import prometheus URL ...`: read a Prometheus server's request counter and
latency histogram over a range and print the summary (docs/sources.md).

Exit codes: 0 done, 2 usage errors and anything the server refused or could not answer."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

import click

from headroom.cli.check import fail
from headroom.cli.options import Range
from headroom.cli.remote import Bar

if TYPE_CHECKING:
    from headroom.sources.documents import ClassJson, RangeSummaryJson

UNITS_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class AuthJson(TypedDict):  # sources.schemas.PrometheusSourceIn's credentials
    auth: Literal["bearer", "basic", "none"]
    username: NotRequired[str]
    secret: NotRequired[str]


class SourceJson(AuthJson):  # sources.schemas.PrometheusSourceIn, as the CLI sends it
    name: str
    base_url: str
    requests_selector: str
    latency_selector: str | None
    class_label: str | None
    error_label: str | None
    error_pattern: str
    step_s: float
    window_s: float
    refresh: bool


def when(text: str) -> datetime:
    """ISO 8601 (UTC unless it says otherwise), ``now``, or ``now-<n><s|m|h|d>``."""
    relative = re.fullmatch(r"now(?:-(\d+(?:\.\d+)?)([smhd]))?", text.strip())
    if relative:
        ago = float(relative[1] or 0) * UNITS_S[relative[2] or "s"]
        return datetime.now(UTC) - timedelta(seconds=ago)
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not an ISO 8601 time, now or now-1h") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@click.group("import")
def import_group() -> None:
    """Read data from a system that already has it (Prometheus)."""


@import_group.command("prometheus")
@click.argument("url")
@click.option("--requests", "requests", required=True, help="The request counter's selector.")
@click.option("--latency-histogram", default=None, help="The latency histogram's _bucket selector.")
@click.option("--start", required=True, help="ISO 8601, now or now-<n><s|m|h|d>.")
@click.option("--end", default="now", show_default=True, help="As --start.")
@click.option(
    "--step", "step_s", type=Range(float, 1, unit="seconds"), default=60.0, show_default=True
)
@click.option("--class-label", default=None, help="Split classes by this label (e.g. route).")
@click.option("--error-label", default="code", show_default=True, help="Label of the status.")
@click.option("--error-pattern", default="5..", show_default=True, help="Its values that fail.")
@click.option("--bearer-token", envvar="HEADROOM_PROMETHEUS_TOKEN", default=None)
@click.option("--user", envvar="HEADROOM_PROMETHEUS_USER", default=None, help="Basic auth.")
@click.option("--password", envvar="HEADROOM_PROMETHEUS_PASSWORD", default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--dataset",
    default=None,
    help="On the signed-in server: create or refresh the source and live dataset of this name "
    "(the server reads Prometheus itself, over a window as long as --start to --end).",
)
@click.option("--workspace-id", type=Range(int, 1), default=None, help="With --dataset.")
def prometheus_command(
    url: str,
    requests: str,
    latency_histogram: str | None,
    start: str,
    end: str,
    step_s: float,
    class_label: str | None,
    error_label: str,
    error_pattern: str,
    bearer_token: str | None,
    user: str | None,
    password: str | None,
    as_json: bool,
    dataset: str | None,
    workspace_id: int | None,
) -> None:
    """Summarise a Prometheus request counter and latency histogram over a range."""
    from headroom.engine.prometheus import Split, summarize
    from headroom.sources import prometheus_client as prom
    from headroom.sources.documents import summary_document

    query = prom.Query(
        requests,
        latency_histogram,
        when(start),
        when(end),
        step_s,
        Split(class_label, error_label or None, error_pattern),
    )
    bar = Bar("reading")
    try:
        with prom.client(url, prom.Auth(bearer_token, user, password)) as http:
            series = prom.read(http, query, bar.show)
    except prom.PrometheusError as error:
        fail(str(error))
    finally:
        bar.done()
    document = summary_document(summarize(series))
    if dataset is not None:
        source: SourceJson = {
            "name": dataset,
            "base_url": url,
            "requests_selector": requests,
            "latency_selector": latency_histogram,
            "class_label": class_label,
            "error_label": error_label or None,
            "error_pattern": error_pattern,
            "step_s": step_s,
            "window_s": max((query.end - query.start).total_seconds(), 60.0),
            # refreshed by the schedule when the range ends now (a rolling window)
            "refresh": abs((datetime.now(UTC) - query.end).total_seconds()) < 300,
            **_auth(bearer_token, user, password),
        }
        span = {"start": query.start.isoformat(), "end": query.end.isoformat()}
        document["dataset_id"] = _on_server(source, span, workspace_id)
    click.echo(json.dumps(document) if as_json else _text(document))


def _auth(bearer_token: str | None, user: str | None, password: str | None) -> AuthJson:
    if bearer_token:
        return {"auth": "bearer", "secret": bearer_token}
    if user:
        return {"auth": "basic", "username": user, "secret": password or ""}
    return {"auth": "none"}


def _on_server(source: SourceJson, span: dict[str, str], workspace_id: int | None) -> int:
    """Creates the source named so (or updates it), imports now and waits for the import;
    returns its dataset's id."""
    import httpx

    from headroom.client import remote

    base = "/api/v1/sources/prometheus"
    try:
        with remote.client(remote.load_credentials()) as http:
            named = [s for s in remote.checked(http.get(base)) if s["name"] == source["name"]]
            if named:
                found = remote.checked(http.patch(f"{base}/{named[0]['id']}", json=source))
            else:
                body = {**source, "workspace_id": workspace_id}
                found = remote.checked(http.post(base, json=body))
            started = remote.checked(http.post(f"{base}/{found['id']}/import", json=span))
            job = remote.wait_for_job(http, started["job"]["id"], lambda _: None)
    except (remote.RemoteError, httpx.HTTPError) as error:
        fail(str(error))
    if job["status"] != "succeeded":
        fail(f"the server's import failed: {job.get('error_message') or job['status']}")
    return int(started["dataset_id"])


def _text(document: RangeSummaryJson) -> str:
    lines = [_line("all", document)]
    lines += [_line(name, c) for name, c in document["classes"].items()]
    gaps = document["gap_intervals"]
    lines.append(f"{document['intervals']} intervals of {document['step_s']:g} s, {gaps} gaps")
    if document.get("dataset_id") is not None:
        lines.append(f"dataset {document['dataset_id']} refreshed on the server")
    bounds = ", ".join(str(b) for b in document["bucket_bounds_s"])
    if bounds:
        lines.append(f"percentiles interpolate inside the buckets: {bounds}")
    return "\n".join(lines)


def _line(name: str, c: ClassJson) -> str:
    p95, p99 = c["latency_p95_s"], c["latency_p99_s"]
    latency = "no latency" if p95 is None else f"p95 {p95:.4g} s, p99 {p99:.4g} s"
    rate = c["rate_per_s"]
    return (
        f"{name}: {c['requests_total']:.0f} requests, {rate['mean']:.4g}/s mean, "
        f"{rate['peak']:.4g}/s peak, {c['errors_total']:.0f} errors, {latency}"
    )
