from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

RoleName = Literal["owner", "editor", "viewer"]


class WorkspaceRef(BaseModel):
    id: int
    name: str
    role: RoleName


class WorkspaceIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)


class MemberOut(BaseModel):
    user_id: int
    email: str
    name: str
    role: RoleName
    joined_at: datetime


class MemberUpdate(BaseModel):
    role: RoleName


class InvitationIn(BaseModel):
    email: str = Field(min_length=3, max_length=320, pattern=r"^[^@\s]+@[^@\s]+$")
    role: RoleName = "editor"


class InvitationOut(BaseModel):
    id: int
    workspace_id: int
    email: str
    role: RoleName
    created_at: datetime
    expires_at: datetime
    accepted_at: datetime | None
    revoked_at: datetime | None
    status: Literal["pending", "accepted", "expired", "revoked"]


class InvitationCreated(InvitationOut):
    url: str = Field(description="the single-use link: shown once, send it to the invitee")
    emailed: bool = Field(description="true when SMTP is configured and the mail was sent")


class InvitationPreview(BaseModel):
    """What the invitee sees before accepting (the link is the credential)."""

    workspace_name: str
    email: str
    role: RoleName
    expires_at: datetime
    account_exists: bool


class InvitationAccept(BaseModel):
    """Signed in: empty. No account yet: a password (and a name) creates one."""

    password: str | None = Field(None, min_length=8, max_length=1000)
    name: str | None = Field(None, min_length=1, max_length=200)
