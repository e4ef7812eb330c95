"""Local capacity commands (no server): `headroom analyze`, `headroom sct`,
`headroom partition`. Unusable input exits with status 2 and one line on stderr."""

import json
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from headroom.cli.options import Range

if TYPE_CHECKING:  # the documents load with the analyses, on first use
    from headroom.analyses.documents import CapacityReportDoc, SctReportDoc
    from headroom.engine.capacity.partitions import PartitionReport

SNIFF_BYTES = 1 << 20
MIN_WINDOWS = 5  # windows a knee curve needs at the least (one load bin)
# what reading a broken file can raise (truncated or corrupt .gz included)
UNREADABLE = (ValueError, OSError, EOFError, zlib.error)
MIN_INTERVAL_MS, MAX_INTERVAL_MS = 0.1, 60_000.0  # engine/capacity/params.py's SCT limits
SECONDS = Range(float, 0, 3600, low_open=True, unit="seconds")
WINDOW_S = Range(float, 0, 86_400, low_open=True, unit="seconds")
POSITIVE = Range(float, 0, low_open=True)


class InputError(click.ClickException):
    """One line `Error: ...` on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class OneLineCommand(click.Command):
    """Bad options become one-line input errors too (click's usage errors print the usage)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as error:
            raise InputError(error.format_message()) from error


def _existing_file(path: str) -> Path:
    file = Path(path)
    if not file.is_file():
        raise InputError(f"no such file: {path}")
    return file


def _emit(document: object, as_json: bool, text: str) -> None:
    from headroom.analyses.tables import jsonable

    if as_json:
        click.echo(json.dumps(jsonable(document), indent=2, allow_nan=False))
    else:
        click.echo(text)


@click.command("analyze", cls=OneLineCommand)
@click.argument("file")
@click.option("--percentile", type=Range(float, 50, 99.9), default=95.0, show_default=True)
@click.option(
    "--stance",
    type=click.Choice(["strict", "balanced", "loose"]),
    default="balanced",
    show_default=True,
)
@click.option("--threshold-s", type=SECONDS, default=None, help="SLA threshold; overrides --stance")
@click.option("--window-s", type=WINDOW_S, default=10.0, show_default=True)
@click.option("--bins", type=Range(int, 2, 200), default=20, show_default=True)
@click.option(
    "--model-servers", type=Range(int, 1, 10_000), default=None, help="c of the M/M/c model"
)
@click.option("--format", "log_format", default="auto", show_default=True, help="log format name")
@click.option("--json", "as_json", is_flag=True, help="print the JSON report")
def analyze_command(
    file: str,
    percentile: float,
    stance: str,
    threshold_s: float | None,
    window_s: float,
    bins: int,
    model_servers: int | None,
    log_format: str,
    as_json: bool,
) -> None:
    """Knee curves, SLA targets and capacity of an access log with response times."""
    from headroom.analyses.tables import for_capacity
    from headroom.engine.capacity import CapacityParams, analyze
    from headroom.engine.logs import LogInputError

    params = CapacityParams(
        window_s=window_s, percentile=percentile, bins=bins, stance=stance,  # type: ignore[arg-type]
        threshold_s=threshold_s, model_servers=model_servers,
    )  # fmt: skip
    path = _existing_file(file)
    try:
        params.validate()
        table = for_capacity(read_log(path, log_format))
        _check_span(file, table, window_s)
        report = analyze(table, params)
    except LogInputError as error:
        raise InputError(f"{file}: {error.message}") from error
    except UNREADABLE as error:
        raise InputError(f"{file}: {error}") from error
    from headroom.analyses.documents import capacity_document

    document = capacity_document(report)
    _emit(document.model_dump(mode="json"), as_json, capacity_text(document))


def _check_span(file: str, table: Any, window_s: float) -> None:
    """A log shorter than MIN_WINDOWS windows is refused in the options' words."""
    span_s = (table["ts"].max() - table["ts"].min()).total_seconds()
    if span_s < MIN_WINDOWS * window_s:
        raise InputError(
            f"{file}: this log spans {span_s:.0f} s, fewer than {MIN_WINDOWS} windows of "
            f"{window_s:g} s: use a shorter --window-s or a longer log"
        )


def read_log(path: Path, log_format: str = "auto") -> Any:
    """The whole log or trace as one request table (the engine's parser, chunk by chunk)."""
    import polars as pl

    from headroom.engine.logs import detect_format, iter_chunks, open_log, parse_chunk

    with open_log(path) as stream:
        sample = stream.read(SNIFF_BYTES)
    cut = sample.rfind(b"\n")
    if len(sample) == SNIFF_BYTES and cut > 0:
        sample = sample[: cut + 1]
    fmt: Any = detect_format(sample) if log_format == "auto" else log_format
    with open_log(path) as stream:
        tables = [parse_chunk(chunk, fmt).table for chunk in iter_chunks(stream)]
    table = pl.concat(tables) if tables else pl.DataFrame()
    if table.height == 0:
        raise ValueError("no line of the file could be parsed")
    return table.sort("ts")


def _num(value: float | None, unit: str = "", digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}g}{unit}"


