"""API tokens managed by their users: create (the secret shown once), list, revoke.

A token never grants more than its creator's role: a viewer can only create read tokens,
an editor read/write ones. Owners see and may revoke every token of their workspace."""

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth import repository, service
from headroom.auth.models import ApiToken, User
from headroom.auth.principal import ROLE_FOR_SCOPE, Caller, Principal
from headroom.auth.schemas import ApiTokenCreated, ApiTokenIn, ApiTokenOut, UserRef
from headroom.core.errors import Forbidden, NotFound
from headroom.workspaces.models import Role, Workspace


def create(
    session: Session, principal: Principal, workspace_id: int, body: ApiTokenIn
) -> ApiTokenCreated:
    role = principal.effective_role(workspace_id)
    too_high = [s for s in body.scopes if role is None or ROLE_FOR_SCOPE[s].rank > role.rank]
    if too_high:
        raise Forbidden(
            f"scope {too_high[0]!r} is above your role in this workspace", field="scopes"
        )
    workspace = session.get(Workspace, workspace_id)
    assert workspace is not None
    row, secret = service.issue_api_token(
        session, principal.user, workspace, list(body.scopes), body.name, body.expires_days
    )
    return ApiTokenCreated(**to_out(row, principal.user).model_dump(), token=secret)


def listing(session: Session, principal: Principal, workspace_id: int) -> list[ApiTokenOut]:
    query = (
        select(ApiToken, User)
        .join(User, User.id == ApiToken.user_id)
        .where(ApiToken.workspace_id == workspace_id)
        .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
    )
    if not principal.allows(workspace_id, Role.owner):
        query = query.where(ApiToken.user_id == principal.user.id)
    return [to_out(t, u) for t, u in session.execute(query)]


def revoke(session: Session, principal: Principal, workspace_id: int, token_id: int) -> None:
    """Owners revoke any token of the workspace, others only their own (else 404)."""
    anyones = principal.allows(workspace_id, Role.owner)
    user_id = None if anyones else principal.user.id
    token = repository.workspace_token(session, workspace_id, token_id, user_id)
    if token is None:
        raise NotFound("no such token in this workspace")
    if token.revoked_at is None:
        token.revoked_at = datetime.now(UTC)


def to_out(token: ApiToken, owner: User | Caller) -> ApiTokenOut:
    return ApiTokenOut(
        id=token.id,
        workspace_id=token.workspace_id,
        name=token.name,
        prefix=token.prefix,
        scopes=token.scopes.split(),
        created_at=token.created_at,
        last_used_at=token.last_used_at,
        expires_at=token.expires_at,
        revoked_at=token.revoked_at,
        owner=UserRef.model_validate(owner),
    )
