"""Class-aware admission kernels (docs/methods/admission.md): SwitchAdm's rejection rule and the
DynamicPart controller, compiled so the simulator core can call them per arrival and per control
period. The thresholds and the starting K come from headroom.engine.capacity.partitions (StaticPart,
SwitchAdm), not from copies of their formulas here.

State: DynamicPart's only state is K, the High Set size (an int the caller keeps); the
SwitchAdm thresholds are a float64[4] array (see `switch_adm_array`). The simulator's
event loop calls these kernels through engine/sim/partition_sets.py;
engine/sim/partition_stage.py writes a scenario's partition policy into a loop's state
and reads K(t) back."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.capacity.partitions import static_partition, switch_adm_thresholds

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