def capacity_text(doc: "CapacityReportDoc") -> str:
    head = f"{'class':<20} {'knee/s':>9} {'knee lat':>9} {'break/s':>9} "
    head += f"{'SLA T':>9} {'MaxRate/s':>10} {'MaxConn(T)':>10} {'MaxConn':>8}"
    lines = [head]
    for name, cls in doc.classes.items():
        knee, sla = cls.knee, cls.sla
        load, latency = (None, None) if knee is None else (knee.load_per_s, knee.latency_s)
        t, rate, conn = (
            (None,) * 3 if sla is None else (sla.threshold_s, sla.max_rate_per_s, sla.max_conn)
        )
        lines.append(
            f"{name[:20]:<20} {_num(load):>9} "
            f"{_num(latency, 's'):>9} {_num(cls.breaking_point_per_s):>9} "
            f"{_num(t, 's'):>9} {_num(rate):>10} "
            f"{_num(conn):>10} {_num(cls.max_conn):>8}"
        )
    cap = doc.capacity
    lines.append(
        f"power-ratio capacity: {_num(cap.power_peak_load_per_s)}/s (R^2 {cap.r2:.3f})"
        if cap
        else f"power-ratio capacity: none ({doc.capacity_reason})"
    )
    lines += [f"warning: {w}" for w in _warnings(doc)]
    return "\n".join(lines)


def _warnings(doc: "CapacityReportDoc") -> list[str]:
    own = [f"{n}: {w}" for n, c in doc.classes.items() for w in c.warnings]
    return [*doc.warnings, *own]


@click.command("sct", cls=OneLineCommand)
@click.argument("trace")
@click.option(
    "--interval-ms",
    type=Range(float, MIN_INTERVAL_MS, MAX_INTERVAL_MS, unit="ms"),
    default=50.0,
    show_default=True,
)
@click.option(
    "--window-s",
    type=Range(float, 0, 86_400 * 365, unit="seconds"),
    default=0.0,
    show_default=True,
    help="analyse only the most recent S seconds (live use); 0: the whole trace",
)
@click.option("--format", "log_format", default="auto", show_default=True, help="trace format")
@click.option("--json", "as_json", is_flag=True, help="print the JSON report")
def sct_command(
    trace: str, interval_ms: float, window_s: float, log_format: str, as_json: bool
) -> None:
    """Best pool size per server from a latency trace (CSV or JSON lines)."""
    from headroom.analyses.tables import for_sct
    from headroom.engine.capacity import SctParams, analyze_trace
    from headroom.engine.logs import LogInputError

    path = _existing_file(trace)
    params = SctParams(interval_ms=interval_ms, window_s=window_s if window_s != 0 else None)
    try:
        params.validate()
        report = analyze_trace(for_sct(read_log(path, log_format)), params)
    except LogInputError as error:
        raise InputError(f"{trace}: {error.message}") from error
    except UNREADABLE as error:
        raise InputError(f"{trace}: {error}") from error
    from headroom.analyses.documents import sct_document

    document = sct_document(report)
    _emit(document.model_dump(mode="json"), as_json, sct_text(document))


def sct_text(doc: "SctReportDoc") -> str:
    lines = [f"{'server':<24} {'Q_lower':>8} {'Q_upper':>8} {'TP_max/s':>10} {'USL N*':>8}"]
    for name, srv in doc.servers.items():
        n_star = None if srv.usl is None else srv.usl.n_star
        upper = "above" if srv.q_upper is None else str(srv.q_upper)
        lines.append(
            f"{name[:24]:<24} {_num(srv.q_lower):>8} {upper:>8} "
            f"{_num(srv.tp_max_per_s):>10} {_num(n_star, '', 3):>8}"
        )
        lines += [f"warning: {name}: {w}" for w in srv.warnings]
    return "\n".join(lines)


@click.command("partition", cls=OneLineCommand)
@click.option("--servers", type=Range(int, 2), required=True, help="servers in the cluster (N)")
@click.option(
    "--top-fraction", type=Range(float, 0, 1), required=True, help="share of top-class load"
)
@click.option("--maxconn-sla", type=POSITIVE, required=True, help="MaxConn_D(T_D) per server")
@click.option("--maxconn", type=POSITIVE, required=True, help="MaxConn_D per server")
@click.option("--json", "as_json", is_flag=True, help="print the JSON report")
def partition_command(
    servers: int, top_fraction: float, maxconn_sla: float, maxconn: float, as_json: bool
) -> None:
    """StaticPart K (servers of the High Set) and the K-vs-top-fraction curve."""
    from headroom.engine.capacity import partition_report

    if maxconn_sla > maxconn:
        raise InputError(
            f"--maxconn-sla ({maxconn_sla:g}) cannot exceed --maxconn ({maxconn:g}): the "
            "connections that hold the SLA are at most all the connections a server holds"
        )
    try:
        report = partition_report(servers, top_fraction, maxconn_sla, maxconn)
    except ValueError as error:
        raise InputError(str(error)) from error
    _emit(report.to_dict(), as_json, partition_text(report))


def partition_text(report: "PartitionReport") -> str:
    part = report.partition
    lines = [
        f"K = {part.k} (safety factor {part.safety_factor:.3g}, "
        f"largest serviceable top fraction {report.max_top_fraction:.3g})"
    ]
    if part.warning:
        lines.append(f"warning: {part.warning}")
    lines.append("top fraction  K")
    lines += [f"{p.top_fraction:>12.2f}  {p.k}" for p in report.curve]
    return "\n".join(lines)


COMMANDS = (analyze_command, sct_command, partition_command)
