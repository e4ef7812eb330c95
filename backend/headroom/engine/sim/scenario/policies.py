"""Policies: autoscaling (when to add or remove VMs) and admission (which requests enter)."""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import Field, model_validator

from headroom.engine.sim.scenario.base import Fraction, NonNegFloat, PosFloat, StrictModel


class _Policy(StrictModel):
    monitor_s: PosFloat = 0.1
    step_s: PosFloat = 60.0


class NoPolicy(_Policy):
    policy: Literal["none"] = "none"


class ThresholdPolicy(_Policy):
    policy: Literal["threshold"]
    lower: Fraction = 0.4
    upper: Fraction = 0.8
    time_steps: Annotated[int, Field(ge=1)] = 4
    cooldown_s: NonNegFloat = 40.0
    step_size: Annotated[int, Field(ge=1)] | Literal["band_middle"] = 1
    tier: str | None = None  # multi-tier clusters: the tier scaled (default: first scalable)


class ConcurrencyAwarePolicy(ThresholdPolicy):
    """docs/methods/concurrency.md: threshold scaling of ``tier``; after every scale-out or
    scale-in, SCT over the last ``sct_window_s`` of each downstream VM (intervals of
    ``sct_interval_s``) and its pool limit set to Q_lower (tiered clusters only)."""

    policy: Literal["concurrency_aware"]  # type: ignore[assignment]
    sct_interval_s: Annotated[float, Field(gt=0, le=10)] = 0.05
    sct_window_s: Annotated[float, Field(gt=0, le=3600)] = 180.0
    sct_min_intervals: Annotated[int, Field(ge=1)] = 10


class TargetTrackingPolicy(_Policy):
    policy: Literal["target_tracking"]
    step_s: PosFloat = 15.0
    target: Annotated[float, Field(gt=0, le=1)] = 0.6
    tolerance: Fraction = 0.1
    stabilization_s: NonNegFloat = 300.0


class StepPolicy(_Policy):
    policy: Literal["step"]
    bands: list[tuple[Fraction, Fraction, int]] = [(0.0, 0.3, -1), (0.8, 0.9, 1), (0.9, 1.0, 3)]
    time_steps: Annotated[int, Field(ge=1)] = 1
    cooldown_s: NonNegFloat = 60.0


class ScheduledPolicy(_Policy):
    policy: Literal["scheduled"]
    schedule: Annotated[list[tuple[NonNegFloat, Annotated[int, Field(ge=1)]]], Field(min_length=1)]


class PredictivePolicy(ThresholdPolicy):
    """Provisions for the peak rate expected over the next ``horizon_s``: from ``forecast``
    (``[t_s, rate_per_s]`` points joined by straight lines, e.g. a forecast model's median)
    when given, else from the same time on earlier seasons of the run itself."""

    policy: Literal["predictive"]  # type: ignore[assignment]
    season_s: PosFloat = 86400.0
    horizon_s: PosFloat = 3600.0
    target_utilization: Annotated[float, Field(gt=0, le=1)] = 0.6
    forecast: Annotated[list[tuple[NonNegFloat, NonNegFloat]], Field(min_length=2)] | None = None

    @model_validator(mode="after")
    def _forecast_in_time_order(self) -> PredictivePolicy:
        times = [t for t, _ in self.forecast or []]
        if any(later <= earlier for earlier, later in pairwise(times)):
            raise ValueError("forecast times must increase")
        return self


class LatencySloPolicy(_Policy):
    policy: Literal["latency_slo"]
    percentile: Annotated[float, Field(gt=0, lt=100)] = 95.0
    threshold_s: PosFloat | None = None
    window_s: PosFloat = 60.0
    scale_in_below: Fraction = 0.5
    lower: Fraction = 0.4
    cooldown_s: NonNegFloat = 60.0
    step_size: Annotated[int, Field(ge=1)] = 1


Autoscaling = Annotated[
    NoPolicy
    | ThresholdPolicy
    | TargetTrackingPolicy
    | StepPolicy
    | ScheduledPolicy
    | PredictivePolicy
    | LatencySloPolicy
    | ConcurrencyAwarePolicy,
    Field(discriminator="policy"),
]


class NoAdmission(StrictModel):
    """Every request is admitted (and queues without bound unless the pool says otherwise)."""

    policy: Literal["none"] = "none"


class PartitionAdmission(StrictModel):
    """docs/methods/admission.md: SwitchAdm, StaticPart, DynamicPart. Per server: ``maxconn_sla`` =
    MaxConn_D(T_D), ``maxconn`` = MaxConn_D; ``maxconn_static_sla`` = MaxConn_S(T_S) (the
    static-connection threshold of SwitchAdm; none = static requests are not limited)."""

    policy: Literal["switch_adm", "static_part", "dynamic_part"]
    maxconn_sla: Annotated[int, Field(ge=1)]
    maxconn: Annotated[int, Field(ge=1)]
    maxconn_static_sla: Annotated[int, Field(ge=1)] | None = None
    period_s: PosFloat = 10.0

    @model_validator(mode="after")
    def _ordered(self) -> PartitionAdmission:
        if self.maxconn_sla > self.maxconn:
            raise ValueError("maxconn_sla must be <= maxconn (MaxConn_D(T_D) <= MaxConn_D)")
        return self


class VirtualQueueAdmission(StrictModel):
    """docs/methods/admission.md: the wait-time scheduler at a fixed capacity (req/s) or with
    online capacity discovery (``discover``; epochs of ``epoch_s``). ``hardness`` gives
    the units of capacity a request of a class consumes (default 1)."""

    policy: Literal["virtual_queue"]
    capacity: Literal["discover"] | PosFloat = "discover"
    max_wait_s: Annotated[int, Field(ge=1, le=86400)] = 3600
    epoch_s: PosFloat = 8.0
    c0: PosFloat = 15.0
    alpha: Annotated[float, Field(gt=1)] = 1.15
    beta: Annotated[float, Field(gt=0, lt=1)] = 0.8
    delta: Annotated[float, Field(gt=0, lt=1)] = 0.02
    n_f: Annotated[int, Field(ge=1)] = 7
    n_s: Annotated[int, Field(ge=1)] = 2
    epsilon: Annotated[float, Field(gt=0, lt=1)] = 0.1
    hardness: dict[str, PosFloat] = {}


Admission = Annotated[
    NoAdmission | PartitionAdmission | VirtualQueueAdmission,
    Field(discriminator="policy"),
]
