"""The workload model document (docs/methods/workload.md, "The workload model"): the simulator's
input.

A versioned pydantic document: the arrival-rate profile of pages per class (a step
function ``[t_s, rate_per_s]`` from the log's first step), the class mix, and per class
the page shape (objects per page, gaps between object requests), the service time, and
the other fitted distributions (requests per session, think time, sizes). Distributions
are written in the simulator's declarative form and validated by its own models
(``headroom.engine.sim.scenario.DistSpec``: ``{dist: lognormal, mu, sigma}``,
``{dist: mixture, parts: [[w, {...}], ...]}``...), so
:meth:`WorkloadModel.scenario_workload` is a scenario's ``workload`` section as is.

:func:`headroom.engine.workload.characterization.characterize` produces one from a
request table; this module does not import it (the pipeline imports the model).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from headroom.engine.sim import presets
from headroom.engine.sim.scenario import DistSpec, Page

MODEL_VERSION: Literal[1] = 1
NonNeg = Annotated[float, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClassModel(_Strict):
    """One class: its page arrivals (pages per second, a step function), page shape,
    service time (null when the log has no latencies) and other fitted distributions."""

    name: Annotated[str, Field(min_length=1)]
    share: Share
    profile: Annotated[list[tuple[NonNeg, NonNeg]], Field(min_length=1)]
    page: Page | None = None
    service_s: DistSpec | None = None
    fitted: dict[str, DistSpec] = {}

    @model_validator(mode="after")
    def _sorted_profile(self) -> ClassModel:
        starts = [t for t, _ in self.profile]
        if starts != sorted(starts):
            raise ValueError("profile steps must be sorted by t_s")
        return self


class WorkloadModel(_Strict):
    version: Literal[1] = MODEL_VERSION
    name: str = "workload"
    start: datetime | None = None
    profile_step_s: Annotated[float, Field(gt=0)] = 3600.0
    duration_s: Annotated[float, Field(gt=0)]
    classes: Annotated[list[ClassModel], Field(min_length=1)]

    @model_validator(mode="after")
    def _unique_names(self) -> WorkloadModel:
        if len({c.name for c in self.classes}) != len(self.classes):
            raise ValueError("class names must be unique")
        return self

    @property
    def class_mix(self) -> dict[str, float]:
        return {c.name: c.share for c in self.classes}

    def scenario_workload(
        self, service_s: Mapping[str, Any] | None = None, time_scale: float = 1.0
    ) -> dict[str, Any]:
        """The ``workload`` section of a simulation scenario. ``service_s`` stands in for
        classes without a measured service time; ``time_scale`` > 1 multiplies every
        rate (the "what if traffic grows 3x" question)."""
        return {"classes": [self._sim_class(c, service_s, time_scale) for c in self.classes]}

    def _sim_class(
        self, c: ClassModel, service_s: Mapping[str, Any] | None, scale: float
    ) -> dict[str, Any]:
        service = c.service_s.model_dump(exclude_none=True) if c.service_s else service_s
        if service is None:
            raise ModelError(f"classes.{c.name}.service_s: not measured; pass service_s")
        out: dict[str, Any] = {
            "name": c.name,
            "arrivals": {"profile": [[t, r * scale] for t, r in c.profile]},
            "service_s": dict(service),
        }
        if c.page is not None:
            out["page"] = c.page.model_dump(exclude_none=True)
        return out


class ModelError(ValueError):
    """A workload model failed validation; the message names the field path."""


def load_workload_model(source: str | Mapping[str, Any]) -> WorkloadModel:
    """Validate a model from JSON text or a mapping."""
    try:
        data = json.loads(source) if isinstance(source, str) else dict(source)
        return WorkloadModel.model_validate(data)
    except json.JSONDecodeError as exc:
        raise ModelError(f"(document): not valid JSON: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        path = ".".join(str(p) for p in first["loc"]) or "(document)"
        raise ModelError(f"{path}: {first['msg']}") from None


def workload_model_schema() -> dict[str, Any]:
    """The published JSON Schema of the workload model document."""
    return WorkloadModel.model_json_schema()


def from_workload_model(
    model: Mapping[str, Any] | str, name: str | None = None, duration_s: float | None = None
) -> dict[str, Any]:
    """A scenario replaying a workload model (docs/methods/workload.md) on the reference cluster:
    the model's per-class arrival profiles, page shapes and service times, its duration
    (or ``duration_s``). Raises ModelError naming the model's field."""
    workload_model = load_workload_model(model)
    scenario = presets.reference()
    scenario["name"] = f"{name or workload_model.name} (workload model)"
    scenario["duration_s"] = duration_s or workload_model.duration_s
    scenario["workload"] = workload_model.scenario_workload(service_s=presets.DEFAULT_SERVICE_S)
    return scenario
