from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

CHUNK_BYTES_MAX = 16 * 1024**2


class UploadCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=1000)
    size_bytes: int = Field(gt=0, description="The whole file's size")
    workspace_id: int | None = None


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
