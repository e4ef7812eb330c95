"""The telemetry domain's entry points for the router. The work (polars, protobuf, the
parsers) is in telemetry.receivers, imported on first use so that the API starts without
those modules, like the analyses' engine."""

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore
from headroom.telemetry.schemas import (
    CallGraphScenarioOut,
    LinesAccepted,
    ServiceStatsList,
    StreamIn,
    StreamOut,
)

if TYPE_CHECKING:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )


def export_traces(
    settings: Settings,
    principal: Principal,
    workspace_id: int | None,
    name: str | None,
    body: bytes,
    is_json: bool,
) -> "ExportTraceServiceResponse":
    from headroom.telemetry import receivers

    return receivers.export_traces(settings, principal, workspace_id, name, body, is_json)


def create_stream(session: Session, principal: Principal, body: StreamIn) -> tuple[StreamOut, bool]:
    from headroom.telemetry import receivers

    return receivers.create_stream(session, principal, body)


def append_lines(
    settings: Settings, principal: Principal, dataset_id: int, body: bytes, media_type: str
) -> LinesAccepted:
    from headroom.telemetry import receivers

    return receivers.append_lines(settings, principal, dataset_id, body, media_type)


def service_stats(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int
) -> ServiceStatsList:
    from headroom.telemetry import receivers

    return receivers.service_stats(session, store, principal, dataset_id)


def call_graph_scenario(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int
) -> CallGraphScenarioOut:
    from headroom.telemetry import receivers

    return receivers.call_graph_scenario(session, store, principal, dataset_id)
