from fastapi import APIRouter

from headroom.api.deps import CurrentPrincipal, SessionDep
from headroom.policies import service
from headroom.policies.schemas import BackgroundCompare, BackgroundComparison, BackgroundDemo

router = APIRouter(prefix="/policies", tags=["policies"])


@router.get("/background/demos", response_model=list[BackgroundDemo])
def list_background_demos(_: CurrentPrincipal) -> list[BackgroundDemo]:
    return list(service.DEMOS)


@router.post(
    "/background/compare",
    response_model=BackgroundComparison,
    responses={
        404: {
            "description": "not_found: no such simulation in your workspaces; not_ready: "
            "the simulation has not finished"
        },
        422: {"description": "bad_series: the CSV names the bad line; a sweep is not a run"},
    },
)
async def compare_background(
    body: BackgroundCompare, principal: CurrentPrincipal, session: SessionDep
) -> BackgroundComparison:
    """The four background policies (none, suspend, static, adaptive) over one series: a
    CSV, a demo, or a finished simulation run's utilization."""
    return await service.compare_background(session, principal, body)
