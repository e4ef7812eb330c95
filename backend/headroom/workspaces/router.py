from fastapi import APIRouter

from headroom.core.deps import CurrentPrincipal, SessionDep
from headroom.workspaces import service
from headroom.workspaces.schemas import WorkspaceRef

router = APIRouter(prefix="/workspaces", tags=["workspaces"])


@router.get("", response_model=list[WorkspaceRef])
def list_workspaces(principal: CurrentPrincipal, session: SessionDep) -> list[WorkspaceRef]:
    return service.visible(session, principal)
