"""Invitations: an owner invites an e-mail address; the single-use, expiring link creates
the membership when the invitee accepts it (signed in as that address, or by creating the
account from the link). Only the token's sha256 is stored; lookups compare digests."""

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from headroom.auth import repository as auth_repository
from headroom.auth import service as auth_service
from headroom.auth.models import User
from headroom.auth.principal import Caller
from headroom.core.errors import Forbidden, HeadroomError, NotFound
from headroom.core.security import new_token, same_digest, token_digest
from headroom.workspaces.models import Invitation, Membership, Role, Workspace
from headroom.workspaces.schemas import (
    InvitationIn,
    InvitationOut,
    InvitationPreview,
)

INVITE_PATH = "/invite/"


class AccountExists(HeadroomError):
    status_code, code = 409, "account_exists"


class AlreadyMember(HeadroomError):
    status_code, code = 409, "already_member"


def create(
    session: Session, workspace_id: int, inviter: User | Caller, body: InvitationIn, ttl_s: int
) -> tuple[Invitation, str]:
    """Returns the invitation and its token (the only time the token exists in clear)."""
    email = body.email.strip().lower()
    if _member_email(session, workspace_id, email):
        raise AlreadyMember(f"{email} is already a member of this workspace", field="email")
    token = new_token()
    invitation = Invitation(
        workspace_id=workspace_id,
        email=email,
        role=Role(body.role).value,
        token_hash=token_digest(token),
        invited_by_id=inviter.id,
        expires_at=datetime.now(UTC) + timedelta(seconds=ttl_s),
    )
    session.add(invitation)
    session.flush()
    return invitation, token


def listing(session: Session, workspace_id: int) -> list[InvitationOut]:
    rows = session.scalars(
        select(Invitation)
        .where(Invitation.workspace_id == workspace_id)
        .order_by(Invitation.created_at.desc(), Invitation.id.desc())
    )
    return [to_out(i) for i in rows]


def revoke(session: Session, workspace_id: int, invitation_id: int) -> None:
    invitation = session.get(Invitation, invitation_id)
    if invitation is None or invitation.workspace_id != workspace_id:
        raise NotFound("no such invitation in this workspace")
    if invitation.accepted_at is None and invitation.revoked_at is None:
        invitation.revoked_at = datetime.now(UTC)


def preview(session: Session, token: str) -> InvitationPreview:
    invitation = _pending(session, token)
    workspace = session.get(Workspace, invitation.workspace_id)
    assert workspace is not None
    return InvitationPreview(
        workspace_name=workspace.name,
        email=invitation.email,
        role=Role(invitation.role).value,
        expires_at=invitation.expires_at,
        account_exists=auth_repository.user_by_email(session, invitation.email) is not None,
    )


def accept(session: Session, token: str, user: User | Caller) -> Invitation:
    """Accepts as `user`, who must be the invited address."""
    invitation = _pending(session, token)
    if user.email != invitation.email:
        raise Forbidden(
            f"this invitation is for {invitation.email}; sign in as that address to accept it"
        )
    if _member_email(session, invitation.workspace_id, user.email):
        raise AlreadyMember("you are already a member of this workspace")
    session.add(
        Membership(user_id=user.id, workspace_id=invitation.workspace_id, role=invitation.role)
    )
    invitation.accepted_at, invitation.accepted_by_id = datetime.now(UTC), user.id
    session.flush()
    return invitation


def accept_new_account(session: Session, token: str, password: str, name: str | None) -> User:
    """Creates the invited address's account, then accepts as it."""
    invitation = _pending(session, token)
    if auth_repository.user_by_email(session, invitation.email) is not None:
        raise AccountExists(f"{invitation.email} already has an account: sign in to accept")
    user = auth_service.create_user(session, invitation.email, password, name)
    accept(session, token, user)
    return user


def _pending(session: Session, token: str) -> Invitation:
    """The invitation a link names, if it can still be used; one 404 for every other case
    (unknown, used, revoked, expired), so a link reveals nothing once it is dead."""
    digest = token_digest(token)
    invitation = session.scalar(select(Invitation).where(Invitation.token_hash == digest))
    if (
        invitation is None
        or not same_digest(invitation.token_hash, digest)
        or to_status(invitation) != "pending"
    ):
        raise NotFound("this invitation link is not valid: it was used, revoked or has expired")
    return invitation


def _member_email(session: Session, workspace_id: int, email: str) -> bool:
    found = session.scalar(
        select(Membership.id)
        .join(User, User.id == Membership.user_id)
        .where(Membership.workspace_id == workspace_id, User.email == email)
    )
    return found is not None


def to_status(invitation: Invitation) -> str:
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= datetime.now(UTC):
        return "expired"
    return "pending"


def to_out(invitation: Invitation) -> InvitationOut:
    return InvitationOut(
        id=invitation.id,
        workspace_id=invitation.workspace_id,
        email=invitation.email,
        role=Role(invitation.role).value,
        created_at=invitation.created_at,
        expires_at=invitation.expires_at,
        accepted_at=invitation.accepted_at,
        revoked_at=invitation.revoked_at,
        status=to_status(invitation),
    )
