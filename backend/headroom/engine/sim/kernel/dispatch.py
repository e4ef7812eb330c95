"""Where a new request goes: the admission stage (admit, and DynamicPart's controller,
period) and the dispatcher (choose_vm), compiled and inlined into the event loop."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import dispatch, partition_sets
from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.kernel import state as S

REFUSE = partition_sets.REFUSE


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
    """The admission stage for a new base request of class c (partition_sets.admit over
    the whole cluster): the partition set to dispatch it in (-1: any VM), or REFUSE."""
    thr, stage, n_servers = fp[S.FP_THR : S.FP_THR + 4], ip[S.IP_ADMISSION], ip[S.IP_N_SERVERS]
    top, dyn = cls[c, S.CL_TOP], cls[c, S.CL_DYNAMIC]
    maxconn_sla = fp[S.FP_MAXCONN_SLA]
    return partition_sets.admit(vi, ic, thr, stage, n_servers, maxconn_sla, 0, len(vi), top, dyn)


@njit(cache=True)
def period(vi, et, ei, ic, ip, fp, ks, now):
    """DynamicPart's controller over the whole cluster (partition_sets.control), then
    re-armed for the next period."""
    partition_sets.control(vi, ic, ks, ip[S.IP_N_SERVERS], fp[S.FP_MAXCONN_SLA], 0, len(vi), now)
    heap_push(et, ei, ic, now + fp[S.FP_PERIOD_S], S.EV_PERIOD, 0, 0)
