"""Autoscaling policies: small strategy objects behind one Protocol.

At every decision point (the end of each ``step_s``) the runner hands a policy an
:class:`Observation` and gets back the desired number of allocated VMs (booting plus
active). The runner clamps it to [min, max], applies it (boot new VMs, drain the least
loaded) and calls ``acted`` when something changed, which starts cooldowns.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from headroom.engine.sim import scenario as sc
from headroom.engine.sim import sketch
from headroom.engine.sim.results import ScalingAction


@dataclass(frozen=True)
class Observation:
    now_s: float
    monitor_s: float
    booting: int
    active: int
    utilization: NDArray[np.float32]  # mean over active VMs, one value per tick so far
    active_series: NDArray[np.int32]  # active VMs per tick so far
    arrivals: NDArray[np.int32]  # request arrivals per tick so far
    window_s: float
    window_hist: NDArray[np.int32]  # latency histogram (coarse sketch) per complete window

    @property
    def allocated(self) -> int:
        return self.booting + self.active

    def mean_utilization(self, span_s: float) -> float:
        """Mean over the ticks of the last ``span_s`` (ticks with no active VM skipped)."""
        n = max(1, round(span_s / self.monitor_s))
        util, active = self.utilization[-n:], self.active_series[-n:]
        return float(util[active > 0].mean()) if bool(np.any(active > 0)) else 0.0

    def latency_quantile(self, q: float, span_s: float) -> float:
        """Quantile of latencies completed in the last whole windows covering ``span_s``."""
        n = max(1, math.ceil(span_s / self.window_s - 1e-9))
        rows = self.window_hist[-n:]
        if rows.size == 0:
            return math.nan
        return float(
            sketch.sketch_quantiles(rows.sum(axis=0), sketch.COARSE_ALPHA, np.array([q]))[0]
        )


@dataclass(frozen=True)
class VmCounts:
    """A cluster's (or a tier's) VMs by state at a decision point."""

    booting: int
    active: int
    draining: int


def rescale(
    policy: ScalingPolicy,
    vms: sc.VmCount,
    counts: VmCounts,
    observation: Observation,
    boot: Callable[[int], int],
    drain_one: Callable[[], bool],
) -> ScalingAction | None:
    """One decision: the policy's target clamped to [min, max - draining], reached by
    booting VMs (``boot(k)`` returns how many it started) or draining the least loaded
    one at a time (keeping one active); the action taken, if any."""
    target = policy.decide(observation)
    target = max(vms.min, min(target, vms.max - counts.draining))
    current = new = counts.booting + counts.active
    active = counts.active
    if target > current:
        new += boot(target - current)
    while new > target and active > 1 and drain_one():
        new, active = new - 1, active - 1
    if new == current:
        return None
    policy.acted(observation.now_s)
    return ScalingAction(observation.now_s, current, new)


def _ceil(x: float) -> int:
    """Ceiling that ignores float32 rounding of the utilisation (2.0000001 -> 2)."""
    return math.ceil(x - 1e-6)


class ScalingPolicy(Protocol):
    def decide(self, obs: Observation) -> int: ...

    def acted(self, now_s: float) -> None: ...


class NullPolicy:
    """Fixed size: never changes the allocation."""

    def decide(self, obs: Observation) -> int:
        return obs.allocated

    def acted(self, now_s: float) -> None:
        return None


class _Cooldown:
    def __init__(self, cooldown_s: float) -> None:
        self.cooldown_s, self.last_s = cooldown_s, -math.inf

    def cooling(self, now_s: float) -> bool:
        return now_s - self.last_s < self.cooldown_s

    def acted(self, now_s: float) -> None:
        self.last_s = now_s


class ThresholdPolicy(_Cooldown):
    """Average utilisation over the last ``time_steps`` steps vs [lower, upper] (spec)."""

    def __init__(self, cfg: sc.ThresholdPolicy) -> None:
        super().__init__(cfg.cooldown_s)
        self.cfg = cfg

    def decide(self, obs: Observation) -> int:
        c = self.cfg
        util = obs.mean_utilization(c.time_steps * c.step_s)
        if self.cooling(obs.now_s):
            return obs.allocated
        if util > c.upper:
            if c.step_size == "band_middle":
                middle = (c.lower + c.upper) / 2
                return max(obs.allocated + 1, _ceil(obs.active * util / middle))
            return obs.allocated + c.step_size
        if util < c.lower:
            return obs.allocated - 1
        return obs.allocated


class TargetTrackingPolicy:
    """Kubernetes HPA: desired = ceil(active x util / target), tolerance, scale-in window."""

    def __init__(self, cfg: sc.TargetTrackingPolicy) -> None:
        self.cfg = cfg
        self.history: deque[tuple[float, int]] = deque()

    def decide(self, obs: Observation) -> int:
        c = self.cfg
        ratio = obs.mean_utilization(c.step_s) / c.target
        desired = obs.allocated
        if abs(ratio - 1) > c.tolerance and obs.active > 0:
            desired = _ceil(obs.active * ratio)
        self.history.append((obs.now_s, desired))
        while self.history and self.history[0][0] < obs.now_s - c.stabilization_s:
            self.history.popleft()
        if desired >= obs.allocated:
            return desired
        return min(obs.allocated, max(d for _, d in self.history))

    def acted(self, now_s: float) -> None:
        return None


class StepScalingPolicy(_Cooldown):
    """Bands of mean utilisation [low, high) -> change in VMs."""

    def __init__(self, cfg: sc.StepPolicy) -> None:
        super().__init__(cfg.cooldown_s)
        self.cfg = cfg

    def decide(self, obs: Observation) -> int:
        util = obs.mean_utilization(self.cfg.time_steps * self.cfg.step_s)
        if self.cooling(obs.now_s):
            return obs.allocated
        for low, high, delta in self.cfg.bands:
            if low <= util < high or (high >= 1.0 and util >= high):
                return obs.allocated + delta
        return obs.allocated


class ScheduledPolicy:
    """A step function of time: from ``t_s`` onwards, ``vms`` VMs."""

    def __init__(self, cfg: sc.ScheduledPolicy) -> None:
        self.starts = np.array([t for t, _ in cfg.schedule])
        self.counts = [n for _, n in cfg.schedule]

    def decide(self, obs: Observation) -> int:
        i = int(np.searchsorted(self.starts, obs.now_s, side="right")) - 1
        return self.counts[i] if i >= 0 else obs.allocated

    def acted(self, now_s: float) -> None:
        return None


class PredictivePolicy(ThresholdPolicy):
    """Provision for the next horizon's peak rate (from the scenario's forecast, else from the
    same time on earlier seasons); reactive on top."""

    def __init__(self, cfg: sc.PredictivePolicy, work_per_request_s: float, capacity: float):
        super().__init__(cfg)
        self.pcfg, self.work_s, self.capacity = cfg, work_per_request_s, capacity
        points = np.array(cfg.forecast or [], dtype=np.float64).reshape(-1, 2)
        self.forecast_t_s, self.forecast_rate = points[:, 0], points[:, 1]

    def forecast_rate_per_s(self, obs: Observation) -> float:
        if len(self.forecast_t_s):
            return self.given_peak_per_s(obs.now_s)
        return self.seasonal_peak_per_s(obs)

    def given_peak_per_s(self, now_s: float) -> float:
        """The forecast's highest rate over [now, now + horizon]: on straight lines between
        points the peak is at a point or an edge (beyond the forecast, its end values)."""
        end_s = now_s + self.pcfg.horizon_s
        inside = (self.forecast_t_s > now_s) & (self.forecast_t_s < end_s)
        edges = np.interp([now_s, end_s], self.forecast_t_s, self.forecast_rate)
        return float(max(edges.max(), self.forecast_rate[inside].max(initial=0.0)))

    def seasonal_peak_per_s(self, obs: Observation) -> float:
        c, m = self.pcfg, obs.monitor_s
        peaks = []
        back = c.season_s
        while back <= obs.now_s + 1e-9:
            lo = round((obs.now_s - back) / m)
            hi = round((obs.now_s - back + c.horizon_s) / m)
            window = obs.arrivals[lo:hi]
            if len(window) > 0:
                per_step = max(1, round(c.step_s / m))
                sums = np.add.reduceat(window, np.arange(0, len(window), per_step))
                peaks.append(float(sums.max()) / c.step_s)
            back += c.season_s
        return float(np.mean(peaks)) if peaks else 0.0

    def decide(self, obs: Observation) -> int:
        reactive = super().decide(obs)
        rate = self.forecast_rate_per_s(obs)
        needed = _ceil(rate * self.work_s / (self.pcfg.target_utilization * self.capacity))
        return max(reactive, needed) if rate > 0 else reactive


class LatencySloPolicy(_Cooldown):
    """Scale out while the windowed latency percentile exceeds the SLA threshold."""

    def __init__(self, cfg: sc.LatencySloPolicy, threshold_s: float) -> None:
        super().__init__(cfg.cooldown_s)
        self.cfg, self.threshold_s = cfg, threshold_s

    def decide(self, obs: Observation) -> int:
        c = self.cfg
        latency = obs.latency_quantile(c.percentile / 100, c.window_s)
        if self.cooling(obs.now_s) or math.isnan(latency):
            return obs.allocated
        if latency > self.threshold_s:
            return obs.allocated + c.step_size
        low_latency = latency < c.scale_in_below * self.threshold_s
        if low_latency and obs.mean_utilization(c.step_s) < c.lower:
            return obs.allocated - 1
        return obs.allocated


def build_policy(scenario: sc.Scenario, mean_service_s: float) -> ScalingPolicy:
    """The policy object a scenario's ``autoscaling`` section describes."""
    a, cluster = scenario.autoscaling, scenario.cluster
    if isinstance(a, sc.PredictivePolicy):
        return PredictivePolicy(a, mean_service_s, cluster.cores * cluster.speed)
    if isinstance(a, sc.ThresholdPolicy):
        return ThresholdPolicy(a)
    if isinstance(a, sc.TargetTrackingPolicy):
        return TargetTrackingPolicy(a)
    if isinstance(a, sc.StepPolicy):
        return StepScalingPolicy(a)
    if isinstance(a, sc.ScheduledPolicy):
        return ScheduledPolicy(a)
    if isinstance(a, sc.LatencySloPolicy):
        threshold = a.threshold_s or (scenario.sla.threshold_s if scenario.sla else math.inf)
        return LatencySloPolicy(a, threshold)
    return NullPolicy()
