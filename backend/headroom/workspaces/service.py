"""Workspaces and their members. Services never commit; the caller's unit of work does."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import Me
from headroom.core.errors import HeadroomError, NotFound
from headroom.workspaces.models import Membership, Role, Workspace
from headroom.workspaces.schemas import MemberOut, WorkspaceRef


class LastOwner(HeadroomError):
    status_code, code = 409, "last_owner"


def visible(session: Session, principal: Principal) -> list[WorkspaceRef]:
    rows = session.scalars(
        select(Workspace).where(Workspace.id.in_(principal.workspace_ids)).order_by(Workspace.id)
    )
    return [WorkspaceRef(id=w.id, name=w.name, role=principal.roles[w.id].value) for w in rows]


def me(session: Session, principal: Principal) -> Me:
    user = principal.user
    return Me(id=user.id, email=user.email, name=user.name, workspaces=visible(session, principal))


def create(session: Session, name: str) -> Workspace:
    workspace = Workspace(name=name)
    session.add(workspace)
    session.flush()
    return workspace


def create_owned(session: Session, principal: Principal, name: str) -> WorkspaceRef:
    """A new workspace whose only member, as owner, is the caller."""
    workspace = create(session, name.strip())
    session.add(Membership(user_id=principal.user.id, workspace_id=workspace.id, role="owner"))
    session.flush()
    return WorkspaceRef(id=workspace.id, name=workspace.name, role="owner")


def by_name(session: Session, name: str) -> Workspace | None:
    return session.scalar(select(Workspace).where(Workspace.name == name))


def members(session: Session, workspace_id: int) -> list[MemberOut]:
    rows = session.execute(
        select(Membership, User)
        .join(User, User.id == Membership.user_id)
        .where(Membership.workspace_id == workspace_id)
        .order_by(User.email)
    )
    return [_member_out(m, u) for m, u in rows]


def change_role(session: Session, workspace_id: int, user_id: int, role: Role) -> MemberOut:
    membership = _membership(session, workspace_id, user_id)
    if membership.role == Role.owner and role != Role.owner:
        _keep_an_owner(session, workspace_id)
    membership.role = role.value
    session.flush()
    user = session.get(User, user_id)
    assert user is not None
    return _member_out(membership, user)


def remove(session: Session, workspace_id: int, user_id: int) -> None:
    membership = _membership(session, workspace_id, user_id)
    if membership.role == Role.owner:
        _keep_an_owner(session, workspace_id)
    session.delete(membership)
    session.flush()


def _membership(session: Session, workspace_id: int, user_id: int) -> Membership:
    membership = session.scalar(
        select(Membership).where(
            Membership.workspace_id == workspace_id, Membership.user_id == user_id
        )
    )
    if membership is None:
        raise NotFound("no such member in this workspace")
    return membership


def _keep_an_owner(session: Session, workspace_id: int) -> None:
    owners = session.scalar(
        select(func.count())
        .select_from(Membership)
        .where(Membership.workspace_id == workspace_id, Membership.role == Role.owner.value)
    )
    if (owners or 0) <= 1:
        raise LastOwner("a workspace needs an owner: make another member owner first")


def _member_out(membership: Membership, user: User) -> MemberOut:
    return MemberOut(
        user_id=user.id,
        email=user.email,
        name=user.name,
        role=Role(membership.role).value,
        joined_at=membership.created_at,
    )
