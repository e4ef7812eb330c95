"""The JSON an alert stores: an evaluation's figures and a delivery's webhook body."""

from typing import Literal, NotRequired, TypedDict


class FiguresJson(TypedDict, total=False):  # figures.Figures, its null fields left out
    has_summary: bool
    p95_s: float
    error_rate: float
    analysis_id: int
    knee_per_s: float
    knee_class: str
    sla_threshold_s: float
    sla_percentile: float


class RuleRef(TypedDict):
    id: int
    name: str
    kind: str
    threshold: float | None


class NamedRef(TypedDict):
    id: int
    name: str


class EvaluationRef(TypedDict):
    id: int
    trigger: str
    outcome: str
    value: float | None
    limit: float | None
    message: str


class AlertPayload(TypedDict):
    event: Literal["alert.fired"]
    rule: RuleRef
    dataset: NamedRef
    evaluation: EvaluationRef
    link: str
    text: str


class ChannelTestPayload(TypedDict):
    event: Literal["channel.test"]
    channel: NamedRef
    text: str
    link: str


class WeeklyPayload(TypedDict):
    event: Literal["report.weekly"]
    text: str
    link: NotRequired[str]


# a generic webhook's JSON body (docs/alerts.md), by its event
Payload = AlertPayload | ChannelTestPayload | WeeklyPayload
