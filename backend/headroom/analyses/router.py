from typing import Annotated

from fastapi import APIRouter, Query, Response
from sqlalchemy.orm import Session

from headroom.analyses import service
from headroom.analyses.schemas import (
    AnalysisOut,
    AnalysisPage,
    CapacityParamsIn,
    RecommendationList,
    RecommendationsIn,
    SctParamsIn,
)
from headroom.api.deps import CurrentPrincipal, EditorAccess, SessionDep, SettingsDep
from headroom.auth.principal import Principal
from headroom.core.ids import Id
from headroom.core.settings import Settings
from headroom.jobs import derived

router = APIRouter(tags=["analyses"])


@derived.create_route(
    router,
    "/datasets/{dataset_id}/analyses",
    AnalysisOut,
    "Same parameters: the existing analysis",
    {
        422: "no_latency: the log records no response times; log_too_short: "
        "the log spans fewer than 5 windows"
    },
)
def create_analysis(
    dataset_id: Id,
    params: CapacityParamsIn,
    response: Response,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> AnalysisOut:
    return _create(session, principal, settings, dataset_id, params, response)


@derived.create_route(
    router,
    "/datasets/{dataset_id}/analyses/sct",
    AnalysisOut,
    "Same parameters: the existing analysis",
    {422: "not_a_trace: the dataset is an access log, not a latency trace"},
)
def create_sct_analysis(
    dataset_id: Id,
    params: SctParamsIn,
    response: Response,
    principal: EditorAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> AnalysisOut:
    """The best pool size per server of a latency trace (SCT model and USL)."""
    return _create(session, principal, settings, dataset_id, params, response)


def _create(
    session: Session,
    principal: Principal,
    settings: Settings,
    dataset_id: Id,
    params: CapacityParamsIn | SctParamsIn,
    response: Response,
) -> AnalysisOut:
    analysis, started = service.start(session, principal, settings, dataset_id, params)
    derived.answer(response, started, f"/api/v1/analyses/{analysis.id}")
    return service.to_out(session, analysis)


@router.get("/datasets/{dataset_id}/analyses", response_model=AnalysisPage)
def list_analyses(
    dataset_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> AnalysisPage:
    return service.list_page(session, principal, dataset_id, limit, offset)


@router.get("/analyses/{analysis_id}", response_model=AnalysisOut)
def get_analysis(analysis_id: Id, principal: CurrentPrincipal, session: SessionDep) -> AnalysisOut:
    return service.to_out(session, service.get_visible(session, principal, analysis_id))


@router.post(
    "/analyses/{analysis_id}/recommendations",
    response_model=RecommendationList,
    responses={409: {"description": "analysis_not_done: the analysis has no finished report"}},
)
def get_recommendations(
    analysis_id: Id,
    principal: CurrentPrincipal,
    session: SessionDep,
    body: RecommendationsIn | None = None,
) -> RecommendationList:
    """The analysis' recommendations, computed from its report (nothing is stored): for a
    capacity analysis at the given SLA thresholds, for an SCT analysis per server."""
    thresholds = {} if body is None else dict(body.thresholds_s)
    return service.recommendations(session, principal, analysis_id, thresholds)
