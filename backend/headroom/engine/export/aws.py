"""EC2 Auto Scaling: the JSON `aws autoscaling put-scaling-policy --cli-input-json` takes,
target tracking for CPU-target policies, step scaling for step policies."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

from headroom.engine.export import figures
from headroom.engine.export import scaling as sc
from headroom.engine.export.model import ExportError, ExportFile, ExportOptions
from headroom.engine.sim.scenario import Scenario, StepPolicy

JSON = "application/json"


def aws(scenario: Scenario, o: ExportOptions) -> ExportFile:
    policy = scenario.autoscaling
    warmup_s = math.ceil(figures.scaled_pool(scenario).boot_s)
    if isinstance(policy, StepPolicy):
        document, note = _step(policy, o, warmup_s)
    else:
        target = sc.cpu_target(policy, "aws")
        document = {
            "AutoScalingGroupName": o.asg,
            "PolicyName": f"{o.asg}-cpu-target",
            "PolicyType": "TargetTrackingScaling",
            "TargetTrackingConfiguration": {
                "PredefinedMetricSpecification": {
                    "PredefinedMetricType": "ASGAverageCPUUtilization"
                },
                "TargetValue": float(target.percent),
            },
            "EstimatedInstanceWarmup": warmup_s,
        }
        note = (
            f"Keeps the group's average CPU at {target.percent}% ({target.source}); a new "
            f"instance counts after {warmup_s} s of warm-up (the scenario's boot time)."
        )
    text = json.dumps(document, indent=2) + "\n"
    return ExportFile("aws", text, JSON, f"{o.asg}-scaling-policy.json", note)


def _bands(policy: StepPolicy, out: bool) -> list[tuple[float, float, int]]:
    bands = sorted(b for b in policy.bands if (b[2] > 0) == out and b[2] != 0)
    if not bands:
        raise ExportError(f"aws: the step policy has no scale-{'out' if out else 'in'} band")
    for (_, high, _), (low, _, _) in itertools.pairwise(bands):
        if not math.isclose(high, low):
            raise ExportError("aws: step scaling needs adjoining bands (a gap between them)")
    return bands


def _step(policy: StepPolicy, o: ExportOptions, warmup_s: int) -> tuple[dict[str, Any], str]:
    """Bands become steps relative to the alarm threshold: the lowest scale-out band's lower
    edge (scale out), the highest scale-in band's upper edge (scale in), in percent CPU."""
    out = o.direction == "out"
    bands = _bands(policy, out)
    threshold = bands[0][0] if out else bands[-1][1]
    steps = []
    for i, (low, high, delta) in enumerate(bands):
        step: dict[str, Any] = {"ScalingAdjustment": delta}
        if out or i > 0:
            step["MetricIntervalLowerBound"] = _pct(low - threshold)
        if not out or i < len(bands) - 1:
            step["MetricIntervalUpperBound"] = _pct(high - threshold)
        steps.append(step)
    document = {
        "AutoScalingGroupName": o.asg,
        "PolicyName": f"{o.asg}-cpu-step-{o.direction}",
        "PolicyType": "StepScaling",
        "AdjustmentType": "ChangeInCapacity",
        "MetricAggregationType": "Average",
        "StepAdjustments": steps,
        "EstimatedInstanceWarmup": warmup_s,
    }
    sign = ">=" if out else "<"
    note = (
        f"Scale-{o.direction} steps of the policy's bands; attach it to a CloudWatch alarm on "
        f"the group's average CPUUtilization {sign} {_pct(threshold):g}% over {policy.time_steps} "
        f"period(s) of {policy.step_s:g} s. Warm-up {warmup_s} s (the boot time). The other "
        f"direction is --direction {'in' if out else 'out'}."
    )
    return document, note


def _pct(fraction: float) -> float:
    return round(100 * fraction, 6)
