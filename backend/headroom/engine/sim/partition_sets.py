"""The class-aware admission stages the event loop runs (docs/methods/admission.md:
SwitchAdm, StaticPart, DynamicPart), compiled and inlined into it.

Each VM counts the live requests it holds by kind (``VI_CONN`` + 0 static, + 1 dynamic)
and belongs to a partition set (``VI_SET``: 0 = Low, every VM without partitions; 1 =
High); ``ic[IC_LOAD + 2 x set + kind]`` sums them per set. The stage governs the VM rows
``first .. first + count`` (a chain's first tier); ``thr`` holds SwitchAdm's
per-server thresholds (admission.partitions.THR_* order).
"""

from __future__ import annotations

from numba import njit

from headroom.engine.admission.partitions import (
    dynamic_part_admits_normal,
    dynamic_part_step,
    switch_adm_admits,
)
from headroom.engine.sim.rows import (
    ADM_SWITCH,
    IC_HS_PEAK,
    IC_K,
    IC_K_N,
    IC_LOAD,
    VI_CONN,
    VI_N,
    VI_SET,
    VI_STATE,
    VM_ACTIVE,
)

REFUSE = -2  # the stage's verdict: refuse the request
# Live requests on the Low Set (dynamic) and on the High Set (static, dynamic).
_LOAD_LS_D, _LOAD_HS_S, _LOAD_HS_D = IC_LOAD + 1, IC_LOAD + 2, IC_LOAD + 3


@njit(cache=True, inline="always")
def hold(vi, ic, v, kind, delta):
    """VM v takes (delta 1) or lets go of (-1) a request of ``kind``, counted on the VM
    and in its set's total."""
    vi[v, VI_CONN + kind] += delta
    ic[IC_LOAD + 2 * vi[v, VI_SET] + kind] += delta
    if vi[v, VI_SET] == 1 and delta > 0:
        ic[IC_HS_PEAK] = max(ic[IC_HS_PEAK], ic[_LOAD_HS_S] + ic[_LOAD_HS_D])


@njit(cache=True)
def move_set(vi, ic, v, to_set):
    """Move VM v to another set: its live requests count in the new set's load from now
    on (it finishes what it holds, and takes only the new set's requests)."""
    for kind in range(2):
        n = vi[v, VI_CONN + kind]
        ic[IC_LOAD + 2 * vi[v, VI_SET] + kind] -= n
        ic[IC_LOAD + 2 * to_set + kind] += n
    vi[v, VI_SET] = to_set
    ic[IC_HS_PEAK] = max(ic[IC_HS_PEAK], ic[_LOAD_HS_S] + ic[_LOAD_HS_D])


@njit(cache=True)
def admit(vi, ic, thr, stage, n_servers, maxconn_sla, first, count, top, dyn):
    """The stage's verdict on a new request (``top``, ``dyn``: its class's user and kind):
    the partition set to dispatch it in (-1: any VM), or REFUSE."""
    if stage == ADM_SWITCH:
        n = 0
        for v in range(first, first + count):
            n += vi[v, VI_STATE] == VM_ACTIVE
        if n == 0:
            return -1
        live = ic[IC_LOAD + dyn] + ic[IC_LOAD + 2 + dyn]
        # The thresholds are per server here: live / N <= t  <=>  live <= N t.
        return -1 if switch_adm_admits(thr, live / n, dyn == 1, top == 1) else REFUSE
    if top:
        return 1
    if dynamic_part_admits_normal(ic[IC_K], n_servers, float(ic[_LOAD_LS_D]), maxconn_sla):
        return 0
    return REFUSE


@njit(cache=True)
def control(vi, ic, ks, n_servers, maxconn_sla, first, count, now):
    """DynamicPart's controller, once a period: from the High Set's load (its static and
    dynamic requests) now and at its peak over the period, move the least-loaded VM of
    one set to the other (K +- 1), writing the new K to the series ``ks``."""
    k, load = ic[IC_K], ic[_LOAD_HS_S] + ic[_LOAD_HS_D]
    peak = max(ic[IC_HS_PEAK], load)
    new = dynamic_part_step(k, n_servers, float(load), float(peak), maxconn_sla)
    if new != k:
        source = 0 if new > k else 1
        best = -1
        for v in range(first, first + count):
            candidate = vi[v, VI_STATE] == VM_ACTIVE and vi[v, VI_SET] == source
            if candidate and (best < 0 or vi[v, VI_N] < vi[best, VI_N]):
                best = v
        if best >= 0:
            move_set(vi, ic, best, 1 - source)
            ic[IC_K] = new
            r = ic[IC_K_N]
            if r < len(ks):
                ks[r, 0], ks[r, 1] = now, new
                ic[IC_K_N] = r + 1
    ic[IC_HS_PEAK] = ic[_LOAD_HS_S] + ic[_LOAD_HS_D]
