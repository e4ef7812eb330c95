"""The partition admission stage in the simulator (SwitchAdm, StaticPart, DynamicPart of
docs/methods/admission.md): a scenario's policy written into the core state, and K(t) read back. The
compiled rules themselves are in headroom.engine.admission.partitions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from headroom.engine.admission.partitions import dynamic_part_start, switch_adm_array
from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.kernel import state as st
from headroom.engine.sim.scenario import PartitionAdmission, Scenario, ScenarioError


def top_fraction(rates_per_s: Sequence[float], top: Sequence[bool]) -> float:
    """rho_T: the top classes' share of the offered request rate (0 without traffic)."""
    total = float(sum(rates_per_s))
    if total <= 0:
        return 0.0
    return float(sum(r for r, t in zip(rates_per_s, top, strict=True) if t)) / total


def prepare(state: st.CoreState, s: Scenario, rates_per_s: Sequence[float]) -> st.CoreState:
    """Every run: each class's kind and user (docs/methods/admission.md) in the core
    (connection accounting); with a partition policy, its parameters too
    (``rates_per_s``: the classes' offered request rates, for rho_T)."""
    specs = s.workload.class_list()
    top = [c.user == "top" for c in specs]
    state.cls[:, st.CL_DYNAMIC] = [c.kind == "dynamic" for c in specs]
    state.cls[:, st.CL_TOP] = top
    a = s.admission
    if not isinstance(a, PartitionAdmission):
        return state
    if a.policy != "switch_adm" and s.cluster.vms.start < 2:
        raise ScenarioError(
            f"cluster.vms.start: {a.policy} needs at least 2 VMs (a High and a Low Set)"
        )
    state = state._replace(k_series=np.zeros((k_rows(a, s.duration_s), 2)))
    install(state, a, s.cluster.vms.start, top_fraction(rates_per_s, top))
    return state


def results(
    s: Scenario, state: st.CoreState
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The result's ``admission`` and ``admission_series`` (None but for StaticPart and
    DynamicPart)."""
    if s.admission.policy not in ("static_part", "dynamic_part"):
        return None, None
    return k_results(state, s.duration_s)


def install(state: st.CoreState, a: PartitionAdmission, n_servers: int, rho_top: float) -> None:
    """Write a partition policy into a fresh core state (all ``n_servers`` VMs active).

    SwitchAdm: per-server thresholds (the core multiplies by the active VMs); a static
    threshold without ``maxconn_static_sla`` and the static top threshold (no MaxConn_S in
    the scenario) are infinite. StaticPart/DynamicPart: the first K VMs form the High Set;
    DynamicPart's controller fires every ``period_s`` from t = period_s."""
    ip, fp = state.ip, state.fp
    ip[st.IP_ADMISSION] = st.ADMISSION_CODES[a.policy]
    ip[st.IP_N_SERVERS] = n_servers
    static_sla = math.inf if a.maxconn_static_sla is None else a.maxconn_static_sla
    fp[st.FP_THR : st.FP_THR + 4] = switch_adm_array(
        1, static_sla, a.maxconn_sla, math.inf, a.maxconn
    )
    fp[st.FP_MAXCONN_SLA], fp[st.FP_PERIOD_S] = a.maxconn_sla, a.period_s
    if a.policy == "switch_adm":
        return
    k = dynamic_part_start(n_servers, rho_top, a.maxconn_sla, a.maxconn)
    active = np.flatnonzero(state.vi[:, st.VI_STATE] == st.VM_ACTIVE)
    state.vi[active[:k], st.VI_SET] = 1
    state.ic[st.IC_K], state.ic[st.IC_K_N] = k, 1
    state.k_series[0] = (0.0, k)
    if a.policy == "dynamic_part":
        heap_push(state.et, state.ei, state.ic, a.period_s, st.EV_PERIOD, 0, 0)


def k_rows(a: PartitionAdmission, duration_s: float) -> int:
    """Rows the K series can need: the start and one change per control period."""
    return 2 + math.ceil(duration_s / a.period_s) if a.policy == "dynamic_part" else 1


def k_results(state: st.CoreState, duration_s: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """({k_mean (time-weighted over the run), k_min, k_max}, {"t_s", "k"} step series)."""
    rows = state.k_series[: int(state.ic[st.IC_K_N])]
    t_s, k = rows[:, 0].copy(), rows[:, 1].astype(np.int64)
    held_s = np.diff(np.append(t_s, duration_s))
    summary = {
        "k_mean": float(np.sum(k * held_s) / duration_s),
        "k_min": int(k.min()),
        "k_max": int(k.max()),
    }
    return summary, {"t_s": t_s, "k": k}
