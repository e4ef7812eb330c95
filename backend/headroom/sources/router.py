from typing import Annotated

from fastapi import APIRouter, Body, Query, Response

from headroom.api.deps import (
    CurrentPrincipal,
    DatasetRead,
    EditorAccess,
    SessionDep,
    SettingsDep,
)
from headroom.core.ids import Id
from headroom.datasets.slices_query import Range
from headroom.sources import service
from headroom.sources.schemas import (
    BreachList,
    ConnectionTestOut,
    ImportRange,
    PrometheusLatencyOut,
    PrometheusSourceIn,
    PrometheusSourceOut,
    PrometheusSourceUpdate,
    PrometheusTrafficOut,
)
from headroom.workspaces.models import Role

router = APIRouter(prefix="/sources/prometheus", tags=["sources"])
NOT_FOUND: dict[int | str, dict[str, object]] = {
    404: {"description": "not_found: no such source in your workspaces"}
}


@router.get("", response_model=list[PrometheusSourceOut])
def list_sources(principal: CurrentPrincipal, session: SessionDep) -> list[PrometheusSourceOut]:
    """The Prometheus sources of the caller's workspaces (credentials never included)."""
    return service.list_sources(session, principal)


@router.post("", response_model=PrometheusSourceOut, status_code=201)
def create_source(
    body: PrometheusSourceIn, principal: EditorAccess, session: SessionDep, settings: SettingsDep
) -> PrometheusSourceOut:
    source = service.create(session, settings, principal, body)
    return service.to_out(session, source)


@router.get("/{source_id}", response_model=PrometheusSourceOut, responses=NOT_FOUND)
def get_source(
    source_id: Id, principal: CurrentPrincipal, session: SessionDep
) -> PrometheusSourceOut:
    return service.to_out(session, service.get_visible(session, principal, source_id))


@router.patch("/{source_id}", response_model=PrometheusSourceOut, responses=NOT_FOUND)
def update_source(
    source_id: Id,
    body: PrometheusSourceUpdate,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> PrometheusSourceOut:
    source = service.update(session, settings, principal, source_id, body)
    return service.to_out(session, source)


@router.delete("/{source_id}", status_code=204, responses=NOT_FOUND)
def delete_source(source_id: Id, principal: EditorAccess, session: SessionDep) -> Response:
    """The source goes; its dataset stays, no longer refreshed."""
    service.delete(session, principal, source_id)
    return Response(status_code=204)


@router.post("/{source_id}/test", response_model=ConnectionTestOut, responses=NOT_FOUND)
def test_source(
    source_id: Id, principal: EditorAccess, session: SessionDep, settings: SettingsDep
) -> ConnectionTestOut:
    """Asks the server for its version and counts the series the request selector matches."""
    source = service.get_visible(session, principal, source_id, Role.editor)
    return service.test_connection(settings, source)


@router.post(
    "/{source_id}/import", response_model=PrometheusSourceOut, status_code=202, responses=NOT_FOUND
)
def import_source(
    source_id: Id,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
    body: Annotated[ImportRange | None, Body()] = None,
) -> PrometheusSourceOut:
    """Queues an import now, of the given range or else of the source's rolling window;
    its job is in the answer."""
    source = service.import_now(session, settings, principal, source_id, body)
    return service.to_out(session, source)


@router.get(
    "/datasets/{dataset_id}/latency",
    response_model=PrometheusLatencyOut,
    responses={404: {"description": "not_found: no such dataset in your workspaces"}},
)
def dataset_latency(read: DatasetRead) -> PrometheusLatencyOut:
    """A source's dataset's latency percentiles per interval, with the histogram's bucket
    bounds (the percentiles are interpolated within them)."""
    return service.latency(*read)


@router.get(
    "/datasets/{dataset_id}/traffic",
    response_model=PrometheusTrafficOut,
    responses={404: {"description": "not_found: no such dataset in your workspaces"}},
)
def dataset_traffic(read: DatasetRead, range_: Range) -> PrometheusTrafficOut:
    """A source's dataset's requests, rates, error share and histogram percentiles over the
    intervals starting in the range, per class, with the rates per interval."""
    return service.traffic(*read, range_.from_ms, range_.to_ms)


@router.get("/{source_id}/breaches", response_model=BreachList, responses=NOT_FOUND)
def list_breaches(
    source_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> BreachList:
    """The SLA breaches the source's refreshes recorded (latest first), with the target
    they are checked against."""
    return service.list_breaches(session, principal, source_id, limit, offset)
