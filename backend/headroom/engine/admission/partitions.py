"""Class-aware admission kernels (docs/methods/admission.md): SwitchAdm's rejection rule and the
DynamicPart controller, compiled so the simulator core can call them per arrival and per control
period. The thresholds and the starting K come from headroom.engine.capacity.partitions (StaticPart,
SwitchAdm), not from copies of their formulas here.

State: DynamicPart's only state is K, the High Set size (an int the caller keeps); the
SwitchAdm thresholds are a float64[4] array (see `switch_adm_array`). The simulator core
(engine/sim/core.py) calls these kernels; `install` and `k_results` below write a scenario's
partition policy into its state and read K(t) back."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.capacity.partitions import static_partition, switch_adm_thresholds
from headroom.engine.sim import state as st
from headroom.engine.sim.scenario import PartitionAdmission, Scenario, ScenarioError
from headroom.engine.sim.vm import heap_push

FloatArray = NDArray[np.float64]
THR_STATIC, THR_DYNAMIC, THR_STATIC_TOP, THR_DYNAMIC_TOP = 0, 1, 2, 3


def switch_adm_array(
    n_servers: int,
    maxconn_sla_static: float,
    maxconn_sla_dynamic: float,
    maxconn_static: float,
    maxconn_dynamic: float,
) -> FloatArray:
    t = switch_adm_thresholds(
        n_servers, maxconn_sla_static, maxconn_sla_dynamic, maxconn_static, maxconn_dynamic
    )
    return np.array([t.static_conn, t.dynamic_conn, t.static_top_conn, t.dynamic_top_conn])


@njit(cache=True)
def switch_adm_admits(thresholds: FloatArray, live_conn: float, dynamic: bool, top: bool) -> bool:
    """Reject the normal class while the kind's live connections exceed N x MaxConn(T),
    and the top class only above N x MaxConn."""
    if top:
        limit = thresholds[THR_DYNAMIC_TOP] if dynamic else thresholds[THR_STATIC_TOP]
    else:
        limit = thresholds[THR_DYNAMIC] if dynamic else thresholds[THR_STATIC]
    return live_conn <= limit


def dynamic_part_start(
    n_servers: int, top_fraction: float, maxconn_sla: float, maxconn: float
) -> int:
    """DynamicPart starts from the StaticPart K."""
    return static_partition(n_servers, top_fraction, maxconn_sla, maxconn).k


@njit(cache=True)
def dynamic_part_step(
    k: int, n_servers: int, sum_load_hs: float, peak_load_hs: float, maxconn_sla: float
) -> int:
    """One control period: grow the High Set while its load (static and dynamic
    connections) exceeds K x MaxConn_D(T_D); shrink it when the load stayed below
    (K - 1) x MaxConn_D(T_D) all period (``peak_load_hs``, its maximum since the last
    period): a single low sample of a queue that is busy on average would give up a
    server the load needs. K stays in [1, N - 1]."""
    if sum_load_hs > k * maxconn_sla and k < n_servers - 1:
        return k + 1
    if peak_load_hs < (k - 1) * maxconn_sla and k > 1:
        return k - 1
    return k


@njit(cache=True)
def dynamic_part_admits_normal(
    k: int, n_servers: int, sum_load_ls: float, maxconn_sla: float
) -> bool:
    """Normal requests are rejected while SumLoad_LS > (N - K) x MaxConn_D(T_D)."""
    return sum_load_ls <= (n_servers - k) * maxconn_sla


@njit(cache=True)
def dynamic_part_run(
    k0: int, n_servers: int, sum_load_hs: FloatArray, peak_load_hs: FloatArray, maxconn_sla: float
) -> NDArray[np.int64]:
    """K after each period for series of High Set loads at the period's end and their
    peaks over the period (one of each per period)."""
    ks = np.empty(sum_load_hs.size, dtype=np.int64)
    k = k0
    for i in range(sum_load_hs.size):
        k = dynamic_part_step(k, n_servers, sum_load_hs[i], peak_load_hs[i], maxconn_sla)
        ks[i] = k
    return ks


# --- Simulator glue: the stage's parameters in the core state, and its results ---------


def top_fraction(rates_per_s: Sequence[float], top: Sequence[bool]) -> float:
    """rho_T: the top classes' share of the offered request rate (0 without traffic)."""
    total = float(sum(rates_per_s))
    if total <= 0:
        return 0.0
    return float(sum(r for r, t in zip(rates_per_s, top, strict=True) if t)) / total


def prepare(state: st.CoreState, s: Scenario, rates_per_s: Sequence[float]) -> st.CoreState:
    """Every run: each class's docs/methods/admission.md kind and user in the core (connection
    accounting); with a partition policy, its parameters too (``rates_per_s``: the classes' offered
    request rates, for rho_T)."""
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
