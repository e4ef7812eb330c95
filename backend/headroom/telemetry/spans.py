"""OTLP trace export requests (protobuf or OTLP/JSON) decoded into two tables: the requests
(server spans and root spans, in the request table's columns plus `service`, `trace_id`,
`span_id`, `parent_span_id`) and the links of every other span (to rebuild call graphs
whose spans arrive in different exports). docs/telemetry.md lists the mapping."""

import base64
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypedDict

import polars as pl
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from headroom.engine.logs import REQUEST_SCHEMA

SERVER, CLIENT = Span.SpanKind.SPAN_KIND_SERVER, Span.SpanKind.SPAN_KIND_CLIENT
ERROR = Status.StatusCode.STATUS_CODE_ERROR
UNKNOWN_SERVICE = "unknown_service"
ID_FIELDS = frozenset(
    {"traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id"}
)
EXTRA_SCHEMA: dict[str, pl.DataType] = {
    "service": pl.String(),
    "trace_id": pl.String(),
    "span_id": pl.String(),
    "parent_span_id": pl.String(),
}
TRACE_SCHEMA = {**REQUEST_SCHEMA, **EXTRA_SCHEMA}
LINK_SCHEMA: dict[str, pl.DataType] = {
    "trace_id": pl.String(),
    "span_id": pl.String(),
    "parent_span_id": pl.String(),
    "service": pl.String(),
    "kind": pl.Int8(),
    "start_ns": pl.Int64(),
    "end_ns": pl.Int64(),
}
ROUTE_KEYS = ("http.route", "url.template")
METHOD_KEYS = ("http.request.method", "http.method")
STATUS_KEYS = ("http.response.status_code", "http.status_code")
CLIENT_KEYS = ("client.address", "net.sock.peer.addr", "net.peer.ip")
INSTANCE_KEYS = ("service.instance.id", "host.name")


# an attribute's value as the rows read it (arrays and key-value lists are left out)
AttributeValue = str | bool | int | float | None


class RequestRowDict(TypedDict):  # a row of TRACE_SCHEMA (with `ts` in ns, cast after)
    ts: int
    client: str | None
    method: str | None
    path: str
    status: int | None
    latency_s: float
    server: str
    service: str
    trace_id: str
    span_id: str
    parent_span_id: str | None


class LinkRowDict(TypedDict):  # a row of LINK_SCHEMA
    trace_id: str
    span_id: str
    parent_span_id: str | None
    service: str
    kind: int
    start_ns: int
    end_ns: int


class UndecodableTraces(ValueError):
    """The body is not an ExportTraceServiceRequest in the declared encoding."""


def decode(body: bytes, is_json: bool) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    try:
        if is_json:
            document = json.loads(body)
            json_format.ParseDict(_ids_to_base64(document), request, ignore_unknown_fields=True)
        else:
            request.ParseFromString(body)
    except (DecodeError, json_format.ParseError, ValueError, TypeError, RecursionError) as error:
        raise UndecodableTraces(str(error) or type(error).__name__) from error
    return request


def _ids_to_base64(value: Any) -> Any:
    """OTLP/JSON writes trace and span ids as hex; protobuf's JSON mapping reads base64."""
    if isinstance(value, list):
        return [_ids_to_base64(v) for v in value]
    if not isinstance(value, dict):
        return value
    return {
        k: _hex_to_base64(v) if k in ID_FIELDS and isinstance(v, str) else _ids_to_base64(v)
        for k, v in value.items()
    }


def _hex_to_base64(text: str) -> str:
    try:
        return base64.b64encode(bytes.fromhex(text)).decode()
    except ValueError as error:
        raise ValueError(f"span/trace id {text[:40]!r} is not hex") from error


def to_json(message: Any) -> bytes:
    """A response message in OTLP/JSON (lowerCamelCase, defaults left out)."""
    return json_format.MessageToJson(message, indent=None).encode()


