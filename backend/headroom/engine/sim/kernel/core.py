"""The compiled event loop: arrivals, client requests, completions, boots, monitoring ticks.

:func:`run_until` processes every event before ``t_end`` (and every monitoring tick up to
it). Before an event it checks that pools and capacities suffice and otherwise returns a
``NEED_*`` status without changing anything; the caller refills or grows and calls again.

Page-level helpers take the whole state as one named bundle W (state.World): VMs (vf,
vi, vtag, vjob), requests (jf, ji), pages (pf, pi), event heap (et, ei), scalars (ic,
sc, ip, fp), per-class pools of demands and gaps (qd, qg), uniforms (qu), per-class
cursors, counts and class (cls), outputs (hists = latency and PLT sketches per class,
csum = their sums and maxima, win, winh = per-window counts and sketches, tr = trace,
ks = the partitions' K series).

Admission (ip[IP_ADMISSION], rows.ADMISSION_CODES): dispatch.admit decides for each new
base request (its page follows it); refusals take the ``_reject`` path like a full pool.
DynamicPart's controller runs on EV_PERIOD timer events (dispatch.period). Both run the
stage the tier loop runs too (partition_sets.py).
"""

from __future__ import annotations

import math

from numba import njit

from headroom.engine.sim import dispatch, sketch
from headroom.engine.sim.bare import bare
from headroom.engine.sim.heaps import heap_pop, heap_push, reschedule, service_pop
from headroom.engine.sim.kernel import state as S
from headroom.engine.sim.kernel.dispatch import REFUSE, admit, choose_vm, period
from headroom.engine.sim.kernel.vm import (
    activate,
    advance,
    hold_conn,
    maybe_release,
    promote_waiting,
    set_rate,
    submit,
)

_INV_FINE = 1.0 / sketch.log_gamma(sketch.FINE_ALPHA)
_INV_COARSE = 1.0 / sketch.log_gamma(sketch.COARSE_ALPHA)
_ACTIVE = S.VM_ACTIVE


@njit(cache=True, inline="always")
def new_job(W, page, base, c, now):
    """A new request of class c (of page ``page``; ``base``: the page's base request)."""
    jf, ji, ic, qd, cls = W.jf, W.ji, W.ic, W.qd, W.cls
    j = ic[S.IC_JOB_FREE]
    ic[S.IC_JOB_FREE] = ji[j, S.JI_NEXT]
    ic[S.IC_JOBS_FREE_N] -= 1
    ji[j, S.JI_PAGE], ji[j, S.JI_BASE], ji[j, S.JI_CLASS] = page, base, c
    ji[j, S.JI_KIND] = cls[c, S.CL_DYNAMIC]
    cls[c, S.CL_ARRIVED] += 1
    jf[j, S.JF_ARRIVAL], jf[j, S.JF_DEMAND] = now, qd[c, cls[c, S.CL_DEM_PTR]]
    cls[c, S.CL_DEM_PTR] += 1
    ic[S.IC_ARRIVED] += 1
    ic[S.IC_TICK_ARR] += 1
    return j


@njit(cache=True, inline="always")
def free_job(ji, ic, j):
    ji[j, S.JI_VM] = -1
    ji[j, S.JI_NEXT] = ic[S.IC_JOB_FREE]
    ic[S.IC_JOB_FREE] = j
    ic[S.IC_JOBS_FREE_N] += 1


@njit(cache=True, inline="always")
def record_window(win, winh, fp, x, now):
    w = min(int(now / fp[S.FP_WINDOW_S]), len(win) - 1)
    win[w, 0] += 1
    win[w, 1] += x > fp[S.FP_SLA_THRESHOLD_S]
    winh[w, sketch.bucket_of(x, _INV_COARSE, winh.shape[1])] += 1


@njit(cache=True)
def _page_done(W, p, now):
    vf, vi, pf, pi, ic, sc, ip, fp, hists, csum, win, winh = (
        W.vf,
        W.vi,
        W.pf,
        W.pi,
        W.ic,
        W.sc,
        W.ip,
        W.fp,
        W.hists,
        W.csum,
        W.win,
        W.winh,
    )
    ic[S.IC_PAGES_DONE] += 1
    if pi[p, S.PI_FAILED]:
        ic[S.IC_PAGES_FAILED] += 1
    else:
        plt, c = now - pf[p, S.PF_ARRIVAL], pi[p, S.PI_CLASS]
        hists[2 * c + 1, sketch.bucket_of(plt, _INV_FINE, hists.shape[1])] += 1
        csum[c, S.CS_PLT_SUM] += plt
        csum[c, S.CS_PLT_MAX] = max(csum[c, S.CS_PLT_MAX], plt)
        record_window(win, winh, fp, plt, now)
    v = pi[p, S.PI_VM]
    if ip[S.IP_PER_REQUEST] == 0 and v >= 0:
        vi[v, S.VI_PAGES] -= 1
        maybe_release(vf, vi, sc, v, now)
    pi[p, S.PI_NEXT] = ic[S.IC_PAGE_FREE]
    ic[S.IC_PAGE_FREE] = p
    ic[S.IC_PAGES_FREE_N] += 1


