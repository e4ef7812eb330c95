"""Capacity and SLA methodology: knee curves, SLA targets, partitions, SCT, USL, power ratio.

Entry points:
- `analyze(table, CapacityParams(...)) -> CapacityReport` for a request table;
- `analyze_trace(table, SctParams(...)) -> SctReport` for a latency trace;
- `partition_report(n_servers, top_fraction, maxconn_sla, maxconn) -> PartitionReport`.
Each report has `to_dict()` giving the issue-4 JSON contract.
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
