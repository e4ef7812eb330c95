"""The class-aware admission stage at the first tier of the multi-tier loop (loop.py):
partition_sets.py's stage over the first tier's VM rows. It decides for each arrival
(refused as if the tier were full, or dispatched within a partition set) and counts the
requests the tier's VMs hold by set and kind; DynamicPart's controller runs on EV_PERIOD
events."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import partition_sets
from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.tiers import state as S


@njit(cache=True)
def hold(vi, ic, ji, cls, j, delta):
    """The admission stage counts request j as held (delta 1) or let go of (-1) by its
    VM at the first tier. Kept out of the per-tier helpers, and given only the arrays it
    reads: those helpers are on every request's path, and grown they run slower."""
    partition_sets.hold(vi, ic, ji[j, S.JI_VM], cls[ji[j, S.JI_CLASS], S.CL_DYNAMIC], delta)


@njit(cache=True)
def admit(vi, ic, ip, fp, tp, cls, c):
    """The admission stage's verdict on a new request of class c at the first tier."""
    thr, stage, n_servers = fp[S.FP_THR : S.FP_THR + 4], ip[S.IP_ADMISSION], ip[S.IP_N_SERVERS]
    first, count = tp[0, S.TP_FIRST], tp[0, S.TP_COUNT]
    top, dyn, maxconn_sla = cls[c, S.CL_TOP], cls[c, S.CL_DYNAMIC], fp[S.FP_MAXCONN_SLA]
    return partition_sets.admit(vi, ic, thr, stage, n_servers, maxconn_sla, first, count,
                                top, dyn)  # fmt: skip


@njit(cache=True)
def period(vi, ic, ip, fp, tp, ks, et, ei, now):
    """DynamicPart's controller over the first tier, then re-armed for the next period."""
    first, count = tp[0, S.TP_FIRST], tp[0, S.TP_COUNT]
    n_servers, maxconn_sla = ip[S.IP_N_SERVERS], fp[S.FP_MAXCONN_SLA]
    partition_sets.control(vi, ic, ks, n_servers, maxconn_sla, first, count, now)
    heap_push(et, ei, ic, vi, now + fp[S.FP_PERIOD_S], S.EV_PERIOD, 0)
