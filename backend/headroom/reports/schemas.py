"""Reports: what a report holds (figures, charts and parameters copied from results), how it
is created and edited, shared by link, and compared."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.auth.schemas import UserRef

ItemKind = Literal["capacity", "characterization", "simulation", "traffic", "sct", "sweep"]
Unit = Literal[
    "s",
    "req/s",
    "req/min",
    "fraction",
    "count",
    "VMs",
    "VM-hours",
    "bytes",
    "time",
    "ratio",
    "cost",
]
Better = Literal["higher", "lower"]


class Figure(BaseModel):
    """One number, with its unit and which direction is an improvement (null: neither)."""

    key: str
    label: str
    value: float | None
    unit: Unit
    better: Better | None = None


class Series(BaseModel):
    key: str
    label: str
    x: list[float]
    y: list[float | None]
    dashed: bool = Field(False, description="a model extrapolation, not a measurement")
    points: bool = Field(False, description="a scatter: dots at the points, no line")


class Mark(BaseModel):
    """A labelled dot at (x, y), or a vertical line at x when y is null."""

    label: str
    x: float
    y: float | None = None


class Range(BaseModel):
    """A shaded band across the plot from x1 to x2 (e.g. the rational range of pool sizes)."""

    label: str
    x1: float
    x2: float


class Chart(BaseModel):
    key: str
    title: str
    kind: Literal["line", "step", "bar"]
    x_label: str
    x_unit: Unit = Field(description="'time': x values are UTC epoch seconds")
    y_label: str
    y_unit: Unit
    series: list[Series]
    marks: list[Mark] = []
    ranges: list[Range] = []


class ItemContent(BaseModel):
    """What was copied from the source when the item was added."""

    source_label: str = Field(description="where it came from, e.g. 'capacity analysis 3 of x.log'")
    # each kind's own parameters (a capacity analysis', a scenario...): any JSON object
    params: dict[str, Any] = Field(description="the parameters that produced the result")
    figures: list[Figure]
    charts: list[Chart]
    notes: list[str] = Field([], description="warnings the source gave with its result")


class ItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: ItemKind
    source_id: int = Field(
        description="capacity, sct: analysis id; characterization id; simulation, sweep: "
        "simulation id; traffic: dataset id"
    )
    view: str | None = Field(
        None,
        max_length=200,
        description="capacity: the request class; sct: the server (default: the first); "
        "characterization: workload (default), traffic or latency",
    )
    title: str | None = Field(None, max_length=200, description="default: from the source")


class ReportItemOut(ItemContent):
    id: int
    position: int
    kind: ItemKind
    source_id: int
    view: str | None
    title: str
    captured_at: datetime


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(..., min_length=1, max_length=200)
    notes_md: str = Field("", max_length=50_000, description="Markdown (CommonMark, no HTML)")
    visibility: Literal["private", "workspace"] = "workspace"
    items: list[ItemIn] = Field([], max_length=50)
    workspace_id: int | None = Field(None, description="needed when you belong to several")


class ReportUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str | None = Field(None, min_length=1, max_length=200)
    notes_md: str | None = Field(None, max_length=50_000)
    visibility: Literal["private", "workspace"] | None = None
    item_ids: list[int] | None = Field(
        None, description="the items to keep, in their new order (others are removed)"
    )


class NotesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    notes_md: str = Field(..., max_length=50_000)


class NotesOut(BaseModel):
    notes_html: str


class ReportSummary(BaseModel):
    id: int
    workspace_id: int
    title: str
    visibility: Literal["private", "workspace"]
    item_count: int
    created_by: UserRef | None
    created_at: datetime
    updated_at: datetime


class ReportOut(ReportSummary):
    notes_md: str
    notes_html: str = Field(description="the notes rendered safely (no raw HTML, http(s) links)")
    items: list[ReportItemOut]
    can_edit: bool


class ReportPage(BaseModel):
    items: list[ReportSummary]
    total: int


class PublicReportOut(BaseModel):
    """What a public link shows: the report and nothing else."""

    title: str
    notes_html: str
    updated_at: datetime
    items: list[ReportItemOut]


class ShareLinkIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    expires_at: datetime | None = Field(None, description="null: until revoked")


class ShareLinkOut(BaseModel):
    id: int
    status: Literal["active", "expired", "revoked"]
    created_at: datetime
    created_by: UserRef | None
    expires_at: datetime | None
    revoked_at: datetime | None
    view_count: int
    last_viewed_at: datetime | None


class ShareLinkCreated(ShareLinkOut):
    token: str = Field(description="shown once; only its SHA-256 is stored")
    path: str = Field(description="the public page, /r/<token>")


class FigureDelta(BaseModel):
    key: str
    label: str
    unit: Unit
    better: Better | None
    a: float | None
    b: float | None
    delta: float | None = Field(description="b - a")
    change_pct: float | None = Field(description="100 (b - a) / |a|; null when a is 0")
    verdict: Literal["better", "worse", "same", "changed"] | None = Field(
        description="b against a; 'changed' when neither direction is better"
    )


class ItemComparison(BaseModel):
    kind: ItemKind
    title: str
    a_title: str
    b_title: str
    figures: list[FigureDelta]
    charts: list[Chart] = Field(description="both sides' series overlaid, labelled A: and B:")


class Comparison(BaseModel):
    a_label: str
    b_label: str
    items: list[ItemComparison]
    only_in_a: list[str]
    only_in_b: list[str]
