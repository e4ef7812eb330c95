"""The receivers: OTLP trace exports and log shippers' lines appended to live datasets, the
per-service figures and the call-graph scenario of a trace dataset (polars and protobuf:
loaded on first use through telemetry.service)."""

from dataclasses import asdict
from datetime import datetime

import numpy as np
import polars as pl
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceResponse,
)
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError, InvalidInput, NotFound, NotReady
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets import parse_options
from headroom.datasets import service as dataset_service
from headroom.datasets.ingest_outputs import detection_meta
from headroom.datasets.meta import DatasetMetaJson, DetectionJson, live_of, updated
from headroom.datasets.models import Dataset
from headroom.datasets.parse_options import ParseOptions
from headroom.engine.logs import LogInputError, check_format, detect_format, parse_chunk
from headroom.telemetry import callgraph, repository, rolling, shipped, spans, stats
from headroom.telemetry.bodies import BadPayload
from headroom.telemetry.schemas import (
    CallGraphScenarioOut,
    LinesAccepted,
    ServiceStatsList,
    ServiceStatsOut,
    StreamIn,
    StreamOut,
    TierOut,
)
from headroom.workspaces.models import Role

OTLP = "otlp"
STREAM = "stream"
DEFAULT_TRACES_NAME = "OpenTelemetry traces"
OTLP_NOTES = (
    "OTLP traces: each server span (kind SERVER) and each root span is a request; its path "
    "is the http.route attribute (else the span name), its status the HTTP status code "
    "attribute (else 500 for an error status, 200 otherwise), its server the resource's "
    "service.name (with service.instance.id or host.name when set)",
)
OTLP_DETECTION: DetectionJson = {
    "format": OTLP,
    "confidence": 1.0,
    "parsed_fraction": 1.0,
    "latency_unit": "ns",
    "notes": list(OTLP_NOTES),
}


class NotAStream(HeadroomError):
    status_code, code = 409, "not_a_stream"


class StreamOptionsDiffer(HeadroomError):
    status_code, code = 409, "parse_options_differ"


def workspace_for(principal: Principal, workspace_id: int | None) -> int:
    """The workspace a receiver writes to: the token's own, or the one named."""
    workspace_id = dataset_service.resolve_workspace(principal, workspace_id)
    principal.require(workspace_id, Role.editor)
    return workspace_id


def export_traces(
    settings: Settings,
    principal: Principal,
    workspace_id: int | None,
    name: str | None,
    body: bytes,
    is_json: bool,
) -> ExportTraceServiceResponse:
    """Append the export's requests to the workspace's trace dataset `name`; spans that are
    not valid are counted in partial_success (the rest are kept)."""
    workspace_id = workspace_for(principal, workspace_id)
    try:
        tables = spans.tables(spans.decode(body, is_json))
    except spans.UndecodableTraces as error:
        raise BadPayload(f"not an OTLP ExportTraceServiceRequest: {error}") from error
    url, store = settings.resolved_database_url(), open_store(settings.resolved_storage_url())
    meta: DatasetMetaJson = {
        "detection": OTLP_DETECTION,
        parse_options.META_KEY: ParseOptions(OTLP).to_meta(),
    }
    with session_scope(url) as session:
        dataset, _ = rolling.get_or_create(
            session, principal, workspace_id, OTLP, name or DEFAULT_TRACES_NAME, meta, OTLP
        )
        dataset_id = dataset.id
    with rolling.dataset_lock(dataset_id), session_scope(url) as session:
        dataset = _live(session, dataset_id)
        rolling.append(session, store, dataset, tables.requests, len(body))
        rolling.append_links(session, store, dataset, tables.links)
        _note_services(dataset, tables.requests)
    response = ExportTraceServiceResponse()
    if tables.rejected:
        response.partial_success.rejected_spans = tables.rejected
        response.partial_success.error_message = (
            f"{tables.rejected} spans rejected: {tables.reason}"
        )
    return response


