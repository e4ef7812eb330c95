"""The single-queue FCFS fast path: one fixed VM with c cores, one FIFO queue, no policy.

With FCFS on c identical cores and nothing else in play (no pool limit, accept bound,
overhead model, pages or autoscaling), request i starts at s_i = max(a_i, the earliest
time a core is free) and departs at d_i = s_i + x_i / speed: the textbook M/M/c
simulation with a heap of c free times (Kiefer-Wolfowitz). Everything the event loop
records is a sum over requests of terms fixed by (a_i, s_i, d_i), so each request is
recorded once, at its arrival: its latency if d_i < horizon (sketch, SLA window,
trace); per monitoring tick, its arrival and departure, +1/-1 steps of the waiting and
in-system counts (summed over the ticks by :meth:`FcfsQueue.finish`) and its busy time
split over the ticks it spans. A request still in the system at the horizon keeps a
job record, so the Little's-law bookkeeping is the same.

Ties and tick boundaries follow the tier loop (tiers/loop.py): a departure frees its
core for an arrival at the same instant, and an event at a tick's end time counts in
the next tick. Tests check that the fast path and the loop give the same results on
the same scenario and seed.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from headroom.engine.sim import sketch
from headroom.engine.sim.kernel import state as S
from headroom.engine.sim.rows import F64, I64
from headroom.engine.sim.scenario import Scenario

_INV_FINE = 1.0 / sketch.log_gamma(sketch.FINE_ALPHA)
_INV_COARSE = 1.0 / sketch.log_gamma(sketch.COARSE_ALPHA)


def applies(s: Scenario) -> bool:
    """Whether a scenario is a plain FCFS queue that the fast path runs exactly."""
    c = s.cluster
    plain = c.pool_limit is None and c.accept_queue is None and c.overhead is None
    no_pages = all(k.page is None for k in s.workload.class_list())
    fixed = c.vms.max == 1 and s.autoscaling.policy == "none"
    no_stage = s.admission.policy == "none"
    return c.discipline == "fcfs" and plain and no_pages and fixed and no_stage


@njit(cache=True, inline="always")
def _tick_of(t, monitor, n):
    """The monitoring tick an event at t counts in (the first k with t < (k + 1) x monitor),
    or n past the last one."""
    k = int(t / monitor)
    if t >= (k + 1) * monitor:
        k += 1
    elif k > 0 and t < k * monitor:
        k -= 1
    return min(k, n)


@njit(cache=True, inline="always")
def _take_core(free, departure):
    """Replace the earliest free time (the heap's top) by ``departure``."""
    n, i = len(free), 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and free[child + 1] < free[child]:
            child += 1
        if free[child] >= departure:
            break
        free[i] = free[child]
        i = child
    free[i] = departure


@njit(cache=True, inline="always")
def _record_ticks(per_tick, busy, a, start, d, monitor, n):
    """Counts, +-1 steps and busy seconds of one request, per monitoring tick."""
    ka, ks, kd = _tick_of(a, monitor, n), _tick_of(start, monitor, n), _tick_of(d, monitor, n)
    per_tick[ka, 0] += 1
    per_tick[kd, 1] += 1
    per_tick[ka, 2] += 1
    per_tick[ks, 2] -= 1
    per_tick[ka, 3] += 1
    per_tick[kd, 3] -= 1
    if ks == kd:
        busy[ks, 0] += d - start
        return
    busy[ks, 0] += (ks + 1) * monitor - start
    busy[ks + 1, 1] += 1.0
    busy[kd, 1] -= 1.0
    busy[kd, 0] += d - kd * monitor


@njit(cache=True, inline="always")
def _record_done(ic, sc, hists, csum, c, lat):
    """A request of class c completed after ``lat`` seconds: sketch, sums, counter."""
    hists[2 * c, sketch.bucket_of(lat, _INV_FINE, hists.shape[1])] += 1
    csum[c, S.CS_LAT_SUM] += lat
    csum[c, S.CS_LAT_MAX] = max(csum[c, S.CS_LAT_MAX], lat)
    sc[S.SC_LAT_SUM] += lat
    ic[S.IC_COMPLETED] += 1


@njit(cache=True, inline="always")
def _record_window(win, winh, fp, x, now):
    """A latency ``x`` ending at ``now`` in its SLA window: count, over the threshold, sketch."""
    w = min(int(now / fp[S.FP_WINDOW_S]), len(win) - 1)
    win[w, 0] += 1
    win[w, 1] += x > fp[S.FP_SLA_THRESHOLD_S]
    winh[w, sketch.bucket_of(x, _INV_COARSE, winh.shape[1])] += 1


@njit(cache=True, inline="always")
def _record_trace(tr, ic, arrival, start, end, demand, c):
    """A completed request's trace row (on VM 0, no page)."""
    n = ic[S.IC_TRACE_N]
    tr[n, 0], tr[n, 1], tr[n, 2], tr[n, 3] = arrival, start, end, demand
    tr[n, 4], tr[n, 5], tr[n, 6] = 0, math.nan, c
    ic[S.IC_TRACE_N] = n + 1


@njit(cache=True, inline="always")
def _keep_job(jf, ji, ic, a, start, x, c):
    """A request still in the system at the horizon: a live job record."""
    j = ic[S.IC_JOB_FREE]
    ic[S.IC_JOB_FREE] = ji[j, S.JI_NEXT]
    ic[S.IC_JOBS_FREE_N] -= 1
    ji[j, S.JI_CLASS], ji[j, S.JI_VM] = c, 0
    jf[j, S.JF_ARRIVAL], jf[j, S.JF_START], jf[j, S.JF_DEMAND] = a, start, x
    ic[S.IC_IN_SYSTEM] += 1


class Cores(NamedTuple):
    """The fast path's own arrays beside the core state."""

    free_s: F64  # the cores' free times (a heap)
    per_tick: I64  # per tick: arrivals, departures, waiting and in-system steps
    busy: F64  # per tick: busy seconds in part-covered ticks; full-tick steps


@njit(cache=True)
def _serve(W, Q, A, horizon):
    """Serve this segment's arrivals (A: state.Arrivals) on the cores Q; DONE, or a NEED_*
    status to refill and resume."""
    qd, cls, jf, ji, ic, sc, ip, fp = W.qd, W.cls, W.jf, W.ji, W.ic, W.sc, W.ip, W.fp
    hists, csum, win, winh, tr = W.hists, W.csum, W.win, W.winh, W.tr
    free, per_tick, busy, arr_t, arr_n = Q.free_s, Q.per_tick, Q.busy, A.t, A.n
    monitor, n, speed = fp[S.FP_MONITOR_S], len(per_tick) - 1, fp[S.FP_SPEED]
    while ic[S.IC_ARR_PTR] < len(arr_t):
        i = ic[S.IC_ARR_PTR]
        a, c = arr_t[i], arr_n[i, 2]
        if cls[c, S.CL_DEM_PTR] >= cls[c, S.CL_DEM_LEN]:
            return S.NEED_DEMAND
        x = qd[c, cls[c, S.CL_DEM_PTR]]
        start = max(a, free[0])
        d = start + x / speed
        done = d < horizon
        if not done and ic[S.IC_JOBS_FREE_N] < 1:
            return S.NEED_JOBS
        if done and ip[S.IP_TRACE] and ic[S.IC_TRACE_N] >= len(tr):
            return S.NEED_TRACE
        _take_core(free, d)
        cls[c, S.CL_DEM_PTR] += 1
        ic[S.IC_ARR_PTR] = i + 1
        ic[S.IC_ARRIVED] += 1
        ic[S.IC_EVENTS] += 1 + done
        sc[S.SC_AREA] += min(d, horizon) - a
        _record_ticks(per_tick, busy, a, start, d, monitor, n)
        if not done:
            _keep_job(jf, ji, ic, a, start, x, c)
            continue
        _record_done(ic, sc, hists, csum, c, d - a)
        _record_window(win, winh, fp, d - a, d)
        if ip[S.IP_TRACE]:
            _record_trace(tr, ic, a, start, d, x, c)
    return S.DONE


class FcfsQueue:
    """The fast path's runner: its cores beside the core state, and the series it writes."""

    def __init__(self, s: S.CoreState, horizon_s: float) -> None:
        n = len(s.ts)
        self.horizon_s = horizon_s
        self.cores = Cores(
            free_s=np.zeros(int(s.ip[S.IP_CORES])),
            per_tick=np.zeros((n + 1, 4), dtype=np.int64),
            busy=np.zeros((n + 1, 2)),
        )

    def run_until(self, s: S.CoreState, t_end: float) -> int:
        """Serve the arrivals installed for the segment ending at t_end."""
        status: int = _serve(S.world(s), self.cores, S.arrivals(s), self.horizon_s)
        return status

    def finish(self, s: S.CoreState) -> None:
        """Write the monitoring series of the ticks the event loop would have processed."""
        monitor = float(s.fp[S.FP_MONITOR_S])
        n, per_tick, busy = len(s.ts), self.cores.per_tick, self.cores.busy
        ticks = int(np.sum(np.arange(1, n + 1, dtype=np.float64) * monitor <= self.horizon_s))
        steps = np.cumsum(per_tick, axis=0)[:ticks]
        s.ts[:ticks, S.TS_ALLOCATED] = s.ts[:ticks, S.TS_ACTIVE] = 1
        s.ts[:ticks, S.TS_ARRIVALS] = per_tick[:ticks, 0]
        s.ts[:ticks, S.TS_COMPLETIONS] = per_tick[:ticks, 1]
        s.ts[:ticks, S.TS_WAITING], s.ts[:ticks, S.TS_IN_SYSTEM] = steps[:, 2], steps[:, 3]
        busy_s = busy[:ticks, 0] + np.cumsum(busy[:, 1])[:ticks] * monitor
        utilization = np.minimum(busy_s * (1.0 / (monitor * int(s.ip[S.IP_CORES]))), 1.0)
        s.ts_utilization[:ticks] = utilization
        np.add.at(s.box_hist[1], (utilization * S.BOX_BINS).astype(np.int64), 1)
        s.ic[S.IC_TICK] = ticks
