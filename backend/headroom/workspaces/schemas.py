from typing import Literal

from pydantic import BaseModel


class WorkspaceRef(BaseModel):
    id: int
    name: str
    role: Literal["owner", "editor", "viewer"]