@njit(cache=True)
def _reject(W, j, now):
    ji, pi, ic, cls = W.ji, W.pi, W.ic, W.cls
    ic[S.IC_REJECTED] += 1
    ic[S.IC_TICK_REJ] += 1
    cls[ji[j, S.JI_CLASS], S.CL_REJECTED] += 1
    p = ji[j, S.JI_PAGE]
    free_job(ji, ic, j)
    if p >= 0:
        pi[p, S.PI_FAILED] = 1
        pi[p, S.PI_OUTSTANDING] -= 1
        if pi[p, S.PI_OUTSTANDING] == 0:
            _page_done(W, p, now)


@njit(cache=True)
def _send(W, p, j, now, current):
    """Send request j of page p (sticky, or dispatched per request) or reject it."""
    vf, vi, pi, ic, ip, qu, cls = W.vf, W.vi, W.pi, W.ic, W.ip, W.qu, W.cls
    if p >= 0 and ip[S.IP_PER_REQUEST] == 0:
        v = pi[p, S.PI_VM]
    else:
        # Per-request dispatch keeps a partitioned page within its class's set.
        want = -1
        if p >= 0 and ip[S.IP_ADMISSION] >= S.ADM_STATIC_PART:
            want = cls[pi[p, S.PI_CLASS], S.CL_TOP]
        v = choose_vm(vf, vi, ic, ip, qu, now, want)
    if not submit(W, v, j, now, v != current):
        _reject(W, j, now)


@njit(cache=True, inline="always")
def _schedule_client(W, p, now):
    pf, pi, et, ei, ic, qg, cls = W.pf, W.pi, W.et, W.ei, W.ic, W.qg, W.cls
    c = pi[p, S.PI_CLASS]
    pf[p, S.PF_CLOCK] += qg[c, cls[c, S.CL_GAP_PTR]]
    cls[c, S.CL_GAP_PTR] += 1
    heap_push(et, ei, ic, max(now, pf[p, S.PF_CLOCK]), S.EV_CLIENT_REQUEST, p, 0)


@njit(cache=True)
def _base_done(W, p, v, now):
    """The base response left VM v: push objects, hint them, or start the client chain."""
    pf, pi, cls = W.pf, W.pi, W.cls
    nobj, npush, c = pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH], pi[p, S.PI_CLASS]
    if cls[c, S.CL_EARLY_HINTS]:
        for _ in range(nobj):
            j = new_job(W, p, 0, c, now)
            _send(W, p, j, now, v)
        return
    for _ in range(npush):
        j = new_job(W, p, 0, c, now)
        if not submit(W, v, j, now, False):
            _reject(W, j, now)
    pi[p, S.PI_TO_ISSUE] = nobj - npush
    pf[p, S.PF_CLOCK] = pf[p, S.PF_ARRIVAL]
    if nobj > npush:
        _schedule_client(W, p, now)


@njit(cache=True, inline="always")
def record_done(ic, sc, hists, csum, c, lat):
    """A request of class c completed after ``lat`` seconds: sketch, sums, counter."""
    hists[2 * c, sketch.bucket_of(lat, _INV_FINE, hists.shape[1])] += 1
    csum[c, S.CS_LAT_SUM] += lat
    csum[c, S.CS_LAT_MAX] = max(csum[c, S.CS_LAT_MAX], lat)
    sc[S.SC_LAT_SUM] += lat
    ic[S.IC_COMPLETED] += 1


@njit(cache=True, inline="always")
def record_trace(tr, ic, arrival, start, end, demand, vm, page_arrival, c):
    n = ic[S.IC_TRACE_N]
    tr[n, 0], tr[n, 1], tr[n, 2], tr[n, 3] = arrival, start, end, demand
    tr[n, 4], tr[n, 5], tr[n, 6] = vm, page_arrival, c
    ic[S.IC_TRACE_N] = n + 1


