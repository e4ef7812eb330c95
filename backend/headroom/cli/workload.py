"""Local workload commands (no server): `headroom parse` and `headroom characterize`.

Their `--json` output is a contract pipelines rely on (keys listed in the README).
Unusable input exits with status 2 and one line on stderr."""

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING, Any, TypedDict

import click

from headroom.cli.analysis import (
    SNIFF_BYTES,
    UNREADABLE,
    InputError,
    OneLineCommand,
    _emit,
    _existing_file,
)

REQUESTS_FILE = "requests.parquet"
MIN_CHUNK_BYTES = 1 << 20
MAX_CHUNK_BYTES = 64 << 20
# `headroom parse` (whose chunks are dropped once written) parses two chunks at once; the
# commands that go on to characterize keep one, for their memory budget's sake
PARSE_THREADS = min(os.cpu_count() or 1, 2)

if TYPE_CHECKING:  # the documents load with the characterization, on first use
    from headroom.characterizations.documents import CharacterizationCore


class RejectLine(TypedDict):  # a line the parser refused, as printed
    line: int
    reason: str
    text: str


class ParseReport(TypedDict):
    """The `headroom parse --json` document, as printed."""

    format: str
    lines_total: int
    lines_parsed: int
    lines_rejected: int
    lines_skipped: int
    rejects: list[RejectLine]
    first_ts: str | None
    last_ts: str | None
    requests_by_status: dict[str, int]
    bytes_total: int | None
    has_latency: bool
    latency_p50_s: float | None
    latency_p95_s: float | None
    latency_p99_s: float | None
    format_confidence: float | None


@dataclass(frozen=True)
class ParsedLog:
    format: str
    table: Any  # polars.DataFrame sorted by ts, or a LazyFrame of the sorted Parquet parts
    lines_total: int
    lines_rejected: int
    rejects: list[RejectLine]  # the first REJECTS_KEPT
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


