from fastapi import APIRouter

from headroom.core.deps import CurrentPrincipal
from headroom.policies import service
from headroom.policies.schemas import BackgroundCompare, BackgroundComparison, BackgroundDemo

router = APIRouter(prefix="/policies", tags=["policies"])


@router.get("/background/demos", response_model=list[BackgroundDemo])
def list_background_demos(_: CurrentPrincipal) -> list[BackgroundDemo]:
    return list(service.DEMOS)


@router.post(
    "/background/compare",
    response_model=BackgroundComparison,
    responses={422: {"description": "bad_series: the CSV names the bad line"}},
)
async def compare_background(body: BackgroundCompare, _: CurrentPrincipal) -> BackgroundComparison:
    """The four background policies (none, suspend, static, adaptive) over one series."""
    return await service.compare_background(body)
