"""The partition admission stage in the simulator (SwitchAdm, StaticPart, DynamicPart of
docs/methods/admission.md): a scenario's policy written into a loop's arrays (StageRows),
and K(t) read back. The compiled stage is partition_sets.py, on the rules of
headroom.engine.admission.partitions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from headroom.engine.admission.partitions import dynamic_part_start, switch_adm_array
from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.rows import (
    ADMISSION_CODES,
    EV_PERIOD,
    F64,
    I64,
    IC_K,
    IC_K_N,
    VI_SET,
    VI_STATE,
    VM_ACTIVE,
)
from headroom.engine.sim.scenario import PartitionAdmission, Scenario, ScenarioError


def top_fraction(rates_per_s: Sequence[float], top: Sequence[bool]) -> float:
    """rho_T: the top classes' share of the offered request rate (0 without traffic)."""
    total = float(sum(rates_per_s))
    if total <= 0:
        return 0.0
    return float(sum(r for r, t in zip(rates_per_s, top, strict=True) if t)) / total


def class_flags(s: Scenario) -> tuple[list[bool], list[bool]]:
    """Each class's user (top) and kind (dynamic) of docs/methods/admission.md."""
    specs = s.workload.class_list()
    return [c.user == "top" for c in specs], [c.kind == "dynamic" for c in specs]


class StageRows(NamedTuple):
    """A loop's arrays the stage is set up in: ``ip`` and ``fp`` from the loop's
    IP_ADMISSION and FP_THR on, ``vi`` the rows of the VMs the stage governs (all
    active), the counters ``ic`` and the event heap (``et``, ``ei``)."""

    ip: I64
    fp: F64
    vi: I64
    ic: I64
    et: F64
    ei: I64


def set_up(
    a: PartitionAdmission,
    rows: StageRows,
    n_servers: int,
    field: str,
    duration_s: float,
    rho_top: float,
) -> F64:
    """A partition policy in a fresh loop state: checked against the
    ``n_servers`` VMs it governs (``field``: the scenario field that sets them), its
    parameters written, its sets installed; the K series the loop writes to."""
    if a.policy != "switch_adm" and n_servers < 2:
        raise ScenarioError(f"{field}: {a.policy} needs at least 2 VMs (a High and a Low Set)")
    ks = np.zeros((k_rows(a, duration_s), 2))
    _write_params(rows.ip, rows.fp, a, n_servers)
    _install(rows, ks, a, rho_top)
    return ks


def _write_params(ip: I64, fp: F64, a: PartitionAdmission, n_servers: int) -> None:
    """A loop's parameters of the stage: ``ip`` from its IP_ADMISSION on takes (stage
    code, servers), ``fp`` from its FP_THR on (SwitchAdm's four per-server thresholds,
    MaxConn_D(T_D) per server, DynamicPart's control period).

    A static threshold without ``maxconn_static_sla`` and the static top threshold (no
    MaxConn_S in the scenario) are infinite; the loops multiply the thresholds by the
    active VMs."""
    ip[0], ip[1] = ADMISSION_CODES[a.policy], n_servers
    static_sla = math.inf if a.maxconn_static_sla is None else a.maxconn_static_sla
    fp[:4] = switch_adm_array(1, static_sla, a.maxconn_sla, math.inf, a.maxconn)
    fp[4], fp[5] = a.maxconn_sla, a.period_s


def _install(rows: StageRows, ks: F64, a: PartitionAdmission, rho_top: float) -> None:
    """The partition sets at the start: StaticPart and DynamicPart make the first K of
    the governed VMs the High Set, and DynamicPart's controller fires every ``period_s``
    from t = period_s."""
    if a.policy == "switch_adm":
        return
    active = np.flatnonzero(rows.vi[:, VI_STATE] == VM_ACTIVE)
    k = dynamic_part_start(len(active), rho_top, a.maxconn_sla, a.maxconn)
    rows.vi[active[:k], VI_SET] = 1
    rows.ic[IC_K], rows.ic[IC_K_N] = k, 1
    ks[0] = (0.0, k)
    if a.policy == "dynamic_part":
        heap_push(rows.et, rows.ei, rows.ic, rows.vi, a.period_s, EV_PERIOD, 0)


def k_rows(a: PartitionAdmission, duration_s: float) -> int:
    """Rows the K series can need: the start and one change per control period."""
    return 2 + math.ceil(duration_s / a.period_s) if a.policy == "dynamic_part" else 1


def k_results(ks: F64, n: int, duration_s: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """({k_mean (time-weighted over the run), k_min, k_max}, {"t_s", "k"} step series)
    from the first ``n`` rows of the K series ``ks``."""
    rows = ks[:n]
    t_s, k = rows[:, 0].copy(), rows[:, 1].astype(np.int64)
    held_s = np.diff(np.append(t_s, duration_s))
    summary = {
        "k_mean": float(np.sum(k * held_s) / duration_s),
        "k_min": int(k.min()),
        "k_max": int(k.max()),
    }
    return summary, {"t_s": t_s, "k": k}