def chunk_bytes_for(memory_budget_mb: int) -> int:
    """The parse chunk that keeps a process within its memory budget: parsing a chunk
    holds a few times its bytes, the rest of the budget is the later stages'."""
    return min(max((memory_budget_mb << 20) // 24, MIN_CHUNK_BYTES), MAX_CHUNK_BYTES)


def _budget_chunk_bytes() -> int:
    from headroom.core.memory import memory_budget_mb

    return chunk_bytes_for(memory_budget_mb())


def _parse_chunks(
    path: Path, name: str, chunk_bytes: int, keep: Callable[[Any], None], threads: int = 1
) -> ParsedLog:
    """Parse the log chunk by chunk (``threads`` chunks at once), handing each chunk's
    table to ``keep``; the ParsedLog's table is left for the caller to fill."""
    from headroom.engine.logs.records import REJECTS_KEPT

    detected, confidence = _detected(path, name)
    rejects: list[RejectLine] = []
    lines, rejected, skipped, parsed_rows = 0, 0, 0, 0
    for parsed in _parsed_chunks(path, detected, chunk_bytes, threads):
        keep(parsed.table)
        parsed_rows += parsed.table.height
        rejects += [
            {"line": r.line_number, "reason": r.reason, "text": r.text}
            for r in parsed.rejects[: max(REJECTS_KEPT - len(rejects), 0)]
        ]
        lines, rejected = lines + parsed.line_count, rejected + parsed.reject_count
        skipped += parsed.skip_count
    if parsed_rows == 0:
        raise ValueError(f"no line of the file could be parsed as {detected}")
    return ParsedLog(detected, None, lines, rejected, rejects, confidence, skipped)


def _parsed_chunks(path: Path, fmt: str, chunk_bytes: int, threads: int) -> Iterator[Any]:
    """Each chunk's ParsedChunk, in the file's order, ``threads`` chunks parsed at once
    (the scanner releases the GIL): with 2, the chunk after the one being handed on is
    parsed meanwhile. At most ``threads`` + 1 chunks are held."""
    from headroom.engine.logs import iter_chunks, open_log, parse_chunk
    from headroom.engine.logs.w3c import format_after

    pool = ThreadPoolExecutor(threads, thread_name_prefix="parse")
    pending: deque[Future[Any]] = deque()
    try:
        with open_log(path) as stream:
            for chunk in iter_chunks(stream, chunk_bytes):
                pending.append(pool.submit(parse_chunk, chunk, fmt))
                fmt = format_after(fmt, chunk.data)  # W3C: the next chunk's #Fields
                if len(pending) >= threads:
                    yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(cancel_futures=True)


def parse_log(path: Path, name: str = "auto", chunk_bytes: int = 32 << 20) -> ParsedLog:
    """The whole log parsed chunk by chunk into one table in memory, with its line,
    reject and skipped counts."""
    import polars as pl

    tables: list[Any] = []
    parsed = _parse_chunks(path, name, chunk_bytes, tables.append)
    table = pl.concat(tables, rechunk=False)
    tables.clear()
    if not table["ts"].is_sorted():  # logs are mostly in time order: no gather of every column
        table = table.sort("ts", maintain_order=True)
    return replace(parsed, table=table)


def parse_log_parts(
    path: Path, name: str, parts_dir: Path, chunk_bytes: int | None = None
) -> ParsedLog:
    """The log parsed chunk by chunk into Parquet parts under ``parts_dir`` (no more
    than one chunk's table in memory); the table is a LazyFrame of the parts, in the
    file's order (sort it by ts with ``maintain_order``: ties keep the file's order)."""
    import polars as pl

    parts: list[Path] = []

    def write(table: Any) -> None:
        parts.append(parts_dir / f"part-{len(parts):05d}.parquet")
        table.write_parquet(parts[-1], compression="lz4", statistics=False)

    parsed = _parse_chunks(path, name, chunk_bytes or _budget_chunk_bytes(), write)
    return replace(parsed, table=pl.scan_parquet(parts))


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def parse_report(parsed: ParsedLog) -> ParseReport:
    """The `headroom parse --json` document (aggregates over the table, lazily)."""
    import polars as pl

    lazy = parsed.table.lazy()
    statuses = (
        lazy.group_by("status").agg(pl.len().alias("n")).drop_nulls().sort("status").collect()
    )
    latency = pl.col("latency_s")
    row = (
        lazy.select(
            pl.len().alias("rows"),
            pl.col("ts").min().alias("first"),
            pl.col("ts").max().alias("last"),
            pl.col("bytes").sum().alias("bytes"),
            pl.col("bytes").count().alias("bytes_n"),
            latency.count().alias("latency_n"),
            *(latency.quantile(q, "linear").alias(str(q)) for q in (0.50, 0.95, 0.99)),
        )
        .collect()
        .row(0, named=True)
    )
    has_latency = row["latency_n"] > 0

    def pct(q: float) -> float | None:
        return float(row[str(q)]) if has_latency else None

    return {
        "format": parsed.format,
        "lines_total": parsed.lines_total,
        "lines_parsed": row["rows"],
        "lines_rejected": parsed.lines_rejected,
        "lines_skipped": parsed.lines_skipped,
        "rejects": parsed.rejects,
        "first_ts": _iso(row["first"]),
        "last_ts": _iso(row["last"]),
        "requests_by_status": {str(s): int(n) for s, n in statuses.iter_rows()},
        "bytes_total": int(row["bytes"]) if row["bytes_n"] else None,
        "has_latency": has_latency,
        "latency_p50_s": pct(0.50),
        "latency_p95_s": pct(0.95),
        "latency_p99_s": pct(0.99),
        "format_confidence": parsed.format_confidence,
    }


def parse_text(doc: ParseReport) -> str:
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


def _read(file: str, name: str, parts_dir: Path | None = None) -> ParsedLog:
    """The log in memory, or (given parts_dir) as Parquet parts there, read lazily."""
    from headroom.engine.logs import LogInputError

    path = _existing_file(file)
    try:
        if parts_dir is None:
            return parse_log(path, name, _budget_chunk_bytes())
        return parse_log_parts(path, name, parts_dir)
    except LogInputError as error:
        raise InputError(f"{file}: {error.message}") from error
    except UNREADABLE as error:
        raise InputError(f"{file}: {error}") from error


def _read_apart(file: str, name: str, parts_dir: Path) -> ParsedLog:
    """:func:`_read` into Parquet parts in a child process, so what parsing leaves
    allocated (about half a gigabyte at 2 M lines) is returned to the system before the
    characterization starts; the table is then the parts, read lazily in file order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import polars as pl

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        parsed = pool.submit(_read_without_table, file, name, parts_dir).result()
    return replace(parsed, table=pl.scan_parquet(sorted(parts_dir.glob("part-*.parquet"))))


def _read_without_table(file: str, name: str, parts_dir: Path) -> ParsedLog:
    return replace(_read(file, name, parts_dir), table=None)


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
    from headroom.cli.parse_stream import without_numba_extras

    with without_numba_extras():
        document = _parse_streaming(file, format_name(log_format, spec), out_dir)
    _emit(document, as_json, parse_text(document))


def _parse_streaming(file: str, name: str, out_dir: str | None) -> ParseReport:
    """The report of one pass over the log, each chunk also appended to the Parquet file
    (given out_dir) and then dropped: no table of the whole log is held or read back."""
    from headroom.cli.parse_stream import ParquetSink, ReportTally
    from headroom.engine.logs import LogInputError

    path = _existing_file(file)
    sink = None if out_dir is None else ParquetSink(_out_dir(out_dir) / REQUESTS_FILE)
    tally = ReportTally()

    def keep(table: Any) -> None:
        tally.add(table)
        if sink is not None:
            _writing(out_dir, sink.write, table)

    try:
        parsed = _parse_chunks(path, name, _budget_chunk_bytes(), keep, PARSE_THREADS)
        if sink is not None:
            _writing(out_dir, sink.close, tally.in_time_order)
    except BaseException as error:
        if sink is not None:
            sink.abandon()
        if isinstance(error, LogInputError):
            raise InputError(f"{file}: {error.message}") from error
        if isinstance(error, UNREADABLE):
            raise InputError(f"{file}: {error}") from error
        raise
    return tally_report(parsed, tally)


def _out_dir(out_dir: str) -> Path:
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"{out_dir}: {error}") from error
    return Path(out_dir)


def _writing(out_dir: str | None, action: Callable[[Any], None], arg: Any) -> None:
    """Run a step of the Parquet output; its OSError is the output directory's."""
    try:
        action(arg)
    except OSError as error:
        raise InputError(f"{out_dir}: {error}") from error


def tally_report(parsed: ParsedLog, tally: Any) -> ParseReport:
    """The `headroom parse --json` document from a ReportTally (parse_report's keys)."""
    quantiles = tally.latency_quantiles()
    return {
        "format": parsed.format,
        "lines_total": parsed.lines_total,
        "lines_parsed": tally.rows,
        "lines_rejected": parsed.lines_rejected,
        "lines_skipped": parsed.lines_skipped,
        "rejects": parsed.rejects,
        "first_ts": _iso(tally.first),
        "last_ts": _iso(tally.last),
        "requests_by_status": {str(s): n for s, n in sorted(tally.statuses.items())},
        "bytes_total": int(tally.bytes_total) if tally.bytes_n else None,
        "has_latency": quantiles is not None,
        "latency_p50_s": quantiles and quantiles[0.50],
        "latency_p95_s": quantiles and quantiles[0.95],
        "latency_p99_s": quantiles and quantiles[0.99],
        "format_confidence": parsed.format_confidence,
    }


@click.command("characterize", cls=OneLineCommand)
@click.argument("file")
@click.option("--format", "log_format", default="auto", show_default=True, help="format name")
@click.option("--log-format", "spec", default=None, help="an Apache LogFormat or nginx log_format")
@click.option("--json", "as_json", is_flag=True, help="print the JSON characterization")
def characterize_command(file: str, log_format: str, spec: str | None, as_json: bool) -> None:
    """Arrivals, classes, pages, sessions, fitted distributions and the workload model."""
    from headroom.characterizations.documents import characterization_core
    from headroom.core.settings import get_settings
    from headroom.engine.workload.mapreduce import characterize_parts

    budget_mb = get_settings().memory_budget_mb
    with TemporaryDirectory(prefix="headroom-characterize-") as parts_dir:
        parsed = _read_apart(file, format_name(log_format, spec), Path(parts_dir))
        try:  # sessions order ties by input order: the file's
            result = characterize_parts(parsed.table, memory_budget_mb=budget_mb)
            document = characterization_core(result)
        except ValueError as error:
            raise InputError(f"{file}: {error}") from error
    _emit(document.model_dump(mode="json"), as_json, characterize_text(document))


def characterize_text(doc: "CharacterizationCore") -> str:
    arrivals, pages, sessions = doc.arrivals, doc.pages, doc.sessions
    lines = [
        f"requests: {doc.requests}",
        f"per minute: peak {arrivals.peak_per_min}, trough {arrivals.trough_per_min}, "
        f"mean {arrivals.mean_per_min:.4g}, peak/mean {arrivals.peak_to_mean:.3g}",
        _unit_line("pages", pages.count, pages.objects_per_page_mean, "objects per page"),
        _unit_line("sessions", sessions.count, sessions.pages_per_session_mean, "pages each"),
    ]
    held = doc.fields_recorded
    missing = [NOT_RECORDED[k] for k in NOT_RECORDED if held and getattr(held, k) is False]
    if missing:
        lines.append("not recorded: " + ", ".join(missing))
    for kind, shares in (("request", doc.classes.request), ("user", doc.classes.user)):
        mix = ", ".join(f"{c} {s:.1%}" for c, s in shares.items())
        lines.append(f"{kind} classes: {mix}")
    for name, fit in doc.fits.items():
        why = f"not fitted: {fit.reason or '-'}"
        lines.append(f"fit {name}: {fit.dist or why}")
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