@dataclass(frozen=True)
class SpanTables:
    requests: pl.DataFrame
    links: pl.DataFrame
    rejected: int
    reason: str


def tables(request: ExportTraceServiceRequest) -> SpanTables:
    """The requests and the links of the export, and how many spans were rejected (bad ids,
    no start time, an end before the start) with the first reason."""
    rows: list[RequestRowDict] = []
    links: list[LinkRowDict] = []
    rejected, reason = 0, ""
    for resource_spans in request.resource_spans:
        resource = _attributes(resource_spans.resource.attributes)
        service = str(resource.get("service.name") or UNKNOWN_SERVICE)
        instance = next((str(resource[k]) for k in INSTANCE_KEYS if resource.get(k)), None)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                why = _invalid(span)
                if why:
                    rejected, reason = rejected + 1, reason or why
                elif span.kind == SERVER or not span.parent_span_id:
                    rows.append(_request_row(span, service, instance))
                else:
                    links.append(_link_row(span, service))
    requests = pl.DataFrame(rows, schema={**TRACE_SCHEMA, "ts": pl.Int64()})
    return SpanTables(
        requests.with_columns(pl.col("ts").cast(TRACE_SCHEMA["ts"])).sort("ts"),
        pl.DataFrame(links, schema=LINK_SCHEMA),
        rejected,
        reason,
    )


def _invalid(span: Span) -> str:
    if len(span.trace_id) != 16 or len(span.span_id) != 8:
        return "a span without a 16-byte trace id and an 8-byte span id"
    if span.parent_span_id and len(span.parent_span_id) != 8:
        return "a parent span id that is not 8 bytes"
    if span.start_time_unix_nano == 0 or span.end_time_unix_nano < span.start_time_unix_nano:
        return "a span without a start time, or ending before it starts"
    return ""


def _request_row(span: Span, service: str, instance: str | None) -> RequestRowDict:
    attrs = _attributes(span.attributes)
    status = _first(attrs, STATUS_KEYS)
    if status is None:  # no HTTP status: the span's own status stands for it
        status = 500 if span.status.code == ERROR else 200
    return {
        "ts": span.start_time_unix_nano,
        "client": _text(_first(attrs, CLIENT_KEYS)),
        "method": _text(_first(attrs, METHOD_KEYS)),
        "path": str(_first(attrs, ROUTE_KEYS) or span.name),
        "status": _status(status),
        "latency_s": (span.end_time_unix_nano - span.start_time_unix_nano) / 1e9,
        "server": service if instance is None else f"{service}/{instance}",
        "service": service,
        "trace_id": span.trace_id.hex(),
        "span_id": span.span_id.hex(),
        "parent_span_id": span.parent_span_id.hex() or None,
    }


def _link_row(span: Span, service: str) -> LinkRowDict:
    return {
        "trace_id": span.trace_id.hex(),
        "span_id": span.span_id.hex(),
        "parent_span_id": span.parent_span_id.hex() or None,
        "service": service,
        "kind": int(span.kind),
        "start_ns": span.start_time_unix_nano,
        "end_ns": span.end_time_unix_nano,
    }


def _status(value: AttributeValue) -> int | None:
    if value is None:
        return None
    try:
        code = int(value)
    except (TypeError, ValueError):
        return None
    return code if 0 <= code < 1000 else None


def _text(value: AttributeValue) -> str | None:
    return None if value is None else str(value)


def _first(attrs: dict[str, AttributeValue], keys: tuple[str, ...]) -> AttributeValue:
    return next((attrs[k] for k in keys if attrs.get(k) is not None), None)


def _attributes(pairs: Iterable[KeyValue]) -> dict[str, AttributeValue]:
    return {kv.key: _value(kv.value) for kv in pairs if isinstance(kv, KeyValue)}


def _value(value: AnyValue) -> AttributeValue:
    which = value.WhichOneof("value")
    if which in ("string_value", "bool_value", "int_value", "double_value"):
        found: AttributeValue = getattr(value, which)
        return found
    return None
