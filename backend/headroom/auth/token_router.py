from fastapi import APIRouter

from headroom.auth import tokens
from headroom.auth.schemas import ApiTokenCreate, ApiTokenCreated, ApiTokenOut
from headroom.core.deps import SessionDep, ViewerAccess
from headroom.core.errors import Forbidden
from headroom.core.ids import Id

router = APIRouter(prefix="/workspaces/{workspace_id}/tokens", tags=["tokens"])


@router.get("", response_model=list[ApiTokenOut])
def list_tokens(
    workspace_id: Id, principal: ViewerAccess, session: SessionDep
) -> list[ApiTokenOut]:
    return tokens.listing(session, principal, workspace_id)


@router.post("", response_model=ApiTokenCreated, status_code=201)
def create_token(
    workspace_id: Id, body: ApiTokenCreate, principal: ViewerAccess, session: SessionDep
) -> ApiTokenCreated:
    if principal.token_id is not None:
        raise Forbidden("create API tokens when signed in, not with another token")
    return tokens.create(session, principal, workspace_id, body)


@router.delete("/{token_id}", status_code=204)
def revoke_token(
    workspace_id: Id, token_id: Id, principal: ViewerAccess, session: SessionDep
) -> None:
    tokens.revoke(session, principal, workspace_id, token_id)
