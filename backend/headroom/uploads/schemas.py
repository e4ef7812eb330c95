from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from headroom.datasets.schemas import ParseOptionsOut

CHUNK_BYTES_MAX = 16 * 1024**2


class UploadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=1000)
    size_bytes: int = Field(gt=0, description="The whole file's size")
    workspace_id: int | None = None
    format: str | None = Field(
        default=None, description="A known format name (GET /datasets/formats); null: detect"
    )
    log_format: str | None = Field(
        default=None, description="An Apache LogFormat or nginx log_format string"
    )
    zip_members: Literal["first", "all"] = "first"


class UploadOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    workspace_id: int
    name: str
    size_bytes: int
    offset_bytes: int = Field(description="Bytes received so far: send the next chunk here")
    chunk_bytes_max: int = CHUNK_BYTES_MAX
    created_at: datetime
    expires_at: datetime
    completed_at: datetime | None
    dataset_id: int | None
    parse_options: ParseOptionsOut = Field(default_factory=ParseOptionsOut)

    @field_validator("parse_options", mode="before")
    @classmethod
    def _none_is_default(cls, value: object) -> object:
        return {} if value is None else value  # uploads created before the options existed
