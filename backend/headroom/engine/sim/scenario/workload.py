"""The workload: distributions of demands and gaps, arrivals, pages and request classes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from headroom.engine.sim import distributions as d
from headroom.engine.sim.scenario.base import (
    Fraction,
    NonNegFloat,
    PosFloat,
    ScenarioError,
    StrictModel,
)


class ConstantDist(StrictModel):
    dist: Literal["constant"]
    value: NonNegFloat


class UniformDist(StrictModel):
    dist: Literal["uniform"]
    low: NonNegFloat
    high: NonNegFloat

    @model_validator(mode="after")
    def _ordered(self) -> UniformDist:
        if self.high < self.low:
            raise ValueError("high must be >= low")
        return self


class ExponentialDist(StrictModel):
    dist: Literal["exponential"]
    mean: PosFloat


class LognormalDist(StrictModel):
    dist: Literal["lognormal"]
    mu: float
    sigma: Annotated[float, Field(ge=0, lt=20)]


class ParetoDist(StrictModel):
    dist: Literal["pareto"]
    alpha: PosFloat
    scale: PosFloat


class EmpiricalDist(StrictModel):
    """Resample ``values``, or the named dataset's values (resolved at run time)."""

    dist: Literal["empirical"]
    values: Annotated[list[NonNegFloat], Field(min_length=1)] | None = None
    dataset: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> EmpiricalDist:
        if (self.values is None) == (self.dataset is None):
            raise ValueError("give exactly one of values, dataset")
        return self


class MixtureDist(StrictModel):
    dist: Literal["mixture"]
    parts: Annotated[list[tuple[NonNegFloat, DistSpec]], Field(min_length=1)]


DistSpec = Annotated[
    ConstantDist
    | UniformDist
    | ExponentialDist
    | LognormalDist
    | ParetoDist
    | EmpiricalDist
    | MixtureDist,
    Field(discriminator="dist"),
]
MixtureDist.model_rebuild()


def build_distribution(
    spec: BaseModel, datasets: Mapping[str, Any] | None = None
) -> d.Distribution:
    """Turn a validated distribution spec into a distribution object."""
    try:
        return d.parse_distribution(spec.model_dump(exclude_none=True), datasets)
    except ValueError as exc:
        raise ScenarioError(f"workload: {exc}") from None


class Arrivals(StrictModel):
    """Pages (or single requests) per second: exactly one source. A ``profile``'s points
    ``(t_s, rate_per_s)`` hold until the next point (``interpolation: step``) or are joined
    by straight lines (``linear``); either way the rate is 0 before the first point and
    holds at the last point's rate after it."""

    rate_per_s: NonNegFloat | None = None
    profile: list[tuple[NonNegFloat, NonNegFloat]] | None = None
    interpolation: Literal["step", "linear"] = "step"
    times_s: list[NonNegFloat] | None = None
    dataset: str | None = None
    time_scale: PosFloat = 1.0

    @model_validator(mode="after")
    def _one_source(self) -> Arrivals:
        given = [k for k in ("rate_per_s", "profile", "times_s", "dataset") if getattr(self, k)]
        if len(given) != 1 and not (self.rate_per_s == 0 and not given):
            raise ValueError("give exactly one of rate_per_s, profile, times_s, dataset")
        if self.profile is not None:
            starts = [t for t, _ in self.profile]
            if starts != sorted(starts):
                raise ValueError("profile steps must be sorted by t_s")
            if self.interpolation == "linear" and len(set(starts)) != len(starts):
                raise ValueError("a linear profile's points need distinct t_s")
        elif self.interpolation != "step":
            raise ValueError("interpolation applies to a profile")
        return self


class Page(StrictModel):
    objects: DistSpec
    gap_s: DistSpec
    push_fraction: Fraction = 0.0
    early_hints: bool = False


class WorkloadClass(StrictModel):
    """One request class: its own arrivals (or a ``share`` of the workload's), pages and
    service demands; ``kind`` and ``user`` place it in the classes of
    docs/methods/admission.md (static/dynamic x top/normal), which the admission policies act on."""

    name: Annotated[str, Field(min_length=1)]
    arrivals: Arrivals | None = None
    share: Annotated[float, Field(gt=0, le=1)] | None = None
    page: Page | None = None
    service_s: DistSpec
    kind: Literal["static", "dynamic"] = "dynamic"
    user: Literal["top", "normal"] = "normal"


class Workload(StrictModel):
    """One class written inline (arrivals, page, service_s), or several under ``classes``:
    each with its own ``arrivals``, or all with a ``share`` of the workload's ``arrivals``
    (each arrival's class drawn independently with these probabilities)."""

    arrivals: Arrivals | None = None
    page: Page | None = None
    service_s: DistSpec | None = None
    classes: Annotated[list[WorkloadClass], Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Workload:
        if self.classes is None:
            if self.arrivals is None or self.service_s is None:
                raise ValueError("arrivals and service_s are required (or give classes)")
            return self
        if self.page is not None or self.service_s is not None:
            raise ValueError("with classes, give page and service_s per class")
        if len({c.name for c in self.classes}) != len(self.classes):
            raise ValueError("class names must be unique")
        _check_shares(self.arrivals, self.classes)
        return self

    @property
    def shared_arrivals(self) -> bool:
        """Whether the classes split the workload's arrivals by ``share``."""
        return self.classes is not None and self.arrivals is not None

    def class_list(self) -> list[WorkloadClass]:
        """The classes, each with its own arrivals (a share's arrivals are the workload's
        thinned by the share: independent Poisson processes of rate share x rate)."""
        if self.classes is not None:
            if self.arrivals is None:
                return self.classes
            return [_with_share(c, self.arrivals) for c in self.classes]
        assert self.arrivals is not None and self.service_s is not None
        return [
            WorkloadClass(
                name="default", arrivals=self.arrivals, page=self.page, service_s=self.service_s
            )
        ]


def _with_share(c: WorkloadClass, arrivals: Arrivals) -> WorkloadClass:
    share = c.share or 1.0
    if arrivals.rate_per_s is not None:
        scaled = arrivals.model_copy(update={"rate_per_s": arrivals.rate_per_s * share})
    else:
        assert arrivals.profile is not None
        steps = [(t, rate * share) for t, rate in arrivals.profile]
        scaled = arrivals.model_copy(update={"profile": steps})
    return c.model_copy(update={"arrivals": scaled, "share": None})


def _check_shares(arrivals: Arrivals | None, classes: list[WorkloadClass]) -> None:
    if arrivals is None:
        if any(c.arrivals is None or c.share is not None for c in classes):
            raise ValueError("every class needs arrivals (or give workload arrivals and shares)")
        return
    if any(c.arrivals is not None or c.share is None for c in classes):
        raise ValueError("with workload arrivals, every class needs a share and no arrivals")
    if arrivals.times_s is not None or arrivals.dataset is not None:
        raise ValueError("class shares split a rate_per_s or profile, not recorded times")
    total = sum(c.share or 0.0 for c in classes)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"class shares must add up to 1 (they add up to {total:g})")
