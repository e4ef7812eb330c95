"""The compiled multi-tier event loop (a request visits every tier in order, nested).

A request reaches tier 0, is dispatched to an active VM of that tier by the tier's
dispatch policy (sim/dispatch.py; least connections unless told otherwise) and waits in
the VM's accept queue until a pool slot is free (over the accept bound it is refused).
Holding the slot it is served (processor sharing over the cores, or FCFS on the cores),
then, still holding the slot, it goes on to the next tier; when the last tier has served
it, the response goes back up at once and every slot is released (innermost first). So
the requests one VM sends downstream never exceed its pool limit, and a tier's pool
limits cap the concurrency the next tier sees.

A VM's concurrency is the number of slots in use (in service, waiting for a core, or
waiting downstream); the overhead model multiplies its speed by ``factor`` for every
slot in use past ``q_upper``. Every event updates per-VM interval statistics for SCT
(slot releases, slot-time integral, slot-holding time of the releases) in a ring of the
last window, so the SCT model costs no per-request storage.

A class-aware admission stage (admission.py) governs the first tier; a completed
request is recorded by records.py.

Pages, as in the single-tier kernel: a page's base request arrives; when its response
leaves the last tier, its objects are pushed (sent at once to the base's VM at the first
tier), hinted (Early Hints: all requested at once) or requested by the client one after
another, a gap after the previous request (EV_CLIENT_REQUEST). A page's requests stick
to its base request's VM at the first tier (which is not released while a page sticks to
it) unless dispatched request by request; each visits every tier. The page is done
after its last request, failed if any was refused; its load time goes to the sketches
and SLA windows in place of its requests' latencies. Their demands are drawn as the
loop makes them, from per-class pools (pools.py); pages.py keeps a page's own rows.

W is the named bundle of the state's arrays (state.TierWorld). As in the kernel, the
runner enters through run_loop_bare (reference-count-free views of the arrays) and the
per-event helpers are inlined into the loop, so passing W costs nothing per call.
"""

from __future__ import annotations

import math

from numba import njit

from headroom.engine.sim import dispatch, partition_sets
from headroom.engine.sim.bare import bare
from headroom.engine.sim.heaps import heap_pop, heap_push, reschedule, service_pop, service_push
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.admission import admit, hold, period
from headroom.engine.sim.tiers.pages import (
    draw_demands,
    new_page,
    page_needs,
    page_refused,
    schedule_client,
    stick,
)
from headroom.engine.sim.tiers.records import record_done, record_page


@njit(cache=True)
def sct_advance(vi, vf, ring, fp, v, now):
    """Integrate VM v's slots in use into its SCT intervals up to ``now``."""
    width, n_ring = fp[S.FP_SCT_S], ring.shape[1]
    k, last, held = vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST], vi[v, S.VI_HELD]
    k_now = int(now / width)
    while k < k_now:
        end = (k + 1) * width
        ring[v, k % n_ring, S.R_AREA] += held * (end - last)
        last, k = end, k + 1
        slot = k % n_ring
        ring[v, slot, 0], ring[v, slot, 1], ring[v, slot, 2] = 0.0, 0.0, 0.0
    ring[v, k % n_ring, S.R_AREA] += held * (now - last)
    vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST] = k, now


@njit(cache=True, inline="always")
def _advance(W, v, now):
    ip, fp, tp, vi, vf = W.ip, W.fp, W.tp, W.vi, W.vf
    ring = W.ring
    dt = now - vf[v, S.VF_LAST]
    if dt > 0:
        vf[v, S.VF_VCLOCK] += vf[v, S.VF_RATE] * dt
        vf[v, S.VF_BUSY] += min(vi[v, S.VI_NSRV], tp[vi[v, S.VI_TIER], S.TP_CORES]) * dt
        vf[v, S.VF_HELD_AREA] += vi[v, S.VI_HELD] * dt
        vf[v, S.VF_LAST] = now
    if ip[S.IP_SCT]:
        sct_advance(vi, vf, ring, fp, v, now)


