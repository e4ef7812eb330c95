from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.workspaces.schemas import WorkspaceRef


class LoginIn(BaseModel):
    email: str = Field(min_length=3, max_length=320)
    password: str = Field(min_length=1, max_length=1000)


class UserRef(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    email: str
    name: str


class Me(UserRef):
    workspaces: list[WorkspaceRef]


class ApiTokenIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    scopes: list[Literal["read", "write", "admin"]] = Field(min_length=1, max_length=3)
    expires_days: int | None = Field(None, ge=1, le=3650, description="null: never expires")


class ApiTokenOut(BaseModel):
    id: int
    workspace_id: int
    name: str
    prefix: str = Field(description="the first characters of the token, to recognise it")
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    owner: UserRef


class ApiTokenCreated(ApiTokenOut):
    token: str = Field(description="the secret: shown once, store it now")
