"""A recommendation: one sentence with its number, the chart that shows the evidence, how
far to trust it, and where to act on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Confidence = Literal["measured", "model", "lower bound", "weak fit"]
Chart = Literal["knee-chart", "throughput-chart", "power"]


@dataclass(frozen=True)
class Link:
    """A page to act on the recommendation; ``scenario`` is a simulation document to start
    the page from (the scenario editor)."""

    to: str
    label: str
    scenario: dict[str, Any] | None = None


@dataclass(frozen=True)
class Recommendation:
    id: str
    class_name: str  # the request class (or server) whose chart holds the evidence; "" for none
    text: str
    confidence: Confidence
    chart: Chart
    link: Link | None = field(default=None)