@njit(cache=True, inline="always")
def _touch(W, v, now):
    """Recompute VM v's speed and push its next completion (the old one goes stale)."""
    ic, tp, tf, vi, vf, vtag, et, ei = W.ic, W.tp, W.tf, W.vi, W.vf, W.vtag, W.et, W.ei
    t, nsrv = vi[v, S.VI_TIER], vi[v, S.VI_NSRV]
    speed, cores = tf[t, S.TF_SPEED], tp[t, S.TP_CORES]
    extra = vi[v, S.VI_HELD] - tp[t, S.TP_Q_UPPER]
    if extra > 0:
        speed *= tf[t, S.TF_FACTOR] ** extra
    if tp[t, S.TP_FCFS] == 0 and nsrv > cores:
        speed *= cores / nsrv
    vf[v, S.VF_RATE] = max(speed, 1e-300)
    reschedule(vf, vi, vtag, et, ei, ic, v, now)


@njit(cache=True, inline="always")
def _start_cpu(W, v, j, now):
    ic, ip, vi, vf, vtag, vjob, jf = W.ic, W.ip, W.vi, W.vf, W.vtag, W.vjob, W.jf
    n_tiers, t = ip[S.IP_TIERS], vi[v, S.VI_TIER]
    service_push(vi, vtag, vjob, v, vf[v, S.VF_VCLOCK] + jf[j, 1 + 2 * n_tiers + t], j)
    if t == 0:
        jf[j, S.jf_start(n_tiers)] = now
    ic[S.IC_NSRV_PEAK] = max(ic[S.IC_NSRV_PEAK], vi[v, S.VI_NSRV])


@njit(cache=True, inline="always")
def _acquire(W, v, j, now):
    """Request j takes a pool slot on VM v and asks for a core."""
    ip, tp, vi, jf, ji = W.ip, W.tp, W.vi, W.jf, W.ji
    t = vi[v, S.VI_TIER]
    vi[v, S.VI_HELD] += 1
    vi[v, S.VI_PEAK_HELD] = max(vi[v, S.VI_PEAK_HELD], vi[v, S.VI_HELD])
    tp[t, S.TP_HELD] += 1
    tp[t, S.TP_PEAK_HELD] = max(tp[t, S.TP_PEAK_HELD], tp[t, S.TP_HELD])
    jf[j, 1 + ip[S.IP_TIERS] + t] = now
    if tp[t, S.TP_FCFS] and vi[v, S.VI_NSRV] >= tp[t, S.TP_CORES]:
        ji[j, S.JI_NEXT] = -1
        if vi[v, S.VI_RTAIL] >= 0:
            ji[vi[v, S.VI_RTAIL], S.JI_NEXT] = j
        else:
            vi[v, S.VI_RHEAD] = j
        vi[v, S.VI_RTAIL] = j
    else:
        _start_cpu(W, v, j, now)


@njit(cache=True, inline="always")
def _pop_queue(vi, ji, v, head_col, tail_col):
    head = vi[v, head_col]
    vi[v, head_col] = ji[head, S.JI_NEXT]
    if vi[v, head_col] < 0:
        vi[v, tail_col] = -1
    return head


@njit(cache=True)
def promote(W, v, now):
    """Move requests from VM v's accept queue into free pool slots."""
    ic, vi, ji = W.ic, W.vi, W.ji
    while vi[v, S.VI_NQ] > 0 and vi[v, S.VI_HELD] < vi[v, S.VI_SLOTS]:
        h = _pop_queue(vi, ji, v, S.VI_QHEAD, S.VI_QTAIL)
        vi[v, S.VI_NQ] -= 1
        ic[S.IC_WAITING] -= 1
        _acquire(W, v, h, now)


@njit(cache=True, inline="always")
def _choose(W, t, now, want):
    """The active VM of tier t that the tier's dispatch policy picks (with ``want`` >= 0,
    within that partition set); -1: none."""
    tp = W.tp
    first, count = tp[t, S.TP_FIRST], tp[t, S.TP_COUNT]
    policy, start = tp[t, S.TP_DISPATCH], tp[t, S.TP_RR]
    best = dispatch.choose_vm(W.vf, W.vi, W.ic, W.qu, policy, first, count, start, now, want)
    if best >= 0:
        tp[t, S.TP_RR] = (best - first + 1) % count
    return best