def _live(session: Session, dataset_id: int) -> Dataset:
    dataset = session.get(Dataset, dataset_id)
    if dataset is None:
        raise NotFound(f"dataset {dataset_id} was deleted just now")
    return dataset


def _note_services(dataset: Dataset, requests: pl.DataFrame) -> None:
    live = live_of(dataset.meta)
    seen = set(live.get("services") or []) | set(requests["service"].drop_nulls().unique())
    live["services"] = sorted(seen)
    dataset.meta = updated(dataset.meta, live=live)


def create_stream(session: Session, principal: Principal, body: StreamIn) -> tuple[StreamOut, bool]:
    """A live dataset for log lines (the existing one when the name is taken with the same
    options; 409 when with others)."""
    workspace_id = workspace_for(principal, body.workspace_id)
    options = parse_options.resolve(body.format, body.log_format)
    error = parse_options.compile_error(options)
    if error is not None:
        raise parse_options.refusal(error)
    meta: DatasetMetaJson = {parse_options.META_KEY: options.to_meta()}
    dataset, created = rolling.get_or_create(
        session, principal, workspace_id, STREAM, body.name, meta, options.parser_name
    )
    if not created and parse_options.from_meta(dataset.meta) != options:
        raise StreamOptionsDiffer(
            f"stream {body.name!r} exists (dataset {dataset.id}) with other parse options",
            detail={"dataset_id": dataset.id},
        )
    out = StreamOut(
        dataset=dataset_service.to_out(session, dataset),
        lines_url=f"/api/v1/telemetry/streams/{dataset.id}/lines",
    )
    return out, created


def append_lines(
    settings: Settings, principal: Principal, dataset_id: int, body: bytes, media_type: str
) -> LinesAccepted:
    """Parse the shipped lines with the stream's format (detected from the first post when
    the stream names none) and append them to its dataset."""
    url, store = settings.resolved_database_url(), open_store(settings.resolved_storage_url())
    with session_scope(url) as session:
        _stream(session, principal, dataset_id)
    data = shipped.lines_of(body, media_type)
    with rolling.dataset_lock(dataset_id), session_scope(url) as session:
        dataset = _live(session, dataset_id)
        return _append_parsed(session, store, dataset, data, len(body))


def _stream(session: Session, principal: Principal, dataset_id: int) -> Dataset:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    if live_of(dataset.meta).get("kind") != STREAM:
        raise NotAStream(
            f"dataset {dataset_id} is not a stream: create one with POST /telemetry/streams",
            detail={"dataset_id": dataset_id},
        )
    return dataset


def _append_parsed(
    session: Session, store: ObjectStore, dataset: Dataset, data: bytes, size: int
) -> LinesAccepted:
    live = live_of(dataset.meta)
    received = int(live.get("lines_received") or 0)
    fmt = _stream_format(dataset, data) if data else (dataset.format or "")
    if data:
        parsed = parse_chunk(data, fmt, first_line_number=received + 1)
        table, rejects = parsed.table, (parsed.reject_count, list(parsed.rejects))
        lines, skipped = parsed.line_count, parsed.skip_count
    else:
        table, rejects, lines, skipped = pl.DataFrame(), (0, []), 0, 0
    live["lines_received"] = received + lines
    dataset.meta = updated(dataset.meta, live=live)
    document = rolling.append(session, store, dataset, table, size, rejects)
    updated_at = live_of(dataset.meta)["updated_at"]
    return LinesAccepted(
        dataset_id=dataset.id,
        lines=lines,
        accepted=table.height,
        rejected=rejects[0],
        skipped=skipped,
        format=fmt,
        request_count=int(document.get("request_count") or 0),
        updated_at=datetime.fromisoformat(str(updated_at)),  # set by the append
    )


def _stream_format(dataset: Dataset, data: bytes) -> str:
    """The stream's parser: decided (and recorded) from the first lines it receives."""
    if (dataset.meta or {}).get("detection"):
        return dataset.format or ""
    name = parse_options.from_meta(dataset.meta).parser_name
    try:
        detection = detect_format(data) if name is None else check_format(data, name)
    except LogInputError as error:
        raise InvalidInput(error.code, f"the lines do not parse: {error.message}") from error
    dataset.format = detection.format
    dataset.meta = updated(dataset.meta, detection=detection_meta(detection))
    return detection.format


