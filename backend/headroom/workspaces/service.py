from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.auth.schemas import Me
from headroom.workspaces.models import Workspace
from headroom.workspaces.schemas import WorkspaceRef


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


def by_name(session: Session, name: str) -> Workspace | None:
    return session.scalar(select(Workspace).where(Workspace.name == name))
