"""`headroom forecast FILE_OR_DATASET`: the hourly traffic forecast, its growth and cycles,
the runway to a limit and the backtest (docs/methods/forecast.md).

A file is read as a rate series (`timestamp,requests` per minute, or another layout the
rate reader knows) or else as an access log; anything else names a dataset on the server
(`headroom login`), which forecasts it and defaults the limit from its capacity analysis."""

from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, NotRequired, TypedDict, cast

import click
import httpx

from headroom.cli.analysis import InputError, OneLineCommand, _emit
from headroom.cli.options import Range
from headroom.cli.workload import _read, format_name

MAX_HORIZON_DAYS = 366


class RunwayJson(TypedDict):
    limit_per_s: float | None
    date: str | None


class BacktestJson(TypedDict):
    mape: float
    hours: int


class NotEnoughHistoryJson(TypedDict):
    reason: str
    message: str


class ForecastJson(TypedDict):
    """What the text reads of a forecast: the engine's `to_document`, or the server's
    `ForecastOut` as JSON (which adds keys; --json prints either as it came)."""

    horizon_days: int
    peak_per_s: float
    growth: dict[str, float]
    seasonality: dict[str, bool]
    runway: RunwayJson
    backtest: BacktestJson | None
    warnings: list[str]
    not_enough_history: NotRequired[NotEnoughHistoryJson | None]  # the server's answer only


@click.command("forecast", cls=OneLineCommand)
@click.argument("source", metavar="FILE_OR_DATASET")
@click.option(
    "--horizon-days",
    type=Range(int, 1, MAX_HORIZON_DAYS, unit="days"),
    default=28,
    show_default=True,
    help="Days to forecast after the history.",
)
@click.option(
    "--limit-per-s",
    type=Range(float, 0, low_open=True, unit="req/s"),
    default=None,
    help="The rate the site holds (default for a dataset: MaxRate(T) x its servers).",
)
@click.option("--format", "log_format", default="auto", show_default=True, help="log format")
@click.option("--json", "as_json", is_flag=True, help="print the JSON forecast")
def forecast_command(
    source: str, horizon_days: int, limit_per_s: float | None, log_format: str, as_json: bool
) -> None:
    """Forecast traffic hour by hour and the day its peak passes the limit."""
    if Path(source).is_file():
        document = local_forecast(Path(source), horizon_days, limit_per_s, log_format)
    else:
        document = _remote(source, horizon_days, limit_per_s)
    _emit(document, as_json, forecast_text(document))


def _history(path: Path, log_format: str) -> Any:
    from headroom.engine.forecast import hourly, hourly_from_requests
    from headroom.engine.logs import LogInputError
    from headroom.engine.logs.rates import read_rate_series

    try:
        rates = read_rate_series(path)
        return hourly(rates.start_s, rates.rate_per_s)
    except LogInputError as error:
        if error.code != "unknown_format":
            raise InputError(f"{path}: {error.message}") from error
    with TemporaryDirectory(prefix="headroom-forecast-") as parts_dir:
        parsed = _read(str(path), format_name(log_format, None), Path(parts_dir))
        return hourly_from_requests(parsed.table)


def local_forecast(
    path: Path, horizon_days: int, limit_per_s: float | None, log_format: str = "auto"
) -> ForecastJson:
    from headroom.engine.forecast import ForecastInputError, forecast, to_document

    try:
        result = forecast(_history(path, log_format), horizon_days, limit_per_s)
    except ForecastInputError as error:
        raise InputError(f"{path}: {error}") from error
    return cast(ForecastJson, to_document(result, horizon_days))


def _remote(ref: str, horizon_days: int, limit_per_s: float | None) -> ForecastJson:
    from headroom.client import remote

    query: dict[str, float] = {"horizon_days": horizon_days}
    if limit_per_s is not None:
        query["limit_per_s"] = limit_per_s
    try:
        with remote.client(remote.load_credentials()) as http:
            dataset = remote.find_dataset(http, ref)
            url = f"/api/v1/datasets/{dataset['id']}/forecast"
            document: ForecastJson = remote.checked(http.get(url, params=query))
    except (remote.RemoteError, httpx.HTTPError) as error:
        raise InputError(f"{ref}: not a file, and the server says: {error}") from error
    not_enough = document.get("not_enough_history")
    if not_enough is not None:
        raise InputError(f"{ref}: {not_enough['message']}")
    return document


def forecast_text(doc: ForecastJson) -> str:
    cycles = [name for name, found in doc["seasonality"].items() if found] or ["none"]
    runway = doc["runway"]
    if runway["limit_per_s"] is None:
        passes = "no limit given (--limit-per-s)"
    elif runway["date"] is None:
        passes = f"the peak stays under {runway['limit_per_s']:g} req/s within the horizon"
    else:
        passes = f"the peak passes {runway['limit_per_s']:g} req/s on {runway['date']}"
    backtest = doc["backtest"]
    lines = [
        f"forecast: {doc['horizon_days']} days, peak {doc['peak_per_s']:g} req/s",
        f"growth: {doc['growth']['per_week']:+.1%} a week; cycles: {', '.join(cycles)}",
        f"runway: {passes}",
        "backtest: " + ("none" if backtest is None else f"MAPE {backtest['mape']:.1%}"),
    ]
    return "\n".join(lines + [f"warning: {w}" for w in doc["warnings"]])


COMMANDS = (forecast_command,)