@njit(cache=True, inline="always")
def record_latency(W, j, now):
    """Request j completed: its latency recorded (and traced); returns the latency."""
    jf, ji, pf, ic, sc, ip = W.jf, W.ji, W.pf, W.ic, W.sc, W.ip
    hists, csum, tr = W.hists, W.csum, W.tr
    lat, c = now - jf[j, S.JF_ARRIVAL], ji[j, S.JI_CLASS]
    record_done(ic, sc, hists, csum, c, lat)
    if ip[S.IP_TRACE]:
        p = ji[j, S.JI_PAGE]
        page_arrival = pf[p, S.PF_ARRIVAL] if p >= 0 else math.nan
        arrival, start, demand = jf[j, S.JF_ARRIVAL], jf[j, S.JF_START], jf[j, S.JF_DEMAND]
        record_trace(tr, ic, arrival, start, now, demand, ji[j, S.JI_VM], page_arrival, c)
    ic[S.IC_IN_SYSTEM] -= 1
    ic[S.IC_TICK_DONE] += 1
    return lat


@njit(cache=True, inline="always")
def _completion(W, v, now):
    """VM v finishes its request with the smallest tag."""
    vf, vi, vtag, vjob, ji, pi, et, ei, ic, sc, ip, fp, win, winh = (
        W.vf,
        W.vi,
        W.vtag,
        W.vjob,
        W.ji,
        W.pi,
        W.et,
        W.ei,
        W.ic,
        W.sc,
        W.ip,
        W.fp,
        W.win,
        W.winh,
    )
    advance(vf, vi, ip, v, now)
    j = service_pop(vi, vtag, vjob, v)
    vi[v, S.VI_N] -= 1
    promote_waiting(W, v, now)
    set_rate(vf, vi, ip, fp, v)
    lat = record_latency(W, j, now)
    p, base = ji[j, S.JI_PAGE], ji[j, S.JI_BASE]
    hold_conn(vi, ji, ic, v, j, -1)
    free_job(ji, ic, j)
    if p < 0:
        record_window(win, winh, fp, lat, now)
    else:
        # The base counts as done after its objects are sent: were they all refused, the
        # page would otherwise be done (and its row freed) twice.
        if base:
            _base_done(W, p, v, now)
        pi[p, S.PI_OUTSTANDING] -= 1
        if pi[p, S.PI_OUTSTANDING] == 0:
            _page_done(W, p, now)
    reschedule(vf, vi, vtag, et, ei, ic, v, now)
    maybe_release(vf, vi, sc, v, now)


@njit(cache=True, inline="always")
def _client_request(W, p, now):
    pi = W.pi
    pi[p, S.PI_TO_ISSUE] -= 1
    j = new_job(W, p, 0, pi[p, S.PI_CLASS], now)
    if pi[p, S.PI_TO_ISSUE] > 0:
        _schedule_client(W, p, now)
    _send(W, p, j, now, -1)


@njit(cache=True, inline="always")
def _arrival(W, nobj, npush, c, now):
    vf, vi, pf, pi, ic, ip, fp, qu, cls = W.vf, W.vi, W.pf, W.pi, W.ic, W.ip, W.fp, W.qu, W.cls
    p = -1
    if ip[S.IP_PAGES]:
        p = ic[S.IC_PAGE_FREE]
        ic[S.IC_PAGE_FREE] = pi[p, S.PI_NEXT]
        ic[S.IC_PAGES_FREE_N] -= 1
        ic[S.IC_PAGES_ARRIVED] += 1
        pf[p, S.PF_ARRIVAL], pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH] = now, nobj, npush
        pi[p, S.PI_CLASS] = c
        pi[p, S.PI_OUTSTANDING], pi[p, S.PI_TO_ISSUE], pi[p, S.PI_FAILED] = 1 + nobj, 0, 0
    j = new_job(W, p, 1, c, now)
    want = admit(vi, ic, ip, fp, cls, c) if ip[S.IP_ADMISSION] else -1
    v = choose_vm(vf, vi, ic, ip, qu, now, want) if want != REFUSE else -1
    if p >= 0:
        pi[p, S.PI_VM] = v
        if ip[S.IP_PER_REQUEST] == 0 and v >= 0:
            vi[v, S.VI_PAGES] += 1
    if not submit(W, v, j, now, True):
        if p >= 0:
            ic[S.IC_PAGES_REJECTED] += 1
            pi[p, S.PI_OUTSTANDING], pi[p, S.PI_NOBJ] = 1, 0
        _reject(W, j, now)


