"""The slice of a dataset as a typed document: what a range and filter bar sends, what a
sliced analysis or characterization stores among its parameters (and hashes into its key).
Checked, and made an engine slice, by ``datasets.slices.where_of``."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

StatusClass = Literal["1xx", "2xx", "3xx", "4xx", "5xx"]


class SliceIn(BaseModel):
    """Requests with ``from_ms <= ts < to_ms`` (epoch ms; null: unbounded) that pass every
    filter given (null: no filter)."""

    model_config = ConfigDict(extra="forbid")

    from_ms: int | None = Field(None, description="start of the range (epoch ms, UTC)")
    to_ms: int | None = Field(None, description="end of the range, excluded (epoch ms)")
    path_prefix: str | None = Field(None, max_length=1000, description="paths starting so")
    path_pattern: str | None = Field(
        None,
        max_length=1000,
        description="paths matching a glob (* within a segment, ** across, ? one character) "
        "or, after a ~, a regular expression",
    )
    status_class: StatusClass | None = None
    request_class: str | None = Field(None, max_length=200, description="the log's class")
    host: str | None = Field(None, max_length=500, description="the server (virtual host)")
    client: str | None = Field(None, max_length=500, description="the client address or id")

    def stored(self) -> dict[str, object]:
        """The fields given (the canonical form hashed into a key)."""
        return self.model_dump(mode="json", exclude_none=True)

    @property
    def whole(self) -> bool:
        return not self.stored()