@njit(cache=True, inline="always")
def _enter(W, j, t, now, want):
    """Request j reaches tier t (``want``: the partition set it may go to, -1: any): a
    slot, the accept queue, or refused (False)."""
    v = _choose(W, t, now, want)
    if v < 0:
        return False
    return _enter_vm(W, j, t, v, now)


@njit(cache=True, inline="always")
def _enter_vm(W, j, t, v, now):
    """Request j reaches VM v of tier t: a slot, the accept queue, or refused (False)."""
    ic, tp, vi, jf, ji = W.ic, W.tp, W.vi, W.jf, W.ji
    full = vi[v, S.VI_HELD] >= vi[v, S.VI_SLOTS]
    if full and vi[v, S.VI_NQ] >= tp[t, S.TP_WAIT_BOUND]:
        return False
    _advance(W, v, now)
    ji[j, S.JI_VM + t], ji[j, S.JI_TIER] = v, t
    jf[j, 1 + t] = now
    vi[v, S.VI_N] += 1
    if full:
        ji[j, S.JI_NEXT] = -1
        if vi[v, S.VI_QTAIL] >= 0:
            ji[vi[v, S.VI_QTAIL], S.JI_NEXT] = j
        else:
            vi[v, S.VI_QHEAD] = j
        vi[v, S.VI_QTAIL] = j
        vi[v, S.VI_NQ] += 1
        ic[S.IC_WAITING] += 1
    else:
        _acquire(W, v, j, now)
        _touch(W, v, now)
    return True


@njit(cache=True, inline="always")
def _maybe_release_vm(tf, vi, vf, v, now):
    """A draining VM that holds no request and no page is released; its cost stops."""
    if vi[v, S.VI_STATE] == S.VM_DRAINING and vi[v, S.VI_N] == 0 and vi[v, S.VI_PAGES] == 0:
        vi[v, S.VI_STATE] = S.VM_FREE
        vi[v, S.VI_VERSION] += 1
        tf[vi[v, S.VI_TIER], S.TF_VM_SECONDS] += now - vf[v, S.VF_ALLOC_T]


@njit(cache=True, inline="always")
def _release(W, v, j, t, now, served):
    """Request j gives back its slot on VM v (tier t); ``served``: it completed. The
    caller then checks whether a draining VM can go (_maybe_release_vm)."""
    ip, tp, tf, vi, jf = W.ip, W.tp, W.tf, W.vi, W.jf
    ring = W.ring
    _advance(W, v, now)
    vi[v, S.VI_HELD] -= 1
    vi[v, S.VI_N] -= 1
    tp[t, S.TP_HELD] -= 1
    if served:
        tf[t, S.TF_RES_SUM] += now - jf[j, 1 + t]
        if ip[S.IP_SCT]:
            slot = vi[v, S.VI_SCT_K] % ring.shape[1]
            ring[v, slot, S.R_COMPLETIONS] += 1.0
            ring[v, slot, S.R_LATENCY] += now - jf[j, 1 + ip[S.IP_TIERS] + t]
    if vi[v, S.VI_NQ] > 0:  # spares the call, and passing it every array, when none waits
        promote(W, v, now)
    _touch(W, v, now)


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
        _release(W, v, j, u, now, False)
        _maybe_release_vm(W.tf, W.vi, W.vf, v, now)
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
def _completion(W, v, now):
    """VM v finishes serving the request with the smallest tag."""
    ic, ip, vi, vtag, vjob, ji = W.ic, W.ip, W.vi, W.vtag, W.vjob, W.ji
    _advance(W, v, now)
    j = service_pop(vi, vtag, vjob, v)
    t, last = vi[v, S.VI_TIER], ip[S.IP_TIERS] - 1
    if vi[v, S.VI_RHEAD] >= 0:
        _start_cpu(W, v, _pop_queue(vi, ji, v, S.VI_RHEAD, S.VI_RTAIL), now)
    if t < last:
        _touch(W, v, now)
        if not _enter(W, j, t + 1, now, -1):
            _refuse(W, j, t + 1, now)
        return
    for u in range(last, 0, -1):
        _release(W, ji[j, S.JI_VM + u], j, u, now, True)
        _maybe_release_vm(W.tf, vi, W.vf, ji[j, S.JI_VM + u], now)
    v0, p, base = ji[j, S.JI_VM], ji[j, S.JI_PAGE], ji[j, S.JI_BASE]
    _release(W, v0, j, 0, now, True)
    if ip[S.IP_ADMISSION]:
        hold(vi, ic, ji, W.cls, j, -1)
    record_done(W, j, now)
    _free_job(ic, ji, j)
    if p >= 0:
        if base:
            _base_done(W, p, v0, now)
        _page_request_done(W, p, now)
    _maybe_release_vm(W.tf, vi, W.vf, v0, now)  # after any pushes to it


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
def _arrival(W, A, i, now):
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
    if want != partition_sets.REFUSE and _enter(W, j, 0, now, want):
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
        _maybe_release_vm(W.tf, W.vi, W.vf, v, now)
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
        ok = _enter_vm(W, j, 0, v, now)
    else:
        # Per-request dispatch keeps a partitioned page within its class's set.
        want = cls[c, S.CL_TOP] if ip[S.IP_ADMISSION] >= S.ADM_STATIC_PART else -1
        ok = _enter(W, j, 0, now, want)
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
def _client_request(W, p, now):
    pi = W.pi
    pi[p, S.PI_TO_ISSUE] -= 1
    if pi[p, S.PI_TO_ISSUE] > 0:
        schedule_client(W, p, now)
    _page_object(W, p, now, -1)


