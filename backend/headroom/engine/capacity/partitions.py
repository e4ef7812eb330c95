"""Partition sizes and admission thresholds (docs/methods/admission.md: StaticPart, SwitchAdm) and
the number of servers a peak load needs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

CANNOT_MEET = (
    "the cluster cannot meet the top-class SLA at this mix without refusing all normal traffic"
)
_EPS = 1e-9  # keeps ceil() from jumping over an exact integer because of rounding
CURVE_STEP = 0.05


@dataclass(frozen=True)
class StaticPartition:
    k: int  # servers in the High Set, clamped to [1, N - 1]
    k_formula: int  # the formula's value before clamping
    safety_factor: float  # MaxConn_D(T_D) / MaxConn_D
    warning: str | None


@dataclass(frozen=True)
class KPoint:
    top_fraction: float
    k: int
    k_formula: int


@dataclass(frozen=True)
class PartitionReport:
    n_servers: int
    top_fraction: float
    partition: StaticPartition
    curve: tuple[KPoint, ...]
    max_top_fraction: float  # the largest top fraction served without an empty Low Set

    def to_dict(self) -> dict[str, Any]:
        return {
            "K": self.partition.k,
            "warning": self.partition.warning,
            "safety_factor": self.partition.safety_factor,
            "max_top_fraction": self.max_top_fraction,
            "curve": [{"top_fraction": p.top_fraction, "K": p.k} for p in self.curve],
        }


@dataclass(frozen=True)
class SwitchAdmThresholds:
    """Summed live connections above which the front end rejects lower-class requests."""

    static_conn: float  # Thr_S = N x MaxConn_S(T_S)
    dynamic_conn: float  # Thr_D = N x MaxConn_D(T_D)
    static_top_conn: float  # N x MaxConn_S: above it the top class is rejected too
    dynamic_top_conn: float  # N x MaxConn_D


def _validate(n_servers: int, top_fraction: float, maxconn_sla: float, maxconn: float) -> None:
    if n_servers < 2:
        raise ValueError(f"servers must be >= 2 to split into two sets, got {n_servers}")
    if not 0.0 <= top_fraction <= 1.0:
        raise ValueError(f"top_fraction must be in [0, 1], got {top_fraction}")
    if not 0 < maxconn_sla <= maxconn:
        raise ValueError(
            f"need 0 < maxconn_sla <= maxconn, got maxconn_sla={maxconn_sla}, maxconn={maxconn}"
        )


def static_partition(
    n_servers: int, top_fraction: float, maxconn_sla: float, maxconn: float
) -> StaticPartition:
    """K = ceil(rho N + N (1 - rho) (1 - MaxConn_D(T_D) / MaxConn_D)), clamped to [1, N-1]."""
    _validate(n_servers, top_fraction, maxconn_sla, maxconn)
    safety = maxconn_sla / maxconn
    n, rho = n_servers, top_fraction
    k_formula = math.ceil(rho * n + n * (1.0 - rho) * (1.0 - safety) - _EPS)
    k = min(max(k_formula, 1), n - 1)
    warning = CANNOT_MEET if k_formula >= n else None
    return StaticPartition(k=k, k_formula=k_formula, safety_factor=safety, warning=warning)


def max_top_fraction(n_servers: int, maxconn_sla: float, maxconn: float) -> float:
    """Largest rho with formula K <= N - 1: rho N + N (1 - rho)(1 - s) <= N - 1."""
    safety = maxconn_sla / maxconn
    # N (1 - s) + rho N s <= N - 1  =>  rho <= (N s - 1) / (N s)
    return max(0.0, (n_servers * safety - 1.0) / (n_servers * safety))


def partition_report(
    n_servers: int, top_fraction: float, maxconn_sla: float, maxconn: float
) -> PartitionReport:
    """K for the given mix and the K-vs-top-fraction curve from 0 to 1 in steps of 0.05."""
    _finite(servers=n_servers, top_fraction=top_fraction, maxconn_sla=maxconn_sla)
    _finite(maxconn=maxconn)
    steps = round(1.0 / CURVE_STEP)
    curve = []
    for i in range(steps + 1):
        rho = round(i * CURVE_STEP, 10)
        part = static_partition(n_servers, rho, maxconn_sla, maxconn)
        curve.append(KPoint(top_fraction=rho, k=part.k, k_formula=part.k_formula))
    return PartitionReport(
        n_servers=n_servers,
        top_fraction=top_fraction,
        partition=static_partition(n_servers, top_fraction, maxconn_sla, maxconn),
        curve=tuple(curve),
        max_top_fraction=max_top_fraction(n_servers, maxconn_sla, maxconn),
    )


def _finite(**values: float) -> None:
    """ValueError naming the first non-finite value (inf limits gave NaN in K's formula)."""
    for name, value in values.items():
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value}")


def switch_adm_thresholds(
    n_servers: int,
    maxconn_sla_static: float,
    maxconn_sla_dynamic: float,
    maxconn_static: float,
    maxconn_dynamic: float,
) -> SwitchAdmThresholds:
    if n_servers < 1:
        raise ValueError(f"servers must be >= 1, got {n_servers}")
    return SwitchAdmThresholds(
        static_conn=n_servers * maxconn_sla_static,
        dynamic_conn=n_servers * maxconn_sla_dynamic,
        static_top_conn=n_servers * maxconn_static,
        dynamic_top_conn=n_servers * maxconn_dynamic,
    )


def servers_needed(peak_rate_per_s: float, max_rate_per_s: float) -> int:
    """ceil(peak rate / MaxRate(T)), at least 1."""
    if not max_rate_per_s > 0:
        raise ValueError(f"max_rate_per_s must be > 0, got {max_rate_per_s}")
    if peak_rate_per_s < 0:
        raise ValueError(f"peak_rate_per_s must be >= 0, got {peak_rate_per_s}")
    return max(1, math.ceil(peak_rate_per_s / max_rate_per_s - _EPS))
