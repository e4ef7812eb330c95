"""An autoscaling policy's timing and targets, in the units autoscalers take (whole seconds,
percent of CPU), shared by the Kubernetes and AWS exports."""

from __future__ import annotations

import math
from dataclasses import dataclass

from headroom.engine.export.model import ExportError
from headroom.engine.sim.scenario import (
    Autoscaling,
    LatencySloPolicy,
    StepPolicy,
    TargetTrackingPolicy,
    ThresholdPolicy,
)

MAX_WINDOW_S = 3600  # Kubernetes' limit on a stabilization window
MAX_PERIOD_S = 1800  # and on a scaling policy's period


@dataclass(frozen=True)
class CpuTarget:
    """A CPU utilisation target (percent) and where it came from."""

    percent: int
    source: str


def cpu_target(policy: Autoscaling, kind: str) -> CpuTarget:
    """Target tracking's ``target``; a threshold policy's band middle (lower + upper) / 2,
    where both policies hold the VMs at steady state."""
    if isinstance(policy, TargetTrackingPolicy):
        return CpuTarget(round(100 * policy.target), "autoscaling.target")
    if isinstance(policy, ThresholdPolicy):
        middle = (policy.lower + policy.upper) / 2
        return CpuTarget(round(100 * middle), "the middle of autoscaling.lower and .upper")
    raise ExportError(_unsupported(policy, kind))


def _unsupported(policy: Autoscaling, kind: str) -> str:
    if policy.policy == "none":
        return f"{kind}: the scenario has no autoscaling (autoscaling.policy: none)"
    better = {
        "latency_slo": "keda",
        "step": "aws",
        "scheduled": "a scheduled scaler (none exported)",
    }.get(policy.policy, "hpa")
    return f"{kind}: a {policy.policy} policy has no {kind} equivalent; export it as {better}"


def seconds(x: float, cap: int) -> int:
    return min(cap, math.ceil(x))


def action_period_s(policy: ThresholdPolicy | StepPolicy | LatencySloPolicy) -> int:
    """Decisions come every ``step_s`` and none within ``cooldown_s`` of the last action:
    one action per step_s x max(1, ceil(cooldown_s / step_s))."""
    steps = max(1, math.ceil(policy.cooldown_s / policy.step_s))
    return seconds(policy.step_s * steps, MAX_PERIOD_S)


def sustained_s(policy: ThresholdPolicy | StepPolicy) -> int:
    """The utilisation is averaged over ``time_steps`` steps before it acts."""
    return seconds(policy.time_steps * policy.step_s, MAX_WINDOW_S)
