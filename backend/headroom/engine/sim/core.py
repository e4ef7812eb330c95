"""The compiled event loop: arrivals, client requests, completions, boots, monitoring ticks.

:func:`run_until` processes every event before ``t_end`` (and every monitoring tick up to
it). Before an event it checks that pools and capacities suffice and otherwise returns a
``NEED_*`` status without changing anything; the caller refills or grows and calls again.

Page-level helpers take the whole state as one tuple W of arrays, in this order:
VMs (vf, vi, vtag, vjob), requests (jf, ji), pages (pf, pi), event heap (et, ei),
scalars (ic, sc, ip, fp), per-class pools of demands and gaps (qd, qg), uniforms (qu),
per-class cursors, counts and sla.md class (cls), outputs (hists = latency and PLT
sketches per class, csum = their sums and maxima, win, winh = per-window counts and
sketches, tr = trace, ks = the partitions' K series).

Admission (ip[IP_ADMISSION], state.ADMISSION_CODES): :func:`_admit` decides for each new
base request (its page follows it); refusals take the ``_reject`` path like a full pool.
DynamicPart's controller runs on EV_PERIOD timer events (:func:`_period`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

from headroom.engine.admission.partitions import (
    dynamic_part_admits_normal,
    dynamic_part_step,
    switch_adm_admits,
)
from headroom.engine.sim import sketch
from headroom.engine.sim import state as S
from headroom.engine.sim.vm import (
    activate,
    advance,
    heap_pop,
    heap_push,
    hold_conn,
    maybe_release,
    move_set,
    promote_waiting,
    reschedule,
    service_pop,
    set_rate,
    submit,
)

_INV_FINE = 1.0 / sketch.log_gamma(sketch.FINE_ALPHA)
_INV_COARSE = 1.0 / sketch.log_gamma(sketch.COARSE_ALPHA)
_ACTIVE = S.VM_ACTIVE
_REFUSE = -2  # the admission stage's verdict: refuse the request
# Live connections on the Low Set (dynamic) and on the High Set (static, dynamic), by
# state.IC_LOAD's layout.
_LOAD_LS_D, _LOAD_HS_S, _LOAD_HS_D = S.IC_LOAD + 1, S.IC_LOAD + 2, S.IC_LOAD + 3


@njit(cache=True, inline="always")
def choose_vm(vf, vi, ic, ip, qu, now, want):
    """The dispatcher: pick an active VM by the configured policy; -1 if none. With
    ``want`` >= 0 only the VMs of that partition set (VI_SET) are candidates."""
    code, nv, best = ip[S.IP_DISPATCH], len(vi), -1
    start, pick, total = ic[S.IC_LAST_VM] + 1, 0, 0.0
    if code == 4:
        n_active = 0
        for v in range(nv):
            n_active += vi[v, S.VI_STATE] == _ACTIVE and (want < 0 or vi[v, S.VI_SET] == want)
        if n_active == 0:
            return -1
        pick = int(qu[ic[S.IC_UNI_PTR]] * n_active)
        ic[S.IC_UNI_PTR] += 1
    for k in range(nv):
        v = (start + k) % nv if code != 1 else k
        if vi[v, S.VI_STATE] != _ACTIVE or (want >= 0 and vi[v, S.VI_SET] != want):
            continue
        if code == 0:
            best = v
            break
        if code == 1:
            vf[v, S.VF_WRR] += vf[v, S.VF_WEIGHT]
            total += vf[v, S.VF_WEIGHT]
            better = best < 0 or vf[v, S.VF_WRR] > vf[best, S.VF_WRR]
        elif code == 2:
            better = best < 0 or vi[v, S.VI_N] < vi[best, S.VI_N]
        elif code == 3:
            better = best < 0 or vf[v, S.VF_LAST_DISPATCH] < vf[best, S.VF_LAST_DISPATCH]
        else:
            better = pick == 0
            pick -= 1
        if better:
            best = v
    if best >= 0:
        vf[best, S.VF_WRR] -= total
        ic[S.IC_LAST_VM] = best
        vf[best, S.VF_LAST_DISPATCH] = now
    return best


@njit(cache=True, inline="always")
def new_job(jf, ji, ic, qd, cls, page, base, c, now):
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
def _page_done(vf, vi, pf, pi, ic, sc, ip, fp, hists, csum, win, winh, p, now):
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
def _reject(vf, vi, ji, pf, pi, ic, sc, ip, fp, cls, hists, csum, win, winh, j, now):
    ic[S.IC_REJECTED] += 1
    ic[S.IC_TICK_REJ] += 1
    cls[ji[j, S.JI_CLASS], S.CL_REJECTED] += 1
    p = ji[j, S.JI_PAGE]
    free_job(ji, ic, j)
    if p >= 0:
        pi[p, S.PI_FAILED] = 1
        pi[p, S.PI_OUTSTANDING] -= 1
        if pi[p, S.PI_OUTSTANDING] == 0:
            _page_done(vf, vi, pf, pi, ic, sc, ip, fp, hists, csum, win, winh, p, now)


@njit(cache=True)
def _send(W, p, j, now, current):
    """Send request j of page p (sticky, or dispatched per request) or reject it."""
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    if p >= 0 and ip[S.IP_PER_REQUEST] == 0:
        v = pi[p, S.PI_VM]
    else:
        # Per-request dispatch keeps a partitioned page within its class's set.
        want = -1
        if p >= 0 and ip[S.IP_ADMISSION] >= S.ADM_STATIC_PART:
            want = cls[pi[p, S.PI_CLASS], S.CL_TOP]
        v = choose_vm(vf, vi, ic, ip, qu, now, want)
    if not submit(vf, vi, vtag, vjob, jf, ji, et, ei, ic, ip, fp, v, j, now, v != current):
        _reject(vf, vi, ji, pf, pi, ic, sc, ip, fp, cls, hists, csum, win, winh, j, now)


@njit(cache=True, inline="always")
def _schedule_client(pf, pi, et, ei, ic, qg, cls, p, now):
    c = pi[p, S.PI_CLASS]
    pf[p, S.PF_CLOCK] += qg[c, cls[c, S.CL_GAP_PTR]]
    cls[c, S.CL_GAP_PTR] += 1
    heap_push(et, ei, ic, max(now, pf[p, S.PF_CLOCK]), S.EV_CLIENT_REQUEST, p, 0)


@njit(cache=True)
def _base_done(W, p, v, now):
    """The base response left VM v: push objects, hint them, or start the client chain."""
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    nobj, npush, c = pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH], pi[p, S.PI_CLASS]
    if cls[c, S.CL_EARLY_HINTS]:
        for _ in range(nobj):
            j = new_job(jf, ji, ic, qd, cls, p, 0, c, now)
            _send(W, p, j, now, v)
        return
    for _ in range(npush):
        j = new_job(jf, ji, ic, qd, cls, p, 0, c, now)
        if not submit(vf, vi, vtag, vjob, jf, ji, et, ei, ic, ip, fp, v, j, now, False):
            _reject(vf, vi, ji, pf, pi, ic, sc, ip, fp, cls, hists, csum, win, winh, j, now)
    pi[p, S.PI_TO_ISSUE] = nobj - npush
    pf[p, S.PF_CLOCK] = pf[p, S.PF_ARRIVAL]
    if nobj > npush:
        _schedule_client(pf, pi, et, ei, ic, qg, cls, p, now)


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
def record_latency(jf, ji, pf, ic, sc, ip, hists, csum, tr, j, now):
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
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    advance(vf, vi, ip, v, now)
    j = service_pop(vi, vtag, vjob, v)
    vi[v, S.VI_N] -= 1
    promote_waiting(vf, vi, vtag, vjob, jf, ji, ic, ip, v, now)
    set_rate(vf, vi, ip, fp, v)
    lat = record_latency(jf, ji, pf, ic, sc, ip, hists, csum, tr, j, now)
    p, base = ji[j, S.JI_PAGE], ji[j, S.JI_BASE]
    hold_conn(vi, ji, ic, v, j, -1)
    free_job(ji, ic, j)
    if p < 0:
        record_window(win, winh, fp, lat, now)
    else:
        pi[p, S.PI_OUTSTANDING] -= 1
        if base:
            _base_done(W, p, v, now)
        if pi[p, S.PI_OUTSTANDING] == 0:
            _page_done(vf, vi, pf, pi, ic, sc, ip, fp, hists, csum, win, winh, p, now)
    reschedule(vf, vi, vtag, et, ei, ic, v, now)
    maybe_release(vf, vi, sc, v, now)


@njit(cache=True, inline="always")
def _client_request(W, p, now):
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]  # noqa: RUF059
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    pi[p, S.PI_TO_ISSUE] -= 1
    j = new_job(jf, ji, ic, qd, cls, p, 0, pi[p, S.PI_CLASS], now)
    if pi[p, S.PI_TO_ISSUE] > 0:
        _schedule_client(pf, pi, et, ei, ic, qg, cls, p, now)
    _send(W, p, j, now, -1)


@njit(cache=True)
def _admit(vi, ic, ip, fp, cls, c):
    """The admission stage for a new base request of class c (sla.md): the partition set
    to dispatch it in (-1: any VM), or _REFUSE."""
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
        return -1 if switch_adm_admits(thr, live / n, dyn == 1, top == 1) else _REFUSE
    if top:
        return 1
    k, n_servers, per_server = ic[S.IC_K], ip[S.IP_N_SERVERS], fp[S.FP_MAXCONN_SLA]
    if dynamic_part_admits_normal(k, n_servers, float(ic[_LOAD_LS_D]), per_server):
        return 0
    return _REFUSE


@njit(cache=True)
def _period(vi, et, ei, ic, ip, fp, ks, now):
    """DynamicPart's controller (sla.md), every period: from the High Set's load (its
    static and dynamic connections) now and at its peak over the period, move the
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


