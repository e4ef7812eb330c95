"""`headroom check DATASET`: gate a pipeline on the SLA of an uploaded log.

Exit codes: 0 every check holds, 1 a check is violated (each printed with by how much),
2 usage or input errors (no such dataset, no response times in the log, server refusals)."""

import json
import sys
from typing import NoReturn

import click
import httpx

from headroom.cli.options import Range
from headroom.client import check, remote
from headroom.client.responses import DatasetJson


def fail(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


@click.command("check")
@click.argument("dataset")
@click.option(
    "--max-p95-s",
    type=Range(float, 0, low_open=True, unit="seconds"),
    default=None,
    help="The SLA: the largest allowed 95th-percentile response time, in seconds.",
)
@click.option("--class", "request_class", default=None, help="A request class, e.g. dynamic.")
@click.option("--baseline", default=None, help="An earlier dataset (id or name) to compare to.")
@click.option(
    "--max-regression",
    type=Range(float, 0, 1),
    default=0.1,
    show_default=True,
    help="Largest allowed p95 growth / knee drop against --baseline, as a fraction.",
)
@click.option("--json", "as_json", is_flag=True, help="Print {passed, checks: [...]}.")
def check_command(
    dataset: str,
    max_p95_s: float | None,
    request_class: str | None,
    baseline: str | None,
    max_regression: float,
    as_json: bool,
) -> None:
    """Check a dataset's latency against an SLA (and against a baseline dataset).

    With --baseline the knee is compared too; when either dataset has no knee, that check
    is listed as skipped (with the reason) and does not fail the gate."""
    if max_p95_s is None and baseline is None:
        fail("give --max-p95-s SECONDS and/or --baseline DATASET")
    try:
        with remote.client(remote.load_credentials()) as http:
            checks = _checks(http, dataset, request_class, max_p95_s, baseline, max_regression)
    except (remote.RemoteError, httpx.HTTPError) as error:
        fail(str(error))
    result = check.verdict(checks)
    if as_json:
        click.echo(json.dumps(result))
    else:
        for item in checks:
            click.echo(item.describe())
    sys.exit(0 if result["passed"] else 1)


def _checks(
    http: httpx.Client,
    dataset: str,
    request_class: str | None,
    max_p95_s: float | None,
    baseline: str | None,
    max_regression: float,
) -> list[check.Check]:
    label = request_class or "all requests"
    current = remote.find_dataset(http, dataset)
    p95_s = remote.p95_s(http, current, request_class)
    checks = [] if max_p95_s is None else [check.p95_limit(label, p95_s, max_p95_s)]
    if baseline is not None:
        earlier = remote.find_dataset(http, baseline)
        base_p95_s = remote.p95_s(http, earlier, request_class)
        checks.append(check.p95_regression(label, p95_s, base_p95_s, max_regression))
        checks += _knee_check(http, current, earlier, request_class, label, max_regression)
    return checks


def _knee_check(
    http: httpx.Client,
    current: DatasetJson,
    earlier: DatasetJson,
    request_class: str | None,
    label: str,
    max_regression: float,
) -> list[check.Check]:
    """The knee comparison, or a skipped check saying which dataset has no knee."""
    knee, classes = remote.knee_per_s(http, current, request_class)
    base_knee, base_classes = remote.knee_per_s(http, earlier, request_class)
    if knee is not None and base_knee is not None:
        return [check.knee_regression(label, knee, base_knee, max_regression)]
    key = request_class or "all"
    described = (
        (f"dataset {current['id']} ({current['name']})", knee, classes),
        (f"the baseline, dataset {earlier['id']} ({earlier['name']})", base_knee, base_classes),
    )
    reasons = [_no_knee(what, key, found) for what, value, found in described if value is None]
    return [check.knee_skipped(label, "; ".join(reasons) + ": the knee is not compared")]


def _no_knee(dataset: str, key: str, classes: list[str]) -> str:
    if key in classes:
        return f"no knee in {dataset}"
    known = ", ".join(classes) or "none"
    return f"no class {key!r} in the capacity analysis of {dataset} (it has: {known})"
