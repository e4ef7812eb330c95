from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.auth.schemas import UserRef
from headroom.jobs.schemas import JobOut
from headroom.simulations.result_models import (
    ResultDocument,
    RunDocument,
    RunSummary,
    SweepKeyNumbers,
    SweepValue,
)
from headroom.simulations.scenario_json import ScenarioJson

PATH_PATTERN = r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$"


class SweepAxisIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = Field(
        ..., pattern=PATH_PATTERN, max_length=200, description="dotted scenario field path"
    )
    values: list[SweepValue] = Field(
        ..., min_length=1, max_length=100, description="one run per value"
    )


class SweepIn(SweepAxisIn):
    """A field over a list of values; with ``second``, the grid of both fields."""

    second: SweepAxisIn | None = Field(None, description="a second field: the runs form a grid")


class SimulationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1, max_length=200)
    scenario: ScenarioJson = Field(
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
    scenario: ScenarioJson
    seed: int | None
    sweep: SweepIn | None
    created_at: datetime
    created_by: UserRef | None
    job: JobOut | None
    summary: RunSummary | SweepKeyNumbers | None = Field(
        None,
        description="once succeeded, also in lists: the run's summary, or a sweep's "
        "{runs, axes, best: the summary of its cheapest run without SLA violations}",
    )
    result: ResultDocument | None = Field(
        None, description="once the job has succeeded (not in lists): the run or the sweep"
    )


class SimulationPage(BaseModel):
    items: list[SimulationOut]
    total: int


class SavedScenarioIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=1, max_length=200, description="unique in the workspace")
    scenario: ScenarioJson = Field(..., description="a valid scenario document")
    workspace_id: int | None = Field(None, description="needed when you belong to several")


class SavedScenarioUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=200)
    scenario: ScenarioJson | None = None


class SavedScenarioOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    workspace_id: int
    name: str
    scenario: ScenarioJson
    created_at: datetime
    updated_at: datetime


class SavedScenarioList(BaseModel):
    items: list[SavedScenarioOut]


class ScenarioCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: ScenarioJson
    workspace_id: int | None = Field(
        None,
        description="the workspace whose datasets the scenario may refer to (needed with "
        "dataset references when you belong to several)",
    )


class Preset(BaseModel):
    id: str
    name: str
    description: str
    scenario: ScenarioJson
    sweep: SweepIn | None = Field(
        default=None, description="The comparison the preset is made for (class policies)"
    )


class SweepRunOut(BaseModel):
    """One run of a sweep with its stored result (the same document as a single run's)."""

    simulation_id: int
    workspace_id: int
    name: str = Field(..., description="the sweep's name")
    index: int = Field(..., description="the run's position in the sweep (0-based)")
    values: dict[str, SweepValue] = Field(..., description="{path: value} the run set")
    scenario: ScenarioJson = Field(..., description="the sweep's scenario with the values set")
    seed: int | None
    result: RunDocument = Field(..., description="as SimulationOut.result of a run")
