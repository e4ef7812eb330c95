"""The receivers: OTLP/HTTP traces (`POST /otlp/v1/traces`, so an exporter's endpoint is
`<server>/api/v1/otlp`), log shippers' lines, and the per-service figures of traces."""

from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool

from headroom.api.deps import (
    CurrentPrincipal,
    EditorAccess,
    SessionDep,
    SettingsDep,
    StoreDep,
    principal_of,
)
from headroom.core.errors import HeadroomError, error_responses
from headroom.core.ids import Id
from headroom.telemetry import otlp_answers, service
from headroom.telemetry.bodies import UnsupportedMediaType, media_type, read_body
from headroom.telemetry.schemas import (
    CallGraphScenarioOut,
    LinesAccepted,
    ServiceStatsList,
    StreamIn,
    StreamOut,
)

router = APIRouter(tags=["telemetry"])

TRACES_BODY = {
    "content": {
        otlp_answers.PROTOBUF: {"schema": {"type": "string", "format": "binary"}},
        otlp_answers.JSON: {"schema": {"type": "object"}},
    },
    "description": "An OTLP ExportTraceServiceRequest (protobuf, or OTLP/JSON), optionally "
    "with Content-Encoding: gzip",
}
LINES_BODY = {
    "content": {
        "application/x-ndjson": {"schema": {"type": "string"}},
        "application/json": {"schema": {"type": "array", "items": {"type": "object"}}},
        "text/plain": {"schema": {"type": "string"}},
    },
    "description": "Log lines: NDJSON records, a JSON array of records (their `message` or "
    "`log` field is the line) or raw lines; optionally gzip (Content-Encoding)",
}
DATASET_HELP = "the trace dataset to append to (default: OpenTelemetry traces)"


@router.post(
    "/otlp/v1/traces",
    response_class=Response,
    responses={
        200: {
            "description": "An ExportTraceServiceResponse (partial_success counts rejected "
            "spans), in the request's encoding",
            "content": {otlp_answers.PROTOBUF: {}, otlp_answers.JSON: {}},
        },
        400: {"description": "The body is not an ExportTraceServiceRequest (a Status)"},
        413: {"description": "The body is too large (a Status)"},
        415: {"description": "Not protobuf or JSON, or an unknown Content-Encoding"},
    },
    openapi_extra={"requestBody": TRACES_BODY},
)
async def export_traces(
    request: Request,
    settings: SettingsDep,
    workspace_id: int | None = None,
    dataset: Annotated[str | None, Query(max_length=200, description=DATASET_HELP)] = None,
    x_headroom_dataset: Annotated[str | None, Header(max_length=200)] = None,
) -> Response:
    """OTLP/HTTP trace export with an API token (write scope): server spans and root spans
    become requests of a live dataset of the token's workspace. Errors are OTLP Status
    messages in the request's encoding."""
    is_json = media_type(request) == otlp_answers.JSON
    try:
        if media_type(request) not in (otlp_answers.PROTOBUF, otlp_answers.JSON):
            raise UnsupportedMediaType("send application/x-protobuf or application/json")
        principal = await run_in_threadpool(principal_of, request, settings)
        body = await read_body(request)
        answer = await to_thread.run_sync(
            service.export_traces,
            settings,
            principal,
            workspace_id,
            x_headroom_dataset or dataset,
            body,
            is_json,
        )
    except HeadroomError as error:
        return otlp_answers.failure(error, is_json)
    return otlp_answers.success(answer, is_json)


@router.post(
    "/telemetry/streams",
    response_model=StreamOut,
    status_code=201,
    responses={200: {"model": StreamOut, "description": "The stream exists already"}},
)
def create_stream(
    body: StreamIn, response: Response, principal: EditorAccess, session: SessionDep
) -> StreamOut:
    """A live dataset that log shippers (Vector, Fluent Bit) post lines to."""
    out, created = service.create_stream(session, principal, body)
    if not created:
        response.status_code = 200
    return out


@router.post(
    "/telemetry/streams/{dataset_id}/lines",
    response_model=LinesAccepted,
    responses={
        **error_responses(409, 413),
        415: {"description": "An unknown Content-Encoding"},
    },
    openapi_extra={"requestBody": LINES_BODY},
)
async def post_lines(
    dataset_id: Id, request: Request, principal: EditorAccess, settings: SettingsDep
) -> LinesAccepted:
    """Append shipped lines to the stream's dataset, parsed like an upload of its format."""
    body = await read_body(request)
    return await to_thread.run_sync(
        service.append_lines, settings, principal, dataset_id, body, media_type(request)
    )


@router.get("/telemetry/datasets/{dataset_id}/services", response_model=ServiceStatsList)
def service_stats(
    dataset_id: Id, principal: CurrentPrincipal, session: SessionDep, store: StoreDep
) -> ServiceStatsList:
    """Per service of a trace dataset (per server of another log): requests, error rate,
    latency percentiles and requests in flight (mean and peak)."""
    return service.service_stats(session, store, principal, dataset_id)


@router.get(
    "/telemetry/datasets/{dataset_id}/scenario",
    response_model=CallGraphScenarioOut,
    responses={422: {"description": "not_a_trace: the dataset holds no OpenTelemetry spans"}},
)
def call_graph_scenario(
    dataset_id: Id, principal: CurrentPrincipal, session: SessionDep, store: StoreDep
) -> CallGraphScenarioOut:
    """A multi-tier scenario from a trace dataset's call graph: a tier per service, in call
    order, with its self-time demand per root request (POST it to /simulations)."""
    return service.call_graph_scenario(session, store, principal, dataset_id)
