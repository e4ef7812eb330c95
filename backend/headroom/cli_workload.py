"""Local workload commands (no server): `headroom parse` and `headroom characterize`.

Their `--json` output is a contract pipelines rely on (keys listed in the README).
Unusable input exits with status 2 and one line on stderr."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from headroom.cli_analysis import (
    SNIFF_BYTES,
    UNREADABLE,
    InputError,
    OneLineCommand,
    _emit,
    _existing_file,
)

REQUESTS_FILE = "requests.parquet"


@dataclass(frozen=True)
class ParsedLog:
    format: str
    table: Any  # polars.DataFrame, sorted by ts
    lines_total: int
    lines_rejected: int
    rejects: list[dict[str, Any]]
    format_confidence: float | None = None  # the detection's; None when the format was given
    lines_skipped: int = 0  # blank lines, directives, headers: structure, not requests


def format_name(log_format: str, spec: str | None) -> str:
    """The parser's name for a --log-format string: nginx's `$variables` or Apache's
    `%directives` (a string with `$` and no `%` is nginx's)."""
    if spec is None:
        return log_format
    if log_format != "auto":
        raise InputError("give --format or --log-format, not both")
    from headroom.engine.logs.formats import log_format_name

    return log_format_name(spec)


def _detected(path: Path, name: str) -> tuple[str, float | None]:
    """The format and the detection's confidence (None for a format the user named)."""
    from headroom.engine.logs import detect_format, open_log
    from headroom.engine.logs.formats import get_parser

    if name != "auto":
        get_parser(name)  # a bad format string fails here, before reading
        return name, None
    with open_log(path) as stream:
        sample = stream.read(SNIFF_BYTES)
    cut = sample.rfind(b"\n")
    if len(sample) == SNIFF_BYTES and cut > 0:
        sample = sample[: cut + 1]
    detection = detect_format(sample)
    return detection.format, detection.confidence


def parse_log(path: Path, name: str = "auto", chunk_bytes: int = 32 << 20) -> ParsedLog:
    """The whole log parsed chunk by chunk, with its line, reject and skipped counts."""
    import polars as pl

    from headroom.engine.logs import REQUEST_SCHEMA, iter_chunks, open_log, parse_chunk
    from headroom.engine.logs.records import REJECTS_KEPT
    from headroom.engine.logs.w3c import format_after

    detected, confidence = _detected(path, name)
    fmt, tables, rejects, lines, rejected, skipped = detected, [], [], 0, 0, 0
    with open_log(path) as stream:
        for chunk in iter_chunks(stream, chunk_bytes):
            parsed = parse_chunk(chunk, fmt)
            fmt = format_after(fmt, chunk.data)  # W3C: the next chunk's #Fields
            tables.append(parsed.table)
            rejects += [
                {"line": r.line_number, "reason": r.reason, "text": r.text} for r in parsed.rejects
            ]
            lines, rejected = lines + parsed.line_count, rejected + parsed.reject_count
            skipped += parsed.skip_count
    table = pl.concat(tables) if tables else pl.DataFrame(schema=REQUEST_SCHEMA)
    if table.height == 0:
        raise ValueError(f"no line of the file could be parsed as {detected}")
    kept = rejects[:REJECTS_KEPT]
    if not table["ts"].is_sorted():  # logs are mostly in time order: no gather of every column
        table = table.sort("ts", maintain_order=True)
    return ParsedLog(detected, table, lines, rejected, kept, confidence, skipped)


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def parse_report(parsed: ParsedLog) -> dict[str, Any]:
    """The `headroom parse --json` document."""
    import polars as pl

    table = parsed.table
    statuses = table.group_by("status").agg(pl.len().alias("n")).drop_nulls().sort("status")
    latency = table["latency_s"].drop_nulls()
    has_latency = latency.len() > 0

    def pct(q: float) -> float | None:
        return float(latency.quantile(q, "linear")) if has_latency else None

    return {
        "format": parsed.format,
        "lines_total": parsed.lines_total,
        "lines_parsed": table.height,
        "lines_rejected": parsed.lines_rejected,
        "lines_skipped": parsed.lines_skipped,
        "rejects": parsed.rejects,
        "first_ts": _iso(table["ts"].min()),
        "last_ts": _iso(table["ts"].max()),
        "requests_by_status": {str(s): int(n) for s, n in statuses.iter_rows()},
        "bytes_total": int(table["bytes"].sum()) if table["bytes"].count() else None,
        "has_latency": has_latency,
        "latency_p50_s": pct(0.50),
        "latency_p95_s": pct(0.95),
        "latency_p99_s": pct(0.99),
        "format_confidence": parsed.format_confidence,
    }


def parse_text(doc: dict[str, Any]) -> str:
    lines = [
        f"format: {doc['format']}",
        f"lines: {doc['lines_total']} ({doc['lines_parsed']} parsed, "
        f"{doc['lines_rejected']} rejected, {doc['lines_skipped']} skipped)",
        f"time: {doc['first_ts']} .. {doc['last_ts']}",
        "statuses: "
        + (", ".join(f"{s}: {n}" for s, n in doc["requests_by_status"].items()) or "not recorded"),
        f"bytes: {'not recorded' if doc['bytes_total'] is None else doc['bytes_total']}",
    ]
    if doc["has_latency"]:
        lines.append(
            f"latency p50/p95/p99: {doc['latency_p50_s']:.4g}s / "
            f"{doc['latency_p95_s']:.4g}s / {doc['latency_p99_s']:.4g}s"
        )
    lines += [f"rejected line {r['line']}: {r['reason']}" for r in doc["rejects"]]
    return "\n".join(lines)


def _read(file: str, name: str) -> ParsedLog:
    from headroom.engine.logs import LogInputError

    path = _existing_file(file)
    try:
        return parse_log(path, name)
    except LogInputError as error:
        raise InputError(f"{file}: {error.message}") from error
    except UNREADABLE as error:
        raise InputError(f"{file}: {error}") from error


@click.command("parse", cls=OneLineCommand)
@click.argument("file")
@click.option("--format", "log_format", default="auto", show_default=True, help="format name")
@click.option("--log-format", "spec", default=None, help="an Apache LogFormat or nginx log_format")
@click.option("--out", "out_dir", default=None, help="write the request table here (Parquet)")
@click.option("--json", "as_json", is_flag=True, help="print the JSON report")
def parse_command(
    file: str, log_format: str, spec: str | None, out_dir: str | None, as_json: bool
) -> None:
    """Parse an access log: line, reject and status counts, time span, latency percentiles."""
    parsed = _read(file, format_name(log_format, spec))
    if out_dir is not None:
        try:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            parsed.table.write_parquet(Path(out_dir) / REQUESTS_FILE)
        except OSError as error:
            raise InputError(f"{out_dir}: {error}") from error
    document = parse_report(parsed)
    _emit(document, as_json, parse_text(document))


@click.command("characterize", cls=OneLineCommand)
@click.argument("file")
@click.option("--format", "log_format", default="auto", show_default=True, help="format name")
@click.option("--log-format", "spec", default=None, help="an Apache LogFormat or nginx log_format")
@click.option("--json", "as_json", is_flag=True, help="print the JSON characterization")
def characterize_command(file: str, log_format: str, spec: str | None, as_json: bool) -> None:
    """Arrivals, classes, pages, sessions, fitted distributions and the workload model."""
    from headroom.engine.workload import characterize

    parsed = _read(file, format_name(log_format, spec))
    try:
        document = characterize(parsed.table).to_dict()
    except ValueError as error:
        raise InputError(f"{file}: {error}") from error
    _emit(document, as_json, characterize_text(document))


def characterize_text(doc: dict[str, Any]) -> str:
    arrivals, pages, sessions = doc["arrivals"], doc["pages"], doc["sessions"]
    lines = [
        f"requests: {doc['requests']}",
        f"per minute: peak {arrivals['peak_per_min']}, trough {arrivals['trough_per_min']}, "
        f"mean {arrivals['mean_per_min']:.4g}, peak/mean {arrivals['peak_to_mean']:.3g}",
        _unit_line("pages", pages["count"], pages["objects_per_page_mean"], "objects per page"),
        _unit_line("sessions", sessions["count"], sessions["pages_per_session_mean"], "pages each"),
    ]
    held = doc.get("fields_recorded") or {}
    missing = [NOT_RECORDED[k] for k in NOT_RECORDED if held.get(k) is False]
    if missing:
        lines.append("not recorded: " + ", ".join(missing))
    for kind, shares in doc["classes"].items():
        mix = ", ".join(f"{c} {s:.1%}" for c, s in shares.items())
        lines.append(f"{kind} classes: {mix}")
    for name, fit in doc["fits"].items():
        why = f"not fitted: {fit.get('reason') or '-'}"
        lines.append(f"fit {name}: {fit.get('dist') or why}")
    return "\n".join(lines)


NOT_RECORDED = {
    "status": "status codes",
    "bytes": "response sizes",
    "latency": "latencies",
    "client": "clients (so no sessions)",
    "path": "paths (so no pages)",
    "daily_profile": "a full day (so no daily profile)",
}


def _unit_line(name: str, count: int | None, mean: float | None, per: str) -> str:
    if count is None:
        return f"{name}: not recorded"
    return f"{name}: {count} ({_g(mean)} {per})"


def _g(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


COMMANDS = (parse_command, characterize_command)
