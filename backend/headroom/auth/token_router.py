from typing import Annotated

from fastapi import APIRouter, Depends

from headroom.api.deps import SessionDep, ViewerAccess
from headroom.auth import tokens
from headroom.auth.principal import Principal
from headroom.auth.schemas import ApiTokenCreated, ApiTokenIn, ApiTokenOut
from headroom.core.errors import Forbidden
from headroom.core.ids import Id

router = APIRouter(prefix="/workspaces/{workspace_id}/tokens", tags=["tokens"])


def token_manager(principal: ViewerAccess) -> Principal:
    """Tokens are managed when signed in, or with a token of the admin scope: a read or
    write token must not list, mint or revoke its owner's other tokens."""
    if principal.token_scopes is not None and "admin" not in principal.token_scopes:
        raise Forbidden("managing API tokens needs a sign-in or a token with the admin scope")
    return principal


def token_minter(principal: ViewerAccess) -> Principal:
    """Tokens are minted only when signed in (refused before the body is read)."""
    if principal.token_id is not None:
        raise Forbidden("create API tokens when signed in, not with another token")
    return principal


TokenManager = Annotated[Principal, Depends(token_manager)]
TokenMinter = Annotated[Principal, Depends(token_minter)]


@router.get("", response_model=list[ApiTokenOut])
def list_tokens(
    workspace_id: Id, principal: TokenManager, session: SessionDep
) -> list[ApiTokenOut]:
    return tokens.listing(session, principal, workspace_id)


@router.post("", response_model=ApiTokenCreated, status_code=201)
def create_token(
    workspace_id: Id, body: ApiTokenIn, principal: TokenMinter, session: SessionDep
) -> ApiTokenCreated:
    return tokens.create(session, principal, workspace_id, body)


@router.delete("/{token_id}", status_code=204)
def revoke_token(
    workspace_id: Id, token_id: Id, principal: TokenManager, session: SessionDep
) -> None:
    tokens.revoke(session, principal, workspace_id, token_id)
