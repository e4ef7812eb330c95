"""`headroom export KIND SOURCE`: deployable settings printed on stdout, what they set on
stderr. SOURCE is a scenario file (YAML or JSON, exported here), or `run:ID` / `analysis:ID`
on a Headroom server (after `headroom login`, or with HEADROOM_URL and HEADROOM_TOKEN).
Exit codes: 0 printed, 2 usage errors, unsupported combinations and refusals."""

import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict, Unpack

if TYPE_CHECKING:
    from headroom.engine.export import ExportOptions

import click

from headroom.cli.analysis import InputError, OneLineCommand
from headroom.cli.options import Range

KINDS = ("hpa", "keda", "aws", "haproxy", "nginx", "envoy", "pools", "slo")
REMOTE = re.compile(r"^(run|analysis):(\d+)$")
SloFormat = Literal["sloth", "openslo", "rules"]


class CommandOptions(TypedDict):  # the options below, as click passes them
    deployment: str
    namespace: str
    asg: str
    backend: str
    service_class: str | None
    servers: int | None
    max_replicas: int | None
    direction: Literal["out", "in"]
    workers: int


class ExportParams(CommandOptions):  # exports.schemas.ExportParams, the API's query
    format: SloFormat


@click.command("export", cls=OneLineCommand)
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("source")
@click.option("--deployment", default="web", show_default=True, help="Kubernetes Deployment")
@click.option("--namespace", default="default", show_default=True)
@click.option("--asg", default="web-asg", show_default=True, help="EC2 Auto Scaling group")
@click.option("--backend", default="web", show_default=True, help="proxy backend name")
@click.option("--class", "service_class", default=None, help="capacity analysis: request class")
@click.option("--servers", type=Range(int, 1, 1000), default=None, help="proxy server lines")
@click.option("--max-replicas", type=Range(int, 1, 10_000), default=None, help="keda, analysis")
@click.option("--direction", type=click.Choice(["out", "in"]), default="out", show_default=True)
@click.option(
    "--format", "slo_format", type=click.Choice(["sloth", "openslo", "rules"]), default="sloth",
    show_default=True, help="slo: the form",
)  # fmt: skip
@click.option("--workers", type=Range(int, 1, 256), default=2, show_default=True)
def export_command(
    kind: str, source: str, slo_format: SloFormat, **options: Unpack[CommandOptions]
) -> None:
    """Print KIND (hpa, keda, aws, haproxy, nginx, envoy, pools, slo) of SOURCE (a scenario
    file, run:ID or analysis:ID on the server)."""
    params: ExportParams = {**options, "format": slo_format}
    remote = REMOTE.match(source)
    exported = _remote(kind, remote.group(1), int(remote.group(2)), params) if remote else None
    content, note = exported or _local(kind, source, params)
    click.echo(content, nl=not content.endswith("\n"))
    click.echo(f"# {note}", err=True)


def _local(kind: str, source: str, params: ExportParams) -> tuple[str, str]:
    from headroom.engine import export
    from headroom.engine.sim.scenario import ScenarioError, load_scenario

    path = Path(source)
    if not path.is_file():
        raise InputError(f"no such file: {source} (or give run:ID or analysis:ID)")
    try:
        scenario = load_scenario(path.read_text())
        options = _engine_options(params)
        file = export.from_scenario(kind, scenario, options)  # type: ignore[arg-type]
    except (ScenarioError, export.ExportError) as error:
        raise InputError(f"{source}: {error}") from error
    return file.content, file.note


def _engine_options(params: ExportParams) -> "ExportOptions":
    from headroom.engine.export import ExportOptions

    return ExportOptions(
        deployment=params["deployment"],
        namespace=params["namespace"],
        asg=params["asg"],
        backend=params["backend"],
        service_class=params["service_class"],
        servers=params["servers"],
        max_replicas=params["max_replicas"],
        direction=params["direction"],
        slo_format=params["format"],
        workers=params["workers"],
    )


def _remote(kind: str, what: str, number: int, params: ExportParams) -> tuple[str, str]:
    import httpx

    from headroom.client import remote

    collection = "simulations" if what == "run" else "analyses"
    query = {k: str(v) for k, v in params.items() if v is not None}
    try:
        with remote.client(remote.load_credentials()) as http:
            response = http.get(f"/api/v1/{collection}/{number}/export/{kind}", params=query)
            body = remote.checked(response)
    except (remote.RemoteError, httpx.HTTPError) as error:
        raise InputError(str(error)) from error
    return str(body["content"]), str(body["note"])
