"""Workspaces, members and invitations (the token routes live in auth.token_router)."""

from fastapi import APIRouter, Request, Response

from headroom.api.deps import (
    CurrentPrincipal,
    OptionalPrincipal,
    OwnerAccess,
    SessionDep,
    SettingsDep,
    ViewerAccess,
)
from headroom.auth import service as auth_service
from headroom.auth.cookies import set_session_cookie
from headroom.auth.models import User
from headroom.auth.principal import Caller
from headroom.auth.schemas import Me
from headroom.auth.token_router import router as token_router
from headroom.core.errors import Forbidden, NotAuthenticated, error_responses
from headroom.core.ids import Id
from headroom.workspaces import invitations, mail, service
from headroom.workspaces.models import Role, Workspace
from headroom.workspaces.schemas import (
    InvitationAccept,
    InvitationCreated,
    InvitationIn,
    InvitationOut,
    InvitationPreview,
    MemberOut,
    MemberUpdate,
    WorkspaceIn,
    WorkspaceRef,
)

workspaces = APIRouter(prefix="/workspaces", tags=["workspaces"])
public = APIRouter(prefix="/invitations", tags=["workspaces"])


@workspaces.get("", response_model=list[WorkspaceRef])
def list_workspaces(principal: CurrentPrincipal, session: SessionDep) -> list[WorkspaceRef]:
    return service.visible(session, principal)


@workspaces.post("", response_model=WorkspaceRef, status_code=201)
def create_workspace(
    body: WorkspaceIn, principal: CurrentPrincipal, session: SessionDep
) -> WorkspaceRef:
    if principal.token_id is not None:
        raise Forbidden("create workspaces when signed in, not with an API token")
    return service.create_owned(session, principal, body.name)


@workspaces.get("/{workspace_id}/members", response_model=list[MemberOut])
def list_members(workspace_id: Id, _: ViewerAccess, session: SessionDep) -> list[MemberOut]:
    return service.members(session, workspace_id)


@workspaces.patch(
    "/{workspace_id}/members/{user_id}", response_model=MemberOut, responses=error_responses(409)
)
def change_member_role(
    workspace_id: Id, user_id: Id, body: MemberUpdate, principal: OwnerAccess, session: SessionDep
) -> MemberOut:
    role = Role(body.role)
    return service.change_role(session, workspace_id, user_id, role, principal.user.id)


@workspaces.delete(
    "/{workspace_id}/members/{user_id}", status_code=204, responses=error_responses(409)
)
def remove_member(
    workspace_id: Id, user_id: Id, principal: ViewerAccess, session: SessionDep
) -> None:
    """An owner removes a member; any member removes themselves: leaves the workspace
    (signed in, not with an API token). The last owner can do neither (409 last_owner)."""
    if user_id != principal.user.id:
        principal.require(workspace_id, Role.owner)
        service.remove(session, workspace_id, user_id, principal.user.id)
        return
    if principal.token_id is not None:
        raise Forbidden("leave a workspace when signed in, not with an API token")
    service.leave(session, workspace_id, user_id)


@workspaces.get("/{workspace_id}/invitations", response_model=list[InvitationOut])
def list_invitations(workspace_id: Id, _: OwnerAccess, session: SessionDep) -> list[InvitationOut]:
    return invitations.listing(session, workspace_id)


@workspaces.post(
    "/{workspace_id}/invitations",
    response_model=InvitationCreated,
    status_code=201,
    responses=error_responses(409),
)
def invite(
    workspace_id: Id,
    body: InvitationIn,
    request: Request,
    principal: OwnerAccess,
    session: SessionDep,
    settings: SettingsDep,
) -> InvitationCreated:
    invitation, token = invitations.create(
        session, workspace_id, principal.user, body, settings.invitation_ttl_s
    )
    base = settings.public_url.rstrip("/") or str(request.base_url).rstrip("/")
    url = f"{base}{invitations.INVITE_PATH}{token}"
    workspace = session.get(Workspace, workspace_id)
    assert workspace is not None
    emailed = mail.send_invitation(settings, invitation.email, workspace.name, url)
    out = invitations.to_out(invitation).model_dump()
    return InvitationCreated(**out, url=url, emailed=emailed)


@workspaces.delete("/{workspace_id}/invitations/{invitation_id}", status_code=204)
def revoke_invitation(
    workspace_id: Id, invitation_id: Id, _: OwnerAccess, session: SessionDep
) -> None:
    invitations.revoke(session, workspace_id, invitation_id)


@public.get("/{token}", response_model=InvitationPreview)
def preview_invitation(token: str, session: SessionDep) -> InvitationPreview:
    return invitations.preview(session, token)


@public.post("/{token}/accept", response_model=Me, responses=error_responses(409))
def accept_invitation(
    token: str,
    body: InvitationAccept,
    request: Request,
    response: Response,
    principal: OptionalPrincipal,
    session: SessionDep,
    settings: SettingsDep,
) -> Me:
    user: User | Caller
    if principal is not None:
        invitations.accept(session, token, principal.user)
        user = principal.user
    elif body.password:
        user = invitations.accept_new_account(session, token, body.password, body.name)
        cookie = auth_service.start_session(session, user, settings.session_ttl_s)
        set_session_cookie(response, request, settings, cookie)
    else:
        raise NotAuthenticated("sign in as the invited address, or choose a password")
    return service.me(session, auth_service.principal_for_user(session, user))


router = APIRouter()
router.include_router(workspaces)
router.include_router(token_router)
router.include_router(public)