@njit(cache=True, inline="always")
def _arrival(W, nobj, npush, c, now):
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    p = -1
    if ip[S.IP_PAGES]:
        p = ic[S.IC_PAGE_FREE]
        ic[S.IC_PAGE_FREE] = pi[p, S.PI_NEXT]
        ic[S.IC_PAGES_FREE_N] -= 1
        ic[S.IC_PAGES_ARRIVED] += 1
        pf[p, S.PF_ARRIVAL], pi[p, S.PI_NOBJ], pi[p, S.PI_NPUSH] = now, nobj, npush
        pi[p, S.PI_CLASS] = c
        pi[p, S.PI_OUTSTANDING], pi[p, S.PI_TO_ISSUE], pi[p, S.PI_FAILED] = 1 + nobj, 0, 0
    j = new_job(jf, ji, ic, qd, cls, p, 1, c, now)
    want = _admit(vi, ic, ip, fp, cls, c) if ip[S.IP_ADMISSION] else -1
    v = choose_vm(vf, vi, ic, ip, qu, now, want) if want != _REFUSE else -1
    if p >= 0:
        pi[p, S.PI_VM] = v
        if ip[S.IP_PER_REQUEST] == 0 and v >= 0:
            vi[v, S.VI_PAGES] += 1
    if not submit(vf, vi, vtag, vjob, jf, ji, et, ei, ic, ip, fp, v, j, now, True):
        if p >= 0:
            ic[S.IC_PAGES_REJECTED] += 1
            pi[p, S.PI_OUTSTANDING], pi[p, S.PI_NOBJ] = 1, 0
        _reject(vf, vi, ji, pf, pi, ic, sc, ip, fp, cls, hists, csum, win, winh, j, now)


