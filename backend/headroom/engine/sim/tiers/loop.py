"""The compiled multi-tier event loop (a request visits every tier in order, nested).

Events: arrivals (from the period's arrays), completions (a VM's next finisher), a page
client's next request, the admission stage's period and a VM's boot; between them, a
monitoring tick per ``monitor_s``. What an event does to a VM is in vms.py, to a request
or a page in requests.py.

W is the named bundle of the state's arrays (state.TierWorld). The
runner enters through run_loop_bare (views of the arrays whose type carries no reference
count, bare.py) and the per-event helpers are inlined into the loop, so passing W on
costs neither a call nor a reference count.
"""

from __future__ import annotations

import math

from numba import njit

from headroom.engine.sim.bare import bare
from headroom.engine.sim.heaps import heap_pop
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.admission import period
from headroom.engine.sim.tiers.pages import page_needs
from headroom.engine.sim.tiers.requests import arrival, client_request, completion
from headroom.engine.sim.tiers.vms import activate, advance


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
            advance(W, v, now)
            waiting += vi[v, S.VI_NQ]
            if vi[v, S.VI_STATE] == S.VM_ACTIVE:
                active += 1
                u = min(vf[v, S.VF_BUSY] / (monitor * cores), 1.0)
                util += u
                conc += vf[v, S.VF_HELD_AREA] / monitor
                slots = vi[v, S.VI_SLOTS]
                pool += math.inf if slots >= S.UNBOUNDED else slots
        if t == ip[S.IP_SCALED]:
            _box(vf, vi, box, first, count, alloc, 1.0 / (monitor * cores))
        for v in range(first, first + count):
            if vi[v, S.VI_STATE] != S.VM_FREE:
                vf[v, S.VF_BUSY], vf[v, S.VF_HELD_AREA] = 0.0, 0.0
        scale = 1.0 / active if active > 0 else 0.0
        row = tt[k, t]
        row[S.TT_ALLOCATED], row[S.TT_ACTIVE], row[S.TT_WAITING] = alloc, active, waiting
        row[S.TT_UTILIZATION], row[S.TT_CONCURRENCY] = util * scale, conc * scale
        row[S.TT_POOL] = pool * scale if active > 0 else math.nan
    ts[k, S.TS_ARRIVALS], ts[k, S.TS_COMPLETIONS] = ic[S.IC_TICK_ARR], ic[S.IC_TICK_DONE]
    ts[k, S.TS_REJECTED], ts[k, S.TS_WAITING] = ic[S.IC_TICK_REJ], ic[S.IC_WAITING]
    ts[k, S.TS_IN_SYSTEM] = ic[S.IC_IN_SYSTEM]
    ic[S.IC_TICK_ARR] = ic[S.IC_TICK_DONE] = ic[S.IC_TICK_REJ] = 0


@njit(cache=True, inline="always")
def _box(vf, vi, box, first, count, alloc, scale):
    """Each active VM's utilisation this tick (busy core-seconds x ``scale``, 1 / the
    tick's core-seconds), binned by the tier's allocated VMs."""
    for v in range(first, first + count):
        if vi[v, S.VI_STATE] == S.VM_ACTIVE:
            box[alloc, int(min(vf[v, S.VF_BUSY] * scale, 1.0) * S.BOX_BINS)] += 1


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
    state.TierMonitor); DONE or a NEED_* status. The time integral closes at each of
    ``A.cuts`` as it would if each period ended a call."""
    ic, sc, fp, vi, et, ei = W.ic, W.sc, W.fp, W.vi, W.et, W.ei
    arr_t, cuts, n_ticks, monitor = A.t, A.cuts, len(M.ts), fp[S.FP_MONITOR_S]
    cut = 0  # the first period end not reached yet
    while cut < len(cuts) and cuts[cut] <= sc[S.SC_LAST]:
        cut += 1
    while True:
        k = ic[S.IC_TICK]
        t_tick = (k + 1) * monitor if k < n_ticks else math.inf
        t_stop = cuts[cut] if cut < len(cuts) else t_end
        end = min(t_tick, t_stop)
        t_heap = et[0] if ic[S.IC_HEAP_N] > 0 else math.inf
        i = ic[S.IC_ARR_PTR]
        t_arr = arr_t[i] if i < len(arr_t) else math.inf
        now = min(t_heap, t_arr)
        if now >= end:
            sc[S.SC_AREA] += ic[S.IC_IN_SYSTEM] * (end - sc[S.SC_LAST])
            sc[S.SC_LAST] = end
            if t_tick <= t_stop:
                _tick(W, M, k, t_tick)
                ic[S.IC_TICK] = k + 1
                continue
            if cut < len(cuts):
                cut += 1
                continue
            return S.DONE
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
            heap_pop(et, ei, ic, vi)
            if kind == S.EV_COMPLETION:
                completion(W, ident, now)
            elif kind == S.EV_CLIENT_REQUEST:
                client_request(W, ident, now)
            elif kind == S.EV_PERIOD:
                period(vi, ic, W.ip, fp, W.tp, W.ks, et, ei, now)
            elif vi[ident, S.VI_STATE] == S.VM_BOOTING:
                activate(W, ident, now)
        else:
            arrival(W, A, i, now)
            ic[S.IC_ARR_PTR] = i + 1


@njit(cache=True)
def run_loop_bare(W, A, M, t_end):
    """run_loop on reference-count-free views of every array."""
    views = S.TierWorld(
        bare(W.ic), bare(W.sc), bare(W.ip), bare(W.fp), bare(W.tp), bare(W.tf), bare(W.vi),
        bare(W.vf), bare(W.vtag), bare(W.vjob), bare(W.jf), bare(W.ji), bare(W.pf),
        bare(W.pi), bare(W.et), bare(W.ei), bare(W.qu), bare(W.qd), bare(W.qg), bare(W.qc),
        bare(W.hists), bare(W.csum), bare(W.win), bare(W.winh), bare(W.ring), bare(W.tr),
        bare(W.cls), bare(W.ks),
    )  # fmt: skip
    arrivals = S.TierArrivals(bare(A.t), bare(A.c), bare(A.d), bare(A.n), bare(A.cuts))
    monitor = S.TierMonitor(bare(M.ts), bare(M.tt), bare(M.box))
    return run_loop(views, arrivals, monitor, t_end)
