"""A request's and a page's way through the tiers in the multi-tier loop (loop.py).

Holding its slot at a tier (vms.py), a served request goes on to the next tier; when the
last tier has served it, the response goes back up at once and every slot is released
(innermost first). So the requests one VM sends downstream never exceed its pool limit,
and a tier's pool limits cap the concurrency the next tier sees. A class-aware admission
stage (admission.py) governs the first tier; a completed request is recorded by
records.py.

Pages: a page's base request arrives; when its response
leaves the last tier, its objects are pushed (sent at once to the base's VM at the first
tier), hinted (Early Hints: all requested at once) or requested by the client one after
another, a gap after the previous request (EV_CLIENT_REQUEST). A page's requests stick
to its base request's VM at the first tier (which is not released while a page sticks to
it) unless dispatched request by request; each visits every tier. The page is done
after its last request, failed if any was refused; its load time goes to the sketches
and SLA windows in place of its requests' latencies. Their demands are drawn as the
loop makes them, from per-class pools (pools.py); pages.py keeps a page's own rows.
"""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import partition_sets
from headroom.engine.sim.heaps import service_pop
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.admission import admit, hold
from headroom.engine.sim.tiers.pages import (
    draw_demands,
    new_page,
    page_refused,
    schedule_client,
    stick,
)
from headroom.engine.sim.tiers.records import record_done, record_page
from headroom.engine.sim.tiers.vms import (
    advance,
    enter,
    enter_vm,
    maybe_release_vm,
    pop_queue,
    release,
    start_cpu,
    touch,
)


@njit(cache=True, inline="always")
def _free_job(ic, ji, j):
    ji[j, S.JI_TIER] = -1
    ji[j, S.JI_NEXT] = ic[S.IC_JOB_FREE]
    ic[S.IC_JOB_FREE] = j
    ic[S.IC_JOBS_FREE_N] += 1


@njit(cache=True)
def _refuse(W, j, t, now):
    """Request j was refused at tier t: give back its slots upstream and drop it."""
    ic, sc, jf, ji = W.ic, W.sc, W.jf, W.ji
    csum = W.csum
    for u in range(t - 1, -1, -1):
        v = ji[j, S.JI_VM + u]
        release(W, v, j, u, now, False)
        maybe_release_vm(W.tf, W.vi, W.vf, v, now)
    if t > 0 and W.ip[S.IP_ADMISSION]:
        hold(W.vi, ic, ji, W.cls, j, -1)
    if t > 0:
        ic[S.IC_IN_SYSTEM] -= 1
        ic[S.IC_LEFT] += 1
        sc[S.SC_TIME_SUM] += now - jf[j, S.JF_ARRIVAL]
    ic[S.IC_REJECTED] += 1
    ic[S.IC_TICK_REJ] += 1
    csum[ji[j, S.JI_CLASS], S.CS_REJECTED] += 1
    p = ji[j, S.JI_PAGE]
    _free_job(ic, ji, j)
    if p >= 0:
        W.pi[p, S.PI_FAILED] = 1
        _page_request_done(W, p, now)


@njit(cache=True, inline="always")
def completion(W, v, now):
    """VM v finishes serving the request with the smallest tag."""
    ic, ip, vi, vtag, vjob, ji = W.ic, W.ip, W.vi, W.vtag, W.vjob, W.ji
    advance(W, v, now)
    j = service_pop(vi, vtag, vjob, v)
    t, last = vi[v, S.VI_TIER], ip[S.IP_TIERS] - 1
    if vi[v, S.VI_RHEAD] >= 0:
        ic[S.IC_WAITING] -= 1
        start_cpu(W, v, pop_queue(vi, ji, v, S.VI_RHEAD, S.VI_RTAIL), now)
    if t < last:
        touch(W, v, now)
        if not enter(W, j, t + 1, now, -1):
            _refuse(W, j, t + 1, now)
        return
    for u in range(last, 0, -1):
        release(W, ji[j, S.JI_VM + u], j, u, now, True)
        maybe_release_vm(W.tf, vi, W.vf, ji[j, S.JI_VM + u], now)
    v0, p, base = ji[j, S.JI_VM], ji[j, S.JI_PAGE], ji[j, S.JI_BASE]
    release(W, v0, j, 0, now, True)
    if ip[S.IP_ADMISSION]:
        hold(vi, ic, ji, W.cls, j, -1)
    record_done(W, j, now)
    _free_job(ic, ji, j)
    if p >= 0:
        if base:
            _base_done(W, p, v0, now)
        _page_request_done(W, p, now)
    maybe_release_vm(W.tf, vi, W.vf, v0, now)  # after any pushes to it


