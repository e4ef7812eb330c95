from pydantic import BaseModel, ConfigDict, Field

from headroom.workspaces.schemas import WorkspaceRef


class LoginRequest(BaseModel):
    email: str = Field(min_length=3, max_length=320)
    password: str = Field(min_length=1, max_length=1000)


class UserRef(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    email: str
    name: str


class Me(UserRef):
    workspaces: list[WorkspaceRef]