@njit(cache=True)
def tick(W, M, k, now):
    """Monitoring: per-VM utilisation over the interval ending ``now``, and the counters
    (M: state.Monitor)."""
    vf, vi, ic, ip, fp = W.vf, W.vi, W.ic, W.ip, W.fp
    ts, tsu, box = M.ts, M.utilization, M.box_hist
    allocated = active = 0
    cores = ip[S.IP_CORES]
    for v in range(len(vi)):
        if vi[v, S.VI_STATE] != S.VM_FREE:
            allocated += 1
            dt = now - vf[v, S.VF_LAST]
            if dt > 0:
                vf[v, S.VF_VCLOCK] += vf[v, S.VF_RATE] * dt
                vf[v, S.VF_BUSY] += min(vi[v, S.VI_NSRV], cores) * dt
                vf[v, S.VF_LAST] = now
    scale = 1.0 / (fp[S.FP_MONITOR_S] * cores)
    total = 0.0
    for v in range(len(vi)):
        if vi[v, S.VI_STATE] == _ACTIVE:
            u = min(vf[v, S.VF_BUSY] * scale, 1.0)
            total += u
            active += 1
            box[allocated, int(u * S.BOX_BINS)] += 1
        vf[v, S.VF_BUSY] = 0.0
    ts[k, S.TS_ALLOCATED], ts[k, S.TS_ACTIVE] = allocated, active
    tsu[k] = total / active if active > 0 else 0.0
    ts[k, S.TS_ARRIVALS], ts[k, S.TS_COMPLETIONS] = ic[S.IC_TICK_ARR], ic[S.IC_TICK_DONE]
    ts[k, S.TS_REJECTED], ts[k, S.TS_WAITING] = ic[S.IC_TICK_REJ], ic[S.IC_WAITING]
    ts[k, S.TS_IN_SYSTEM] = ic[S.IC_IN_SYSTEM]
    ic[S.IC_TICK_ARR] = ic[S.IC_TICK_DONE] = ic[S.IC_TICK_REJ] = 0


@njit(cache=True, inline="always")
def _needs(W, c, jobs, demand, gap, uni, heap, v):
    """Status code if the pools or capacities cannot cover an event's worst case:
    ``jobs`` new requests, ``demand``/``gap``/``uni`` pool draws, ``heap`` events, on
    VM ``v`` (-1: any)."""
    vi, vtag, et, ic, ip, qu, cls, tr = W.vi, W.vtag, W.et, W.ic, W.ip, W.qu, W.cls, W.tr
    if ic[S.IC_JOBS_FREE_N] < jobs + 1:
        return S.NEED_JOBS
    if cls[c, S.CL_DEM_PTR] + demand > cls[c, S.CL_DEM_LEN]:
        return S.NEED_DEMAND
    if cls[c, S.CL_GAP_PTR] + gap > cls[c, S.CL_GAP_LEN]:
        return S.NEED_GAP
    if ip[S.IP_DISPATCH] == dispatch.RANDOM and ic[S.IC_UNI_PTR] + uni > len(qu):
        return S.NEED_UNIFORM
    if ic[S.IC_HEAP_N] + heap > len(et):
        return S.NEED_HEAP
    if ip[S.IP_TRACE] and ic[S.IC_TRACE_N] + 1 > len(tr):
        return S.NEED_TRACE
    # Service heaps only fill through submit, which records the peak size on any VM.
    cap = vtag.shape[1]
    if v >= 0 and ip[S.IP_PER_REQUEST] == 0:
        return S.NEED_VM_HEAP if vi[v, S.VI_NSRV] + jobs + 1 > cap else S.DONE
    return S.NEED_VM_HEAP if ic[S.IC_NSRV_PEAK] + jobs + 1 > cap else S.DONE


@njit(cache=True, inline="always")
def _event_needs(W):
    vjob, ji, pi, ei, cls = W.vjob, W.ji, W.pi, W.ei, W.cls
    kind, ident = ei[0, S.EI_KIND], ei[0, S.EI_ID]
    if kind == S.EV_CLIENT_REQUEST:
        v, c = pi[ident, S.PI_VM], pi[ident, S.PI_CLASS]
        return _needs(W, c, 1, 1, 1, 1, 2, v)
    if kind != S.EV_COMPLETION:
        return S.DONE
    j = vjob[ident, 0]
    p, c = ji[j, S.JI_PAGE], ji[j, S.JI_CLASS]
    if p < 0 or ji[j, S.JI_BASE] == 0:
        return _needs(W, c, 0, 0, 0, 0, 1, ident)
    n = pi[p, S.PI_NOBJ]
    v = ident if cls[c, S.CL_EARLY_HINTS] == 0 else -1
    return _needs(W, c, n, n, 1, n, n + 2, v)