@njit(cache=True)
def tick(vf, vi, ic, ip, fp, ts, tsu, box, k, now):
    """Monitoring: per-VM utilisation over the interval ending ``now``, and the counters."""
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
def _needs(vi, vtag, ji, et, ic, ip, cls, qu, tr, c, jobs, demand, gap, uni, heap, v):
    """Status code if the pools or capacities cannot cover an event's worst case."""
    if ic[S.IC_JOBS_FREE_N] < jobs + 1:
        return S.NEED_JOBS
    if cls[c, S.CL_DEM_PTR] + demand > cls[c, S.CL_DEM_LEN]:
        return S.NEED_DEMAND
    if cls[c, S.CL_GAP_PTR] + gap > cls[c, S.CL_GAP_LEN]:
        return S.NEED_GAP
    if ip[S.IP_DISPATCH] == 4 and ic[S.IC_UNI_PTR] + uni > len(qu):
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
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]  # noqa: RUF059
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    kind, ident = ei[0, S.EI_KIND], ei[0, S.EI_ID]
    if kind == S.EV_CLIENT_REQUEST:
        v, c = pi[ident, S.PI_VM], pi[ident, S.PI_CLASS]
        return _needs(vi, vtag, ji, et, ic, ip, cls, qu, tr, c, 1, 1, 1, 1, 2, v)
    if kind != S.EV_COMPLETION:
        return S.DONE
    j = vjob[ident, 0]
    p, c = ji[j, S.JI_PAGE], ji[j, S.JI_CLASS]
    if p < 0 or ji[j, S.JI_BASE] == 0:
        return _needs(vi, vtag, ji, et, ic, ip, cls, qu, tr, c, 0, 0, 0, 0, 1, ident)
    n = pi[p, S.PI_NOBJ]
    v = ident if cls[c, S.CL_EARLY_HINTS] == 0 else -1
    return _needs(vi, vtag, ji, et, ic, ip, cls, qu, tr, c, n, n, 1, n, n + 2, v)


@njit(cache=True, inline="always")
def area(ic, sc, now):
    sc[S.SC_AREA] += ic[S.IC_IN_SYSTEM] * (now - sc[S.SC_LAST])
    sc[S.SC_LAST] = now
    sc[S.SC_NOW] = now


