from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.auth.schemas import UserRef
from headroom.jobs.schemas import JobOut

PATH_PATTERN = r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$"


class SweepAxisIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = Field(
        ..., pattern=PATH_PATTERN, max_length=200, description="dotted scenario field path"
    )
    values: list[Any] = Field(..., min_length=1, max_length=100, description="one run per value")


class SweepIn(SweepAxisIn):
    """A field over a list of values; with ``second``, the grid of both fields."""

    second: SweepAxisIn | None = Field(None, description="a second field: the runs form a grid")


class SimulationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1, max_length=200)
    scenario: dict[str, Any] = Field(
        ..., description="the scenario document (GET /simulations/schema)"
    )
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="overrides the scenario's")
    sweep: SweepIn | None = None
    workspace_id: int | None = Field(None, description="needed when you belong to several")


class SimulationOut(BaseModel):
    id: int
    workspace_id: int
    name: str
    kind: Literal["run", "sweep"]
    scenario: dict[str, Any]
    seed: int | None
    sweep: SweepIn | None
    created_at: datetime
    created_by: UserRef | None
    job: JobOut | None
    result: dict[str, Any] | None = Field(
        None,
        description=(
            "once the job has succeeded: {kind: run, summary, series, actions, "
            "utilization_boxes, classes} or {kind: sweep, axes, runs: [one row per run]}"
        ),
    )


class SimulationPage(BaseModel):
    items: list[SimulationOut]
    total: int