@njit(cache=True, inline="always")
def area(ic, sc, now):
    sc[S.SC_AREA] += ic[S.IC_IN_SYSTEM] * (now - sc[S.SC_LAST])
    sc[S.SC_LAST] = now
    sc[S.SC_NOW] = now


@njit(cache=True, inline="always")
def _dispatch_event(W, now):
    vf, vi, et, ei, ic, sc, ip, fp, ks = W.vf, W.vi, W.et, W.ei, W.ic, W.sc, W.ip, W.fp, W.ks
    kind, ident = ei[0, S.EI_KIND], ei[0, S.EI_ID]
    heap_pop(et, ei, ic)
    area(ic, sc, now)
    if kind == S.EV_COMPLETION:
        _completion(W, ident, now)
    elif kind == S.EV_CLIENT_REQUEST:
        _client_request(W, ident, now)
    elif kind == S.EV_BOOT and vi[ident, S.VI_STATE] == S.VM_BOOTING:
        activate(vf, vi, fp, ident, now)
    elif kind == S.EV_PERIOD:
        period(vi, et, ei, ic, ip, fp, ks, now)


@njit(cache=True, inline="always")
def _next_step(W, A, t_end):
    """Handle the next event before t_end; returns DONE, a NEED_* code, or -1 at t_end."""
    vi, et, ei, ic, sc, ip = W.vi, W.et, W.ei, W.ic, W.sc, W.ip
    arr_t, arr_n = A.t, A.n
    t_heap = et[0] if ic[S.IC_HEAP_N] > 0 else math.inf
    i = ic[S.IC_ARR_PTR]
    t_arr = arr_t[i] if i < len(arr_t) else math.inf
    t = min(t_heap, t_arr)
    if t >= t_end:
        return -1
    if t_heap <= t_arr:
        kind, ident, ver = ei[0, S.EI_KIND], ei[0, S.EI_ID], ei[0, S.EI_VER]
        if kind == S.EV_COMPLETION and ver != vi[ident, S.VI_VERSION]:
            heap_pop(et, ei, ic)
            return S.DONE
        status = _event_needs(W)
        if status == S.DONE:
            _dispatch_event(W, t)
            ic[S.IC_EVENTS] += 1
        return status
    c = arr_n[i, 2]
    status = _needs(W, c, 1, 1, 0, 1, 1, -1)
    if status == S.DONE and ip[S.IP_PAGES] and ic[S.IC_PAGES_FREE_N] < 1:
        status = S.NEED_PAGES
    if status == S.DONE:
        area(ic, sc, t)
        _arrival(W, arr_n[i, 0], arr_n[i, 1], c, t)
        ic[S.IC_ARR_PTR] = i + 1
        ic[S.IC_EVENTS] += 1
    return status


@njit(cache=True)
def _loop(W, A, M, t_end):
    ic, sc, fp = W.ic, W.sc, W.fp
    n_ticks, monitor = len(M.ts), fp[S.FP_MONITOR_S]
    while True:
        k = ic[S.IC_TICK]
        t_tick = (k + 1) * monitor if k < n_ticks else math.inf
        end = min(t_tick, t_end)
        status = _next_step(W, A, end)
        if status > 0:
            return status
        if status < 0:
            if t_tick <= t_end:
                area(ic, sc, t_tick)
                tick(W, M, k, t_tick)
                ic[S.IC_TICK] = k + 1
            else:
                area(ic, sc, t_end)
                return S.DONE


@njit(cache=True)
def _loop_bare(W, A, M, t_end):
    """Run the loop on reference-count-free views of every array."""
    views = S.World(
        bare(W.vf), bare(W.vi), bare(W.vtag), bare(W.vjob), bare(W.jf), bare(W.ji),
        bare(W.pf), bare(W.pi), bare(W.et), bare(W.ei), bare(W.ic), bare(W.sc), bare(W.ip),
        bare(W.fp), bare(W.qd), bare(W.qg), bare(W.qu), bare(W.cls), bare(W.hists),
        bare(W.csum), bare(W.win), bare(W.winh), bare(W.tr), bare(W.ks),
    )  # fmt: skip
    arrivals = S.Arrivals(bare(A.t), bare(A.n))
    monitor = S.Monitor(bare(M.ts), bare(M.utilization), bare(M.box_hist))
    return _loop(views, arrivals, monitor, t_end)


def run_until(s: S.CoreState, t_end: float) -> int:
    """Process all events before t_end; DONE, or a NEED_* status to refill and resume."""
    status: int = _loop_bare(S.world(s), S.arrivals(s), S.monitor(s), t_end)
    return status
