"""A page's bookkeeping in the multi-tier loop (loop.py): its row, its requests' demands
drawn from the pools (pools.py), its client's next request, and what an event with
pages needs room for. What sends a page's requests to the VMs is in requests.py."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim.heaps import heap_push
from headroom.engine.sim.tiers import state as S


@njit(cache=True, inline="always")
def draw_demands(W, j, c):
    """Request j's demand at every tier from the pools (a tier's own row, else its class's)."""
    ip, tp, jf, qd, qc = W.ip, W.tp, W.jf, W.qd, W.qc
    n_tiers, n_classes = ip[S.IP_TIERS], len(W.cls)
    for t in range(n_tiers):
        row = n_classes + t if tp[t, S.TP_OWN_DEMAND] else c
        jf[j, 1 + 2 * n_tiers + t] = qd[row, qc[row, S.QC_DEM_PTR]]
        qc[row, S.QC_DEM_PTR] += 1


@njit(cache=True, inline="always")
def new_page(W, c, nobj, npush, now):
    """A page of class c arriving now: ``nobj`` objects, ``npush`` of them pushed."""
    ic, pf, pi = W.ic, W.pf, W.pi
    p = ic[S.IC_PAGE_FREE]
    ic[S.IC_PAGE_FREE] = pi[p, S.PI_NEXT]
    ic[S.IC_PAGES_FREE_N] -= 1
    ic[S.IC_PAGES_ARRIVED] += 1
    pf[p, S.PF_ARRIVAL], pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH] = now, nobj, npush
    pi[p, S.PI_CLASS], pi[p, S.PI_VM] = c, -1
    pi[p, S.PI_OUTSTANDING], pi[p, S.PI_TO_ISSUE], pi[p, S.PI_FAILED] = 1 + nobj, 0, 0
    return p


@njit(cache=True, inline="always")
def stick(W, p, v):
    """Page p's base request went to VM v (the first tier's): its page's other requests
    follow it there unless dispatched one by one."""
    W.pi[p, S.PI_VM] = v
    if W.ip[S.IP_PER_REQUEST] == 0:
        W.vi[v, S.VI_PAGES] += 1


@njit(cache=True, inline="always")
def page_refused(W, p):
    """Page p's base request was refused: the page has no other request."""
    W.ic[S.IC_PAGES_REJECTED] += 1
    W.pi[p, S.PI_OUTSTANDING], W.pi[p, S.PI_NOBJ] = 1, 0


@njit(cache=True, inline="always")
def schedule_client(W, p, now):
    """Page p's client asks for its next object one gap after its previous request."""
    pf, pi, qg, qc = W.pf, W.pi, W.qg, W.qc
    c = pi[p, S.PI_CLASS]
    pf[p, S.PF_CLOCK] += qg[c, qc[c, S.QC_GAP_PTR]]
    qc[c, S.QC_GAP_PTR] += 1
    heap_push(W.et, W.ei, W.ic, W.vi, max(now, pf[p, S.PF_CLOCK]), S.EV_CLIENT_REQUEST, p)


@njit(cache=True, inline="always")
def page_needs(W, from_heap, arrival_class):
    """With pages, a NEED_* status if the next event's new requests (a base response
    can bring all its page's objects at once) could overrun a pool or a capacity."""
    ic, ip, ji, pi, qc = W.ic, W.ip, W.ji, W.pi, W.qc
    n_tiers, kind, ident = ip[S.IP_TIERS], W.ei[0, S.EI_KIND], W.ei[0, S.EI_ID]
    n, c = 1, arrival_class
    if from_heap and kind == S.EV_CLIENT_REQUEST:
        c = pi[ident, S.PI_CLASS]
    elif from_heap:
        n = 0
        j = W.vjob[ident, 0]
        if kind == S.EV_COMPLETION and ji[j, S.JI_BASE] and W.vi[ident, S.VI_TIER] == n_tiers - 1:
            c = ji[j, S.JI_CLASS]
            n = pi[ji[j, S.JI_PAGE], S.PI_NOBJ]
    if ic[S.IC_JOBS_FREE_N] < n + 1:
        return S.NEED_JOBS
    if not from_heap and ic[S.IC_PAGES_FREE_N] < 1:
        return S.NEED_PAGES
    for row in range(len(qc)):
        if qc[row, S.QC_DEM_PTR] + n * n_tiers > qc[row, S.QC_DEM_LEN]:
            return S.NEED_DEMAND
    if qc[c, S.QC_GAP_PTR] + 1 > qc[c, S.QC_GAP_LEN]:
        return S.NEED_GAP
    if ip[S.IP_RANDOM] and ic[S.IC_UNI_PTR] + n + 1 > len(W.qu):
        return S.NEED_UNIFORM
    if ic[S.IC_HEAP_N] + (n + 1) * (2 * n_tiers + 2) > len(W.et):
        return S.NEED_HEAP
    if ic[S.IC_NSRV_PEAK] + n + n_tiers + 1 > W.vtag.shape[1]:
        return S.NEED_VM_HEAP
    if ip[S.IP_TRACE] and ic[S.IC_TRACE_N] + 1 > len(W.tr):
        return S.NEED_TRACE
    return S.DONE