def service_stats(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int
) -> ServiceStatsList:
    """Per service: requests, error rate, latency percentiles and concurrency."""
    table = _trace_table(session, store, principal, dataset_id, ["ts", "latency_s", "status"])
    items = [ServiceStatsOut(**asdict(s)) for s in stats.per_service(table)]
    return ServiceStatsList(dataset_id=dataset_id, items=items)


def _trace_table(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int, columns: list[str]
) -> pl.DataFrame:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    result = dataset_service.ingest_result(session, dataset.id)
    if result is None or not result.table_keys:
        raise NotReady(f"dataset {dataset_id} has no requests yet")
    lazy = store.scan_parquet(list(result.table_keys))
    names = lazy.collect_schema().names()
    service = pl.col("service") if "service" in names else pl.col("server")
    if "server" not in names and "service" not in names:
        service = pl.lit(None, pl.String)
    return lazy.select(*[c for c in columns if c in names], service.alias("service")).collect()


TRACE_COLUMNS = ("trace_id", "span_id", "parent_span_id", "service", "server", "ts", "latency_s")


class NotATraceDataset(HeadroomError):
    status_code, code = 422, "not_a_trace"


def call_graph_scenario(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int
) -> CallGraphScenarioOut:
    """The multi-tier scenario of an OpenTelemetry trace dataset: a tier per service (in
    call order), each with its self-time demand per root request; root requests arrive at
    their mean rate over the trace."""
    from headroom.engine.sim.scenario import Scenario

    dataset = dataset_service.get_visible(session, principal, dataset_id)
    result = dataset_service.ingest_result(session, dataset.id)
    lazy = store.scan_parquet(list(result.table_keys)) if result and result.table_keys else None
    if lazy is None or not set(TRACE_COLUMNS) <= set(lazy.collect_schema().names()):
        raise NotATraceDataset(
            f"dataset {dataset_id} holds no OpenTelemetry spans (trace and span ids)",
            field="dataset_id",
        )
    links_result = repository.result_of_kind(session, dataset.id, rolling.LINKS_JOB)
    links = pl.DataFrame(schema=spans.LINK_SCHEMA)
    if links_result is not None and links_result.table_keys:
        links = store.scan_parquet(list(links_result.table_keys)).collect()
    graph = callgraph.call_graph(lazy.select(TRACE_COLUMNS).collect(), links)
    if not graph.tiers or not graph.roots:
        raise NotATraceDataset(f"dataset {dataset_id} has no root requests", field="dataset_id")
    document = _scenario_document(dataset.name, graph)
    Scenario.model_validate(document)
    return CallGraphScenarioOut(
        dataset_id=dataset.id,
        roots=graph.roots,
        span_s=graph.span_s,
        tiers=[_tier_out(t) for t in graph.tiers],
        scenario=document,
    )


def _scenario_document(name: str, graph: callgraph.CallGraph) -> dict[str, object]:
    tiers = [
        {
            "name": t.service,
            "vms": {"min": t.instances, "max": t.instances, "start": t.instances},
            "service_s": {"dist": "empirical", "values": t.demand_s},
        }
        for t in graph.tiers
    ]
    return {
        "name": f"{name}: call graph",
        "duration_s": max(float(np.ceil(graph.span_s)), 1.0),
        "seed": 0,
        "workload": {
            "arrivals": {"rate_per_s": graph.roots / graph.span_s},
            "service_s": tiers[0]["service_s"],
        },
        "cluster": {"tiers": tiers},
    }


def _tier_out(tier: callgraph.TierDemand) -> TierOut:
    return TierOut(
        service=tier.service,
        depth=tier.depth,
        instances=tier.instances,
        requests=tier.requests,
        self_time_mean_s=tier.self_time_mean_s,
        demand_mean_s=float(np.mean(tier.demand_s)),
    )