@njit(cache=True, inline="always")
def _new_job(W, c, p, base, now):
    """A new request of class c (of page ``p``, -1: none; ``base``: the page's first)."""
    ic, jf, ji = W.ic, W.jf, W.ji
    j = ic[S.IC_JOB_FREE]
    ic[S.IC_JOB_FREE] = ji[j, S.JI_NEXT]
    ic[S.IC_JOBS_FREE_N] -= 1
    ji[j, S.JI_CLASS], ji[j, S.JI_TIER] = c, 0
    ji[j, S.JI_PAGE], ji[j, S.JI_BASE] = p, base
    jf[j, S.JF_ARRIVAL] = now
    ic[S.IC_ARRIVED] += 1
    ic[S.IC_TICK_ARR] += 1
    W.csum[c, S.CS_ARRIVED] += 1
    return j


@njit(cache=True, inline="always")
def _admitted(W, j):
    """Request j took a slot or a place in a queue at the first tier."""
    W.ic[S.IC_IN_SYSTEM] += 1
    if W.ip[S.IP_ADMISSION]:
        hold(W.vi, W.ic, W.ji, W.cls, j, 1)


@njit(cache=True, inline="always")
def arrival(W, A, i, now):
    ip, jf = W.ip, W.jf
    n_tiers, c = ip[S.IP_TIERS], A.c[i]
    p = new_page(W, c, A.n[i, 0], A.n[i, 1], now) if ip[S.IP_PAGES] else -1
    j = _new_job(W, c, p, 1, now)
    if p >= 0:
        draw_demands(W, j, c)
    else:
        for t in range(n_tiers):
            jf[j, 1 + 2 * n_tiers + t] = A.d[i, t]
    want = admit(W.vi, W.ic, ip, W.fp, W.tp, W.cls, c) if ip[S.IP_ADMISSION] else -1
    if want != partition_sets.REFUSE and enter(W, j, 0, now, want):
        _admitted(W, j)
        if p >= 0:
            stick(W, p, W.ji[j, S.JI_VM])
        return
    if p >= 0:
        page_refused(W, p)
    _refuse(W, j, 0, now)


@njit(cache=True, inline="always")
def _page_request_done(W, p, now):
    """A request of page p completed or was refused; after its last, the page is done."""
    ic, pi = W.ic, W.pi
    pi[p, S.PI_OUTSTANDING] -= 1
    if pi[p, S.PI_OUTSTANDING] > 0:
        return
    record_page(W, p, now)
    v = pi[p, S.PI_VM]
    if W.ip[S.IP_PER_REQUEST] == 0 and v >= 0:
        W.vi[v, S.VI_PAGES] -= 1
        maybe_release_vm(W.tf, W.vi, W.vf, v, now)
    pi[p, S.PI_NEXT] = ic[S.IC_PAGE_FREE]
    ic[S.IC_PAGE_FREE] = p
    ic[S.IC_PAGES_FREE_N] += 1


@njit(cache=True, inline="always")
def _page_object(W, p, now, v):
    """A new request for one of page p's objects, sent to VM v of the first tier (-1:
    its page's VM, or as the dispatcher picks when dispatching request by request)."""
    ip, pi, cls = W.ip, W.pi, W.cls
    c = pi[p, S.PI_CLASS]
    j = _new_job(W, c, p, 0, now)
    draw_demands(W, j, c)
    if v < 0 and ip[S.IP_PER_REQUEST] == 0:
        v = pi[p, S.PI_VM]
    if v >= 0:
        ok = enter_vm(W, j, 0, v, now)
    else:
        # Per-request dispatch keeps a partitioned page within its class's set.
        want = cls[c, S.CL_TOP] if ip[S.IP_ADMISSION] >= S.ADM_STATIC_PART else -1
        ok = enter(W, j, 0, now, want)
    if ok:
        _admitted(W, j)
    else:
        _refuse(W, j, 0, now)


@njit(cache=True, inline="always")
def _base_done(W, p, v, now):
    """Page p's base response left VM v: its objects pushed (to v), hinted (requested at
    once) or requested one after another by the client."""
    pf, pi, cls = W.pf, W.pi, W.cls
    nobj, npush, c = pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH], pi[p, S.PI_CLASS]
    if cls[c, S.CL_EARLY_HINTS]:
        for _ in range(nobj):
            _page_object(W, p, now, -1)
        return
    for _ in range(npush):
        _page_object(W, p, now, v)
    pi[p, S.PI_TO_ISSUE] = nobj - npush
    pf[p, S.PF_CLOCK] = pf[p, S.PF_ARRIVAL]
    if nobj > npush:
        schedule_client(W, p, now)


@njit(cache=True, inline="always")
def client_request(W, p, now):
    pi = W.pi
    pi[p, S.PI_TO_ISSUE] -= 1
    if pi[p, S.PI_TO_ISSUE] > 0:
        schedule_client(W, p, now)
    _page_object(W, p, now, -1)