@njit(cache=True)
def activate(W, v, now):
    fp, tf, vi, vf = W.fp, W.tf, W.vi, W.vf
    ring = W.ring
    vi[v, S.VI_STATE] = S.VM_ACTIVE
    vf[v, S.VF_LAST], vf[v, S.VF_VCLOCK], vf[v, S.VF_BUSY], vf[v, S.VF_HELD_AREA] = now, 0, 0, 0
    vf[v, S.VF_WRR] = 0.0
    vf[v, S.VF_RATE] = tf[vi[v, S.VI_TIER], S.TF_SPEED]
    vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST] = int(now / fp[S.FP_SCT_S]), now
    ring[v, :, :] = 0.0


@njit(cache=True)
def _tick(W, M, k, now):
    """Monitoring: per tier VM counts, utilisation, slots in use, queue, pool size
    (M: state.TierMonitor)."""
    ic, ip, fp, tp, vi, vf = W.ic, W.ip, W.fp, W.tp, W.vi, W.vf
    ts, tt, box = M.ts, M.tt, M.box
    monitor = fp[S.FP_MONITOR_S]
    for t in range(ip[S.IP_TIERS]):
        first, count, cores = tp[t, S.TP_FIRST], tp[t, S.TP_COUNT], tp[t, S.TP_CORES]
        alloc = active = 0
        util = conc = waiting = pool = 0.0
        for v in range(first, first + count):
            if vi[v, S.VI_STATE] == S.VM_FREE:
                continue
            alloc += 1
            _advance(W, v, now)
            waiting += vi[v, S.VI_NQ]
            if vi[v, S.VI_STATE] == S.VM_ACTIVE:
                active += 1
                u = min(vf[v, S.VF_BUSY] / (monitor * cores), 1.0)
                util += u
                conc += vf[v, S.VF_HELD_AREA] / monitor
                slots = vi[v, S.VI_SLOTS]
                pool += math.inf if slots >= S.UNBOUNDED else slots
            vf[v, S.VF_BUSY], vf[v, S.VF_HELD_AREA] = 0.0, 0.0
        scale = 1.0 / active if active > 0 else 0.0
        row = tt[k, t]
        row[S.TT_ALLOCATED], row[S.TT_ACTIVE], row[S.TT_WAITING] = alloc, active, waiting
        row[S.TT_UTILIZATION], row[S.TT_CONCURRENCY] = util * scale, conc * scale
        row[S.TT_POOL] = pool * scale if active > 0 else math.nan
    _box(tt, box, k, ip[S.IP_SCALED])
    ts[k, S.TS_ARRIVALS], ts[k, S.TS_COMPLETIONS] = ic[S.IC_TICK_ARR], ic[S.IC_TICK_DONE]
    ts[k, S.TS_REJECTED], ts[k, S.TS_WAITING] = ic[S.IC_TICK_REJ], ic[S.IC_WAITING]
    ts[k, S.TS_IN_SYSTEM] = ic[S.IC_IN_SYSTEM]
    ic[S.IC_TICK_ARR] = ic[S.IC_TICK_DONE] = ic[S.IC_TICK_REJ] = 0


