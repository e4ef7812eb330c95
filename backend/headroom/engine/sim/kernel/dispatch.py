"""Where a new request goes: the admission stage (admit, and DynamicPart's controller,
period) and the dispatcher (choose_vm), compiled and inlined into the event loop."""

from __future__ import annotations

from numba import njit

from headroom.engine.admission.partitions import (
    dynamic_part_admits_normal,
    dynamic_part_step,
    switch_adm_admits,
)
from headroom.engine.sim import dispatch
from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.kernel import state as S
from headroom.engine.sim.kernel.vm import move_set

_ACTIVE = S.VM_ACTIVE
REFUSE = -2  # the admission stage's verdict: refuse the request
# Live connections on the Low Set (dynamic) and on the High Set (static, dynamic), by
# state.IC_LOAD's layout.
_LOAD_LS_D, _LOAD_HS_S, _LOAD_HS_D = S.IC_LOAD + 1, S.IC_LOAD + 2, S.IC_LOAD + 3


@njit(cache=True, inline="always")
def choose_vm(vf, vi, ic, ip, qu, now, want):
    """The dispatcher over the whole cluster (sim/dispatch.py): an active VM by the
    configured policy, -1 if none; with ``want`` >= 0 only the VMs of that partition set."""
    start = ic[S.IC_LAST_VM] + 1
    best = dispatch.choose_vm(vf, vi, ic, qu, ip[S.IP_DISPATCH], 0, len(vi), start, now, want)
    if best >= 0:
        ic[S.IC_LAST_VM] = best
    return best


@njit(cache=True)
def admit(vi, ic, ip, fp, cls, c):
    """The admission stage for a new base request of class c (docs/methods/admission.md):
    the partition set to dispatch it in (-1: any VM), or REFUSE."""
    top, dyn = cls[c, S.CL_TOP], cls[c, S.CL_DYNAMIC]
    if ip[S.IP_ADMISSION] == S.ADM_SWITCH:
        n = 0
        for v in range(len(vi)):
            n += vi[v, S.VI_STATE] == _ACTIVE
        if n == 0:
            return -1
        live = ic[S.IC_LOAD + dyn] + ic[S.IC_LOAD + 2 + dyn]
        # The kernel's thresholds are per server here: live / N <= t  <=>  live <= N t.
        thr = fp[S.FP_THR : S.FP_THR + 4]
        return -1 if switch_adm_admits(thr, live / n, dyn == 1, top == 1) else REFUSE
    if top:
        return 1
    k, n_servers, per_server = ic[S.IC_K], ip[S.IP_N_SERVERS], fp[S.FP_MAXCONN_SLA]
    if dynamic_part_admits_normal(k, n_servers, float(ic[_LOAD_LS_D]), per_server):
        return 0
    return REFUSE


@njit(cache=True)
def period(vi, et, ei, ic, ip, fp, ks, now):
    """DynamicPart's controller (docs/methods/admission.md), every period: from the High
    Set's load (its static and dynamic connections) now and at its peak over the period, move the
    least-loaded server of one set to the other (K +- 1), then re-arm."""
    k, load = ic[S.IC_K], ic[_LOAD_HS_S] + ic[_LOAD_HS_D]
    peak = max(ic[S.IC_HS_PEAK], load)
    new = dynamic_part_step(k, ip[S.IP_N_SERVERS], float(load), float(peak), fp[S.FP_MAXCONN_SLA])
    if new != k:
        source = 0 if new > k else 1
        best = -1
        for v in range(len(vi)):
            candidate = vi[v, S.VI_STATE] == _ACTIVE and vi[v, S.VI_SET] == source
            if candidate and (best < 0 or vi[v, S.VI_N] < vi[best, S.VI_N]):
                best = v
        if best >= 0:
            move_set(vi, ic, best, 1 - source)
            ic[S.IC_K] = new
            r = ic[S.IC_K_N]
            if r < len(ks):
                ks[r, 0], ks[r, 1] = now, new
                ic[S.IC_K_N] = r + 1
    ic[S.IC_HS_PEAK] = ic[_LOAD_HS_S] + ic[_LOAD_HS_D]
    heap_push(et, ei, ic, now + fp[S.FP_PERIOD_S], S.EV_PERIOD, 0, 0)