@njit(cache=True, inline="always")
def _dispatch_event(W, now):
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]  # noqa: RUF059
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
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
        _period(vi, et, ei, ic, ip, fp, ks, now)


@njit(cache=True, inline="always")
def _next_step(W, arr_t, arr_n, t_end):
    """Handle the next event before t_end; returns DONE, a NEED_* code, or -1 at t_end."""
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]  # noqa: RUF059
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    t_heap = et[0] if ic[S.IC_HEAP_N] > 0 else math.inf
    i = ic[S.IC_ARR_PTR]
    t_arr = arr_t[i] if i < len(arr_t) else math.inf
    t = min(t_heap, t_arr)
    if t >= t_end:
        return -1
    if t_heap <= t_arr:
        if ei[0, S.EI_KIND] == S.EV_COMPLETION and ei[0, S.EI_VER] != vi[ei[0, 1], S.VI_VERSION]:
            heap_pop(et, ei, ic)
            return S.DONE
        status = _event_needs(W)
        if status == S.DONE:
            _dispatch_event(W, t)
            ic[S.IC_EVENTS] += 1
        return status
    c = arr_n[i, 2]
    status = _needs(vi, vtag, ji, et, ic, ip, cls, qu, tr, c, 1, 1, 0, 1, 1, -1)
    if status == S.DONE and ip[S.IP_PAGES] and ic[S.IC_PAGES_FREE_N] < 1:
        status = S.NEED_PAGES
    if status == S.DONE:
        area(ic, sc, t)
        _arrival(W, arr_n[i, 0], arr_n[i, 1], c, t)
        ic[S.IC_ARR_PTR] = i + 1
        ic[S.IC_EVENTS] += 1
    return status


@njit(cache=True)
def _loop(W, arr_t, arr_n, ts, tsu, box, t_end):
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]  # noqa: RUF059
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]  # noqa: RUF059
    n_ticks, monitor = len(tsu), fp[S.FP_MONITOR_S]
    while True:
        k = ic[S.IC_TICK]
        t_tick = (k + 1) * monitor if k < n_ticks else math.inf
        end = min(t_tick, t_end)
        status = _next_step(W, arr_t, arr_n, end)
        if status > 0:
            return status
        if status < 0:
            if t_tick <= t_end:
                area(ic, sc, t_tick)
                tick(vf, vi, ic, ip, fp, ts, tsu, box, k, t_tick)
                ic[S.IC_TICK] = k + 1
            else:
                area(ic, sc, t_end)
                return S.DONE


@intrinsic
def data_ptr(typingctx, arr):
    """The raw data pointer of an array."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True)
def bare(a):
    """A view without a reference count: passing it between compiled helpers costs no
    atomic increments (the caller keeps the owner alive for the duration of the call)."""
    return carray(data_ptr(a), a.shape)  # type: ignore[call-arg]


@njit(cache=True)
def _loop_bare(W, arr_t, arr_n, ts, tsu, box, t_end):
    """Run the loop on reference-count-free views of every array."""
    (vf, vi, vtag, vjob, jf, ji, pf, pi, et, ei, ic, sc, ip, fp) = W[:14]
    (qd, qg, qu, cls, hists, csum, win, winh, tr, ks) = W[14:]
    a = (bare(vf), bare(vi), bare(vtag), bare(vjob), bare(jf), bare(ji), bare(pf))
    b = (bare(pi), bare(et), bare(ei), bare(ic), bare(sc), bare(ip), bare(fp))
    c = (bare(qd), bare(qg), bare(qu), bare(cls), bare(hists), bare(csum), bare(win))
    return _loop(
        a + b + c + (bare(winh), bare(tr), bare(ks)),
        bare(arr_t),
        bare(arr_n),
        bare(ts),
        bare(tsu),
        bare(box),
        t_end,
    )


def run_until(s: S.CoreState, t_end: float) -> int:
    """Process all events before t_end; DONE, or a NEED_* status to refill and resume."""
    world: tuple[np.ndarray, ...] = (s.vf, s.vi, s.vtag, s.vjob, s.jf, s.ji, s.pf, s.pi)
    world += (s.et, s.ei, s.ic, s.sc, s.ip, s.fp, s.pool_demand, s.pool_gap, s.pool_uniform)
    world += (s.cls, s.hists, s.csum, s.win, s.win_hist, s.trace, s.k_series)
    status: int = _loop_bare(world, s.arr_t, s.arr_n, s.ts, s.ts_utilization, s.box_hist, t_end)
    return status
