"""Capacity and SLA methodology: knee curves, SLA targets, partitions, SCT, USL, power ratio.

Entry points (each report has `to_dict()` giving the issue-4 JSON contract):
- `analyze(table, CapacityParams(...)) -> CapacityReport` for a request table (columns
  ts, latency_s, and optionally status, server, cls_request, cls_user, client):
  `classes` -> {knee: {load_per_s, latency_s, source}, breaking_point_per_s,
  sla: {percentile, threshold_s, max_rate_per_s, max_conn}, max_conn} and `capacity`
  -> {power_peak_load_per_s, r2} or null (with `capacity_reason`). Extra keys: per-class
  `curve` (chart points, source measured/model), `model`, `servers_needed`, `warnings`.
- `analyze_trace(table, SctParams(...)) -> SctReport` for a latency trace:
  `servers` -> {q_lower, q_upper (null: no descent seen), tp_max_per_s,
  usl: {sigma, kappa, n_star}}, plus the `levels` scatter and `warnings`.
- `partition_report(n_servers, top_fraction, maxconn_sla, maxconn) -> PartitionReport`:
  {K, warning, safety_factor, curve: [{top_fraction, K}, ...]}; also `static_partition`,
  `switch_adm_thresholds`, `servers_needed`.
Model values are always marked source="model" with the fit's error; `synth` draws
validation tables from M/M/c queues and pool-limited servers.

Imports are lazy (PEP 562): `from headroom.engine.capacity import CapacityParams` loads only
the light `params` module, so the API process never loads numpy, polars or numba.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from headroom.engine.capacity.params import CapacityParams, SctParams, Stance

if TYPE_CHECKING:
    from headroom.engine.capacity.analysis import analyze, analyze_windows
    from headroom.engine.capacity.partitions import (
        PartitionReport,
        StaticPartition,
        SwitchAdmThresholds,
        partition_report,
        servers_needed,
        static_partition,
        switch_adm_thresholds,
    )
    from headroom.engine.capacity.power import PowerCapacity, power_capacity
    from headroom.engine.capacity.report import CapacityReport, ClassReport
    from headroom.engine.capacity.sct import SctReport, SctResult, analyze_trace
    from headroom.engine.capacity.usl import UslFit, fit_usl

_LAZY = {
    "analyze": "analysis",
    "analyze_windows": "analysis",
    "PartitionReport": "partitions",
    "StaticPartition": "partitions",
    "SwitchAdmThresholds": "partitions",
    "partition_report": "partitions",
    "servers_needed": "partitions",
    "static_partition": "partitions",
    "switch_adm_thresholds": "partitions",
    "PowerCapacity": "power",
    "power_capacity": "power",
    "CapacityReport": "report",
    "ClassReport": "report",
    "SctReport": "sct",
    "SctResult": "sct",
    "analyze_trace": "sct",
    "UslFit": "usl",
    "fit_usl": "usl",
}


def __getattr__(name: str) -> Any:
    """Load the module that defines `name` on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "CapacityParams",
    "CapacityReport",
    "ClassReport",
    "PartitionReport",
    "PowerCapacity",
    "SctParams",
    "SctReport",
    "SctResult",
    "Stance",
    "StaticPartition",
    "SwitchAdmThresholds",
    "UslFit",
    "analyze",
    "analyze_trace",
    "analyze_windows",
    "fit_usl",
    "partition_report",
    "power_capacity",
    "servers_needed",
    "static_partition",
    "switch_adm_thresholds",
]