@njit(cache=True)
def _box(tt, box, k, t):
    """The scaled tier's mean utilisation this tick, binned by its allocated VMs."""
    alloc = int(tt[k, t, S.TT_ALLOCATED])
    if tt[k, t, S.TT_ACTIVE] > 0:
        box[alloc, int(min(tt[k, t, S.TT_UTILIZATION], 1.0) * S.BOX_BINS)] += 1


@njit(cache=True, inline="always")
def _needs(W):
    """A NEED_* status if an event's worst case could overrun a capacity."""
    ic, ip, vtag, et = W.ic, W.ip, W.vtag, W.et
    n_tiers = ip[S.IP_TIERS]
    if ic[S.IC_JOBS_FREE_N] < 1:
        return S.NEED_JOBS
    if ip[S.IP_RANDOM] and ic[S.IC_UNI_PTR] + 1 > len(W.qu):  # an event dispatches once at most
        return S.NEED_UNIFORM
    if ic[S.IC_HEAP_N] + 2 * n_tiers + 2 > len(et):
        return S.NEED_HEAP
    if ic[S.IC_NSRV_PEAK] + n_tiers + 1 > vtag.shape[1]:
        return S.NEED_VM_HEAP
    if ip[S.IP_TRACE] and ic[S.IC_TRACE_N] + 1 > len(W.tr):
        return S.NEED_TRACE
    return S.DONE


@njit(cache=True)
def run_loop(W, A, M, t_end):
    """Process every event and monitoring tick before t_end (A: state.TierArrivals, M:
    state.TierMonitor); DONE or a NEED_* status."""
    ic, sc, fp, vi, et, ei = W.ic, W.sc, W.fp, W.vi, W.et, W.ei
    arr_t, n_ticks, monitor = A.t, len(M.ts), fp[S.FP_MONITOR_S]
    while True:
        k = ic[S.IC_TICK]
        t_tick = (k + 1) * monitor if k < n_ticks else math.inf
        end = min(t_tick, t_end)
        t_heap = et[0] if ic[S.IC_HEAP_N] > 0 else math.inf
        i = ic[S.IC_ARR_PTR]
        t_arr = arr_t[i] if i < len(arr_t) else math.inf
        now = min(t_heap, t_arr)
        if now >= end:
            sc[S.SC_AREA] += ic[S.IC_IN_SYSTEM] * (end - sc[S.SC_LAST])
            sc[S.SC_LAST] = end
            if t_tick <= t_end:
                _tick(W, M, k, t_tick)
                ic[S.IC_TICK] = k + 1
                continue
            return S.DONE
        if (
            t_heap <= t_arr
            and ei[0, S.EI_KIND] == S.EV_COMPLETION
            and ei[0, S.EI_VER] != vi[ei[0, S.EI_ID], S.VI_VERSION]
        ):
            heap_pop(et, ei, ic)  # a stale completion
            continue
        status = _needs(W)
        if status == S.DONE and W.ip[S.IP_PAGES]:
            status = page_needs(W, t_heap <= t_arr, A.c[i] if i < len(arr_t) else 0)
        if status != S.DONE:
            return status
        sc[S.SC_AREA] += ic[S.IC_IN_SYSTEM] * (now - sc[S.SC_LAST])
        sc[S.SC_LAST] = now
        ic[S.IC_EVENTS] += 1
        if t_heap <= t_arr:
            kind, ident = ei[0, S.EI_KIND], ei[0, S.EI_ID]
            heap_pop(et, ei, ic)
            if kind == S.EV_COMPLETION:
                _completion(W, ident, now)
            elif kind == S.EV_CLIENT_REQUEST:
                _client_request(W, ident, now)
            elif kind == S.EV_PERIOD:
                period(vi, ic, W.ip, fp, W.tp, W.ks, et, ei, now)
            elif vi[ident, S.VI_STATE] == S.VM_BOOTING:
                activate(W, ident, now)
        else:
            _arrival(W, A, i, now)
            ic[S.IC_ARR_PTR] = i + 1


