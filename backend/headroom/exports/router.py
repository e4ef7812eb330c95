from typing import Annotated

from fastapi import APIRouter, Query

from headroom.api.deps import CurrentPrincipal, SessionDep
from headroom.core.ids import Id
from headroom.exports import service
from headroom.exports.schemas import ExportKind, ExportOut, ExportParams

router = APIRouter(tags=["exports"])
REFUSED: dict[int | str, dict[str, object]] = {  # FastAPI's `responses`
    422: {"description": "unsupported_export: this source has no such file (why)"}
}


@router.get(
    "/simulations/{simulation_id}/export/{kind}", response_model=ExportOut, responses=REFUSED
)
def export_simulation(
    simulation_id: Id,
    kind: ExportKind,
    params: Annotated[ExportParams, Query()],
    principal: CurrentPrincipal,
    session: SessionDep,
) -> ExportOut:
    """The run's scenario as a deployable file: its autoscaling (hpa, keda, aws), its
    admission and pool limits (haproxy, nginx, envoy, pools), its SLA (slo)."""
    return service.from_simulation(session, principal, simulation_id, kind, params)


@router.get(
    "/analyses/{analysis_id}/export/{kind}",
    response_model=ExportOut,
    responses={**REFUSED, 409: {"description": "analysis_not_done: no finished report"}},
)
def export_analysis(
    analysis_id: Id,
    kind: ExportKind,
    params: Annotated[ExportParams, Query()],
    principal: CurrentPrincipal,
    session: SessionDep,
) -> ExportOut:
    """A capacity analysis' MaxConn(T), MaxRate(T) and SLA (keda, haproxy, nginx, envoy,
    slo), or a concurrency analysis' best pool sizes (pools), as a deployable file."""
    return service.from_analysis(session, principal, analysis_id, kind, params)
