"""Typed errors with stable codes; the API turns them into {"error": {...}} bodies."""

from collections.abc import Mapping
from typing import Any, TypedDict

from pydantic import BaseModel, Field


class HeadroomError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(
        self, message: str, *, field: str | None = None, detail: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.detail = detail

    def to_body(self, request_id: str | None = None) -> "ErrorBodyJson":
        return envelope(self.code, self.message, self.field, self.detail, request_id)


class ErrorJson(TypedDict):  # ErrorDetail, as JSON
    code: str
    message: str
    field: str | None
    detail: Mapping[str, object] | None
    request_id: str | None


class ErrorBodyJson(TypedDict):  # ErrorBody, as JSON
    error: ErrorJson


def envelope(
    code: str,
    message: str,
    field: str | None = None,
    detail: Mapping[str, object] | None = None,
    request_id: str | None = None,
) -> ErrorBodyJson:
    """The body of every error answer (ErrorBody)."""
    error: ErrorJson = {
        "code": code,
        "message": message,
        "field": field,
        "detail": detail,
        "request_id": request_id,
    }
    return {"error": error}


class NotAuthenticated(HeadroomError):
    status_code, code = 401, "not_authenticated"


class InvalidCredentials(HeadroomError):
    status_code, code = 401, "invalid_credentials"


class Forbidden(HeadroomError):
    status_code, code = 403, "forbidden"


class NotFound(HeadroomError):
    status_code, code = 404, "not_found"


class NotReady(HeadroomError):
    status_code, code = 404, "not_ready"


class FileTooLarge(HeadroomError):
    status_code, code = 413, "file_too_large"


class InvalidInput(HeadroomError):
    """422 with a caller-chosen stable code (empty_file, unparseable_log, ...)."""

    status_code = 422

    def __init__(self, code: str, message: str, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.code = code


class ErrorDetail(BaseModel):
    code: str
    message: str
    field: str | None = None
    detail: Mapping[str, object] | None = None  # the error's own facts (offset_bytes...)
    request_id: str | None = Field(
        default=None, description="Also in the server's log and the X-Request-ID header"
    )


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer of the API has this shape."""

    error: ErrorDetail


def error_responses(*statuses: int) -> dict[int | str, dict[str, object]]:  # FastAPI's `responses`
    return {
        status: {"model": ErrorBody, "description": _DESCRIPTIONS[status]} for status in statuses
    }


_DESCRIPTIONS = {
    401: "Not signed in, or the token is invalid",
    403: "Signed in, but the role or token scope does not allow this",
    404: "Not found (or not visible to you)",
    408: "The request body stopped arriving",
    409: "Conflicts with the current state",
    410: "Gone: what the request needs no longer exists",
    413: "The upload is larger than the limit",
    422: "The request or the uploaded file is invalid",
    500: "An unexpected error (its request_id is in the server log)",
    429: "Too many attempts; see Retry-After",
}
