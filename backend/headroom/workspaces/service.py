"""Workspaces and their members. Services never commit; the caller's unit of work does."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import Me
from headroom.core.errors import Forbidden, HeadroomError, NotFound
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


def change_role(
    session: Session, workspace_id: int, user_id: int, role: Role, actor_id: int | None = None
) -> MemberOut:
    members = _locked_members(session, workspace_id)
    _still_owner(members, actor_id)
    membership = _target(members, user_id)
    if membership.role == Role.owner and role != Role.owner:
        _keep_an_owner(members)
    membership.role = role.value
    session.flush()
    user = session.get(User, user_id)
    assert user is not None
    return _member_out(membership, user)


def remove(session: Session, workspace_id: int, user_id: int, actor_id: int | None = None) -> None:
    members = _locked_members(session, workspace_id)
    _still_owner(members, actor_id)
    membership = _target(members, user_id)
    if membership.role == Role.owner:
        _keep_an_owner(members)
    session.delete(membership)
    session.flush()


def leave(session: Session, workspace_id: int, user_id: int) -> None:
    """The member ends their own membership; the last owner cannot."""
    members = _locked_members(session, workspace_id)
    membership = _target(members, user_id)
    if membership.role == Role.owner and _owners(members) <= 1:
        raise LastOwner(
            "you are the last owner of this workspace: make another member owner before "
            "leaving (or ask them to)"
        )
    session.delete(membership)
    session.flush()


def _locked_members(session: Session, workspace_id: int) -> dict[int, Membership]:
    """The workspace's memberships by user, locked until the transaction ends (SELECT ...
    FOR UPDATE on PostgreSQL; SQLite serializes writers anyway), re-read from the database:
    two owners demoting or removing each other at once take turns, and the second sees the
    first's change, so the last-owner check cannot be raced."""
    rows = session.scalars(
        select(Membership)
        .where(Membership.workspace_id == workspace_id)
        .order_by(Membership.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {m.user_id: m for m in rows}


def _still_owner(members: dict[int, Membership], actor_id: int | None) -> None:
    """The caller's owner role, checked again under the lock (it may have just changed)."""
    if actor_id is None:
        return
    mine = members.get(actor_id)
    if mine is None or mine.role != Role.owner:
        raise Forbidden("you are no longer an owner of this workspace")


def _target(members: dict[int, Membership], user_id: int) -> Membership:
    membership = members.get(user_id)
    if membership is None:
        raise NotFound("no such member in this workspace")
    return membership


def _owners(members: dict[int, Membership]) -> int:
    return sum(m.role == Role.owner for m in members.values())


def _keep_an_owner(members: dict[int, Membership]) -> None:
    if _owners(members) <= 1:
        raise LastOwner("a workspace needs an owner: make another member owner first")


def _member_out(membership: Membership, user: User) -> MemberOut:
    return MemberOut(
        user_id=user.id,
        email=user.email,
        name=user.name,
        role=Role(membership.role).value,
        joined_at=membership.created_at,
    )
