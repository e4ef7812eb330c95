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
"""

from headroom.engine.capacity.analyze import analyze
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
from headroom.engine.capacity.report import CapacityParams, CapacityReport, ClassReport
from headroom.engine.capacity.sct import SctParams, SctReport, SctResult, analyze_trace
from headroom.engine.capacity.usl import UslFit, fit_usl

__all__ = [
    "CapacityParams",
    "CapacityReport",
    "ClassReport",
    "PartitionReport",
    "PowerCapacity",
    "SctParams",
    "SctReport",
    "SctResult",
    "StaticPartition",
    "SwitchAdmThresholds",
    "UslFit",
    "analyze",
    "analyze_trace",
    "fit_usl",
    "partition_report",
    "power_capacity",
    "servers_needed",
    "static_partition",
    "switch_adm_thresholds",
]
