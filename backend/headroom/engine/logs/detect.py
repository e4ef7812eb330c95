"""detect_format: try every known format on the first lines and pick the best."""

from __future__ import annotations

import numpy as np

from .formats import get_parser, registry
from .parse import as_buffer
from .records import Detection, UnrecognisedLogError
from .syslog import SyslogParser, wrapped_share
from .tabulate import LineParser, Scan
from .traces import trace_parser_for
from .w3c import OFFSET_DIRECTIVE, W3CParser, w3c_name

SAMPLE_LINES = 1000
DECIMAL_NOTE = (
    "response time has a decimal point: seconds (nginx $request_time, %T); the logged time"
    " is read as the arrival: if it is nginx's $time_local (the completion), give the"
    " log_format to read arrival = completion - duration"
)
MIN_PARSED_FRACTION = 0.5


def _sample_lines(sample: bytes) -> bytes:
    """The first SAMPLE_LINES whole lines (a cut-off last line is dropped)."""
    end = -1
    for _ in range(SAMPLE_LINES):
        end = sample.find(b"\n", end + 1)
        if end < 0:
            break
    if end >= 0:
        return sample[: end + 1]
    cut = sample.rfind(b"\n")
    return sample[: cut + 1] if cut >= 0 else sample


def _candidates() -> list[LineParser]:
    """One parser per structure: the latency variants are tried once, unit decided later."""
    return [p for n, p in registry().items() if "_latency_" not in n or n.endswith("_latency_s")]


def latency_unit(raw: np.ndarray, point: np.ndarray) -> tuple[str, str]:
    """Decide the trailing response time's unit: (unit, note explaining why)."""
    if raw.size == 0:
        return "s", "response time is '-' throughout: unit unknown, seconds assumed"
    if point.mean() > 0.5:
        return "s", DECIMAL_NOTE
    median = float(np.median(raw))
    if median >= 1000:
        return "us", f"integer response times, median {median:g}: microseconds (Apache %D)"
    if median < 10:
        return "s", f"integer response times, median {median:g}: whole seconds (Apache %T)"
    return "ms", (
        f"integer response times, median {median:g}: ambiguous, milliseconds assumed"
        " (%{ms}T); name the format explicitly if they are microseconds"
    )


def _fraction(scan: Scan) -> float:
    """Parsed share of the data lines (blank lines and format headers do not count)."""
    data = ~scan.structural if scan.structural is not None else np.ones(scan.err.size, bool)
    n = int(data.sum())
    return float(np.count_nonzero((scan.err == 0) & data)) / n if n else 0.0


def detect_format(sample: bytes) -> Detection:
    """Pick the format parsing most of the first 1,000 lines (ties: the one with more fields).

    Raises UnrecognisedLogError, naming the closest format and a failing line, when no
    format parses at least half of them.
    """
    lines = _sample_lines(sample)
    buf = as_buffer(lines)
    trace = trace_parser_for(lines)
    candidates = _candidates() + ([trace] if trace else [])
    if wrapped_share(buf) >= MIN_PARSED_FRACTION:
        candidates += [SyslogParser(p) for p in _candidates() if not isinstance(p, W3CParser)]
    scans = [(p, p.scan(buf)) for p in candidates]
    n_lines = scans[0][1].starts.size
    if n_lines == 0:
        raise UnrecognisedLogError("the log is empty")
    ranked = sorted(scans, key=lambda ps: (_fraction(ps[1]), ps[0].fields_count()), reverse=True)
    best, scan = ranked[0]
    fraction = _fraction(scan)
    if fraction < MIN_PARSED_FRACTION:
        closest, cscan = max(scans, key=lambda ps: (_fraction(ps[1]), ps[1].progress))
        _refuse(closest, cscan, buf, _fraction(cscan))
    runner_up = _fraction(ranked[1][1]) if len(ranked) > 1 else 0.0
    name, unit, notes = best.name, None, [f"{fraction:.1%} of {n_lines} lines parse"]
    if name.endswith("_latency_s") and scan.latency_raw is not None:
        assert scan.latency_point is not None
        unit, note = latency_unit(scan.latency_raw, scan.latency_point)
        name = name.removesuffix("_latency_s") + f"_latency_{unit}"
        notes.append(note)
    else:
        unit = best.latency_unit if scan.latency_raw is not None else None
    if isinstance(best, W3CParser):
        name = _w3c_name(buf)
        if OFFSET_DIRECTIVE in name:
            notes.append(f"times are local ({name.partition(OFFSET_DIRECTIVE)[2].strip()}"
                         " from #GMT-Offset): UTC = local - offset")  # fmt: skip
    notes.extend(best.notes)
    if runner_up > 0:
        notes.append(f"runner-up {ranked[1][0].name} parses {runner_up:.1%}")
    confidence = fraction * (1.0 - 0.5 * runner_up)
    return Detection(name, confidence, fraction, unit, tuple(notes))


def _refuse(
    best: LineParser,
    scan: Scan,
    buf: np.ndarray,
    fraction: float,
) -> None:
    i = int(np.flatnonzero(scan.err != 0)[0])
    starts, ends = scan.starts, scan.ends
    line = bytes(buf[starts[i] : ends[i]]).decode("utf-8", "replace")[:500]
    latency_variant = best.name.endswith("_latency_s")
    closest = best.name.removesuffix("_latency_s") + ("_latency" if latency_variant else "")
    raise UnrecognisedLogError(
        f"no known format parses at least half of the first {starts.size} lines"
        f" (closest: {closest}, {fraction:.0%}); line {i + 1} fails: {scan.reason(i)}",
        closest_format=closest,
        line_number=i + 1,
        line=line,
    )


def _w3c_name(buf: np.ndarray) -> str:
    """`w3c:<first #Fields>[ #GMT-Offset: <first offset>]` so later chunks (which lack the
    header) read the same fields and times."""
    text = bytes(buf).decode("utf-8", "replace")
    fields = offset = None
    for line in text.splitlines():
        if line.startswith("#Fields:") and fields is None:
            fields = line.removeprefix("#Fields:").strip()
        if line.startswith(OFFSET_DIRECTIVE) and offset is None:
            offset = line.removeprefix(OFFSET_DIRECTIVE).strip()
    return w3c_name(fields, offset)


def check_format(sample: bytes, name: str) -> Detection:
    """Check a format the user named against the first 1,000 lines (no guessing).

    Raises LogInputError("unknown_format") for a name or format string that does not
    compile, UnrecognisedLogError when fewer than half of the lines parse with it.
    """
    parser = get_parser(name)
    lines = _sample_lines(sample)
    buf = as_buffer(lines)
    scan = parser.scan(buf)
    if scan.starts.size == 0:
        raise UnrecognisedLogError("the log is empty")
    fraction = _fraction(scan)
    if fraction < MIN_PARSED_FRACTION:
        _refuse(parser, scan, buf, fraction)
    notes = (f"format given: {fraction:.1%} of {scan.starts.size} lines parse", *parser.notes)
    return Detection(parser.name, fraction, fraction, parser.latency_unit, notes)
