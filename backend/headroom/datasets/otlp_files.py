"""OTLP JSON files (the OpenTelemetry Collector's file exporter: one ExportTraceServiceRequest
in OTLP/JSON per line) read by the upload path: detected before the log formats, parsed
line by line into the request table of server and root spans (headroom.telemetry.spans)."""

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the parser's modules load with the parse, not with the API
    from headroom.engine.logs import Detection, ParsedChunk, Reject
    from headroom.engine.logs.records import Chunk

FORMAT = "otlp"
MARKERS = (b'{"resourceSpans"', b'{"resource_spans"')
NOTE = (
    "OTLP JSON lines (the Collector's file exporter): each server span and root span is a "
    "request (path: http.route, else the span name; server: service.name)"
)


def detection(sample: bytes) -> "Detection | None":
    """OTLP when the sample's first non-blank line is an export request."""
    first = next((line.strip() for line in sample.splitlines() if line.strip()), b"")
    if not first.startswith(MARKERS):
        return None
    from headroom.engine.logs import Detection

    return Detection(FORMAT, 1.0, 1.0, "ns", (NOTE,))


def parse(chunk: "Chunk") -> "ParsedChunk":
    """The chunk's spans as requests; a line that is not an export request is a reject.
    `line_count` counts lines (export requests), the table holds their spans."""
    import polars as pl

    from headroom.engine.logs import ParsedChunk
    from headroom.engine.logs.records import REJECTS_KEPT
    from headroom.telemetry import spans  # protobuf: loaded only for OTLP files

    tables: list[pl.DataFrame] = []
    rejects: list[Reject] = []
    lines = bytes(chunk.data).splitlines()
    blank = 0
    for offset, line in enumerate(lines):  # a line is a whole export batch, not one request
        if not line.strip():
            blank += 1
            continue
        try:
            tables.append(spans.tables(spans.decode(line, is_json=True)).requests)
        except (spans.UndecodableTraces, json.JSONDecodeError) as error:
            rejects.append(_reject(chunk.first_line_number + offset, str(error), line))
    table = pl.concat(tables) if tables else pl.DataFrame(schema=spans.TRACE_SCHEMA)
    return ParsedChunk(table, tuple(rejects[:REJECTS_KEPT]), len(lines), len(rejects), blank)


def _reject(line_number: int, reason: str, line: bytes) -> "Reject":
    from headroom.engine.logs import Reject
    from headroom.engine.logs.records import REJECT_TEXT_CHARS

    text = line[:REJECT_TEXT_CHARS].decode("utf-8", "replace")
    return Reject(line_number, f"not an OTLP export request: {reason[:200]}", text)
