"""The server's JSON as the remote client reads it: the fields it uses of each response
(the domains' `*Out` schemas are the full contract; a TypedDict keeps the JSON as it came)."""

from typing import Literal, NotRequired, TypedDict

JobStatus = Literal["queued", "running", "succeeded", "failed", "cancelled"]


class JobJson(TypedDict):  # jobs.schemas.JobOut
    id: int
    kind: str
    status: JobStatus
    progress: float
    stage: str | None
    error_code: str | None
    error_message: str | None


class DatasetJson(TypedDict):  # datasets.schemas.DatasetOut
    id: int
    workspace_id: int
    name: str
    status: str
    created_at: str
    job: JobJson | None


class UploadJson(TypedDict):  # uploads.schemas.UploadOut
    id: str
    offset_bytes: int
    dataset_id: int | None


class UploadOptions(TypedDict, total=False):  # uploads.schemas.UploadIn's parse options
    format: str
    log_format: str
    zip_members: Literal["first", "all"]


class UploadResult(TypedDict):  # `headroom upload`: what it reports
    dataset_id: int
    job_id: int | None
    status: str
    error_code: NotRequired[str | None]
    error_message: NotRequired[str | None]
