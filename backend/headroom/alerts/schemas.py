"""Alerts: rules per dataset, delivery channels per workspace, evaluations and deliveries."""

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from headroom.alerts.models import ChannelKind, DeliveryStatus, Outcome, RuleKind
from headroom.core.ids import ID_MAX

Purpose = Literal["alert", "test", "weekly"]
ChannelId = Annotated[int, Field(ge=1, le=ID_MAX)]


class RuleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    kind: RuleKind
    threshold: float | None = Field(
        None,
        gt=0.0,
        le=1e9,
        description="p95_above_sla: seconds (null: the dataset's SLA target); "
        "knee_below_baseline: requests/s (null: the previous evaluation's knee); "
        "error_rate_above: a share of 5xx responses, above 0 and at most 1",
    )
    channel_ids: list[ChannelId] = Field(default_factory=list, max_length=20)
    enabled: bool = True

    @model_validator(mode="after")
    def _threshold_fits_kind(self) -> "RuleIn":
        bad_share = self.threshold is None or self.threshold > 1.0
        if self.kind == RuleKind.error_rate_above and bad_share:
            raise ValueError("an error-rate rule needs a threshold between 0 and 1 (0.01: 1%)")
        return self


class RuleUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=200)
    threshold: float | None = Field(None, gt=0.0, le=1e9)
    clear_threshold: bool = Field(False, description="set the threshold back to null")
    channel_ids: list[ChannelId] | None = Field(None, max_length=20)
    enabled: bool | None = None


class EvaluationOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    rule_id: int
    trigger: Literal["ingest", "refresh", "manual"]
    outcome: Outcome
    value: float | None = Field(description="the figure read (s, requests/s or a share)")
    limit_value: float | None = Field(description="what it was compared with")
    message: str
    figures: Mapping[str, object]  # payloads.FiguresJson
    evaluated_at: datetime
    deliveries: list["DeliveryOut"] = Field(default_factory=list)


class DeliveryOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    channel_id: int | None
    channel_name: str | None = None
    purpose: Purpose
    subject: str
    status: DeliveryStatus
    attempts: int
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None


class RuleOut(BaseModel):
    id: int
    workspace_id: int
    dataset_id: int
    name: str
    kind: RuleKind
    threshold: float | None
    channel_ids: list[int]
    enabled: bool
    created_at: datetime
    last_evaluation: EvaluationOut | None


class EvaluationPage(BaseModel):
    items: list[EvaluationOut]
    total: int


class ChannelIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    kind: ChannelKind
    target: str = Field(
        min_length=3,
        max_length=2000,
        description="email: comma-separated addresses; slack and webhook: an http(s) URL",
    )
    weekly_report: bool = Field(False, description="email: also send the weekly report here")


class ChannelUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=200)
    target: str | None = Field(None, min_length=3, max_length=2000)
    weekly_report: bool | None = None


class ChannelOut(BaseModel):
    id: int
    workspace_id: int
    name: str
    kind: ChannelKind
    target: str
    weekly_report: bool
    signed: bool = Field(description="webhook: the body is signed (X-Headroom-Signature)")
    created_at: datetime
    last_delivery: DeliveryOut | None


class ChannelCreated(ChannelOut):
    secret: str | None = Field(
        description="webhook: the signing secret, shown once (verify X-Headroom-Signature)"
    )


class WeeklyReportOut(BaseModel):
    deliveries: list[int]