@njit(cache=True)
def run_loop_bare(W, A, M, t_end):
    """run_loop on reference-count-free views of every array (as the kernel's loop)."""
    views = S.TierWorld(
        bare(W.ic), bare(W.sc), bare(W.ip), bare(W.fp), bare(W.tp), bare(W.tf), bare(W.vi),
        bare(W.vf), bare(W.vtag), bare(W.vjob), bare(W.jf), bare(W.ji), bare(W.pf),
        bare(W.pi), bare(W.et), bare(W.ei), bare(W.qu), bare(W.qd), bare(W.qg), bare(W.qc),
        bare(W.hists), bare(W.csum), bare(W.win), bare(W.winh), bare(W.ring), bare(W.tr),
        bare(W.cls), bare(W.ks),
    )  # fmt: skip
    arrivals = S.TierArrivals(bare(A.t), bare(A.c), bare(A.d), bare(A.n))
    monitor = S.TierMonitor(bare(M.ts), bare(M.tt), bare(M.box))
    return run_loop(views, arrivals, monitor, t_end)


@njit(cache=True)
def allocate(W, t, k, now, boot_s):
    """Request up to k VMs of tier t (free rows only); returns how many."""
    ic, tp, vi, vf, et, ei = W.ic, W.tp, W.vi, W.vf, W.et, W.ei
    done = 0
    first = tp[t, S.TP_FIRST]
    for v in range(first, first + tp[t, S.TP_COUNT]):
        if done == k:
            break
        if vi[v, S.VI_STATE] != S.VM_FREE:
            continue
        vf[v, S.VF_ALLOC_T], vf[v, S.VF_LAST_DISPATCH] = now, now
        vi[v, S.VI_SLOTS] = tp[t, S.TP_POOL]
        done += 1
        if boot_s <= 0:
            activate(W, v, now)
        else:
            vi[v, S.VI_STATE] = S.VM_BOOTING
            heap_push(et, ei, ic, now + boot_s, S.EV_BOOT, v, 0)
    return done


@njit(cache=True)
def drain_least_loaded(W, t, now):
    """Put tier t's active VM holding the fewest requests into draining; -1 if none."""
    tp, tf, vi, vf = W.tp, W.tf, W.vi, W.vf
    best = -1
    first = tp[t, S.TP_FIRST]
    for v in range(first, first + tp[t, S.TP_COUNT]):
        if vi[v, S.VI_STATE] == S.VM_ACTIVE and (best < 0 or vi[v, S.VI_N] < vi[best, S.VI_N]):
            best = v
    if best >= 0:
        _advance(W, best, now)
        vi[best, S.VI_STATE] = S.VM_DRAINING
        _maybe_release_vm(tf, vi, vf, best, now)
    return best


@njit(cache=True)
def set_pool(W, v, slots, now):
    """Change VM v's pool limit; a larger pool takes waiting requests at once. Requests
    already holding slots keep them (a smaller pool fills up again as they leave)."""
    _advance(W, v, now)
    W.vi[v, S.VI_SLOTS] = slots
    promote(W, v, now)
    _touch(W, v, now)


@njit(cache=True)
def flush(W, now):
    """Bring every allocated VM's integrals (and SCT intervals) up to ``now``."""
    vi = W.vi
    for v in range(len(vi)):
        if vi[v, S.VI_STATE] != S.VM_FREE:
            _advance(W, v, now)
