from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from headroom.auth.schemas import UserRef
from headroom.characterizations.documents import CharacterizationDoc
from headroom.datasets.slices_params import SliceIn
from headroom.engine.workload import Rules
from headroom.jobs.schemas import JobOut


class CharacterizationIn(BaseModel):
    """Classification rules for the run; null or absent: the default rules."""

    model_config = ConfigDict(extra="forbid")

    rules: Rules | None = None
    slice: SliceIn | None = Field(
        None, description="characterize only these requests (a range and filters); null: all"
    )


class CharacterizationOut(BaseModel):
    id: int
    workspace_id: int
    dataset_id: int
    rules: Rules = Field(description="the rules applied")
    slice: SliceIn | None = Field(None, description="the requests characterized; null: all")
    created_at: datetime
    created_by: UserRef | None
    job: JobOut | None  # kind "workload.characterize"
    result: CharacterizationDoc | None = Field(
        None,
        description="`headroom characterize --json` plus `histograms` (name -> bins with the "
        "fitted pdf) once the job has succeeded",
    )


class CharacterizationPage(BaseModel):
    items: list[CharacterizationOut]
    total: int


class DatasetRulesOut(BaseModel):
    dataset_id: int
    rules: Rules
    is_default: bool = Field(description="true until someone saves rules for the dataset")
    updated_at: datetime | None
    updated_by: UserRef | None


class RulesSaved(BaseModel):
    """The stored rules and the characterization under them (a queued job when new)."""

    rules: DatasetRulesOut
    characterization: CharacterizationOut


class ModelScenarioIn(BaseModel):
    """A workload model document (as downloaded from a characterization, perhaps edited)
    to turn into a simulation scenario."""

    model_config = ConfigDict(extra="forbid")

    model: dict[str, Any] = Field(  # validated by the engine: 422s name model.<field>
        description="a workload model document, validated against "
        "GET /api/v1/characterizations/model/schema (a bad one: 422 naming model.<field>)"
    )
    duration_s: float | None = Field(
        None, gt=0, description="simulated seconds; absent: the model's duration_s"
    )
