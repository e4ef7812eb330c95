"""State of the multi-tier loop (loop.py): typed arrays, one row per entity.

VMs of every tier share one set of rows (tier t owns rows first..first + count); a
request's row keeps, per tier, the time it reached the tier, the time it took a pool
slot there, its demand there and the VM that holds it; a page's row,
its arrival, client clock, VM and outstanding requests. Capacities grow on demand with the
helpers of rows.py: the loop returns a ``NEED_*`` status
before touching anything.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.sim import sketch
from headroom.engine.sim.rows import (  # noqa: F401 (the shared layout, re-exported)
    ADM_STATIC_PART,
    BOX_BINS,
    CS_LAT_MAX,
    CS_LAT_SUM,
    CS_PLT_MAX,
    CS_PLT_SUM,
    DONE,
    EI_ID,
    EI_KIND,
    EV_BOOT,
    EV_CLIENT_REQUEST,
    EV_COMPLETION,
    EV_PERIOD,
    F64,
    I64,
    IC_ARR_PTR,
    IC_ARRIVED,
    IC_COMPLETED,
    IC_EVENTS,
    IC_HEAP_N,
    IC_IN_SYSTEM,
    IC_JOB_FREE,
    IC_JOBS_FREE_N,
    IC_K,
    IC_K_N,
    IC_NSRV_PEAK,
    IC_REJECTED,
    IC_TICK,
    IC_TICK_ARR,
    IC_TICK_DONE,
    IC_TICK_REJ,
    IC_UNI_PTR,
    IC_WAITING,
    N_CS_SHARED,
    N_IC_SHARED,
    N_TS_SHARED,
    N_VF_SHARED,
    N_VI_SHARED,
    NEED_DEMAND,
    NEED_GAP,
    NEED_HEAP,
    NEED_JOBS,
    NEED_PAGES,
    NEED_TRACE,
    NEED_UNIFORM,
    NEED_VM_HEAP,
    TS_ARRIVALS,
    TS_COMPLETIONS,
    TS_IN_SYSTEM,
    TS_REJECTED,
    TS_WAITING,
    UNBOUNDED,
    VF_ALLOC_T,
    VF_BUSY,
    VF_LAST,
    VF_LAST_DISPATCH,
    VF_RATE,
    VF_VCLOCK,
    VF_WEIGHT,
    VF_WRR,
    VI_EVENT,
    VI_N,
    VI_NSRV,
    VI_QHEAD,
    VI_QTAIL,
    VI_STATE,
    VM_ACTIVE,
    VM_BOOTING,
    VM_DRAINING,
    VM_FREE,
    double_rows,
    free_rows,
    grow_event_heap,
    grow_free_list,
    widen_service_heaps,
)

# --- int counters (ic), after the shared ones ---
IC_LEFT, IC_TRACE_N = N_IC_SHARED, N_IC_SHARED + 1
# pages: arrived, done (loaded or failed), refused at their base request, failed; the
# free list of page rows
IC_PAGES_ARRIVED, IC_PAGES_DONE, IC_PAGES_REJECTED, IC_PAGES_FAILED = range(
    N_IC_SHARED + 2, N_IC_SHARED + 6
)
IC_PAGE_FREE, IC_PAGES_FREE_N = N_IC_SHARED + 6, N_IC_SHARED + 7
N_IC = N_IC_SHARED + 8
# --- float accumulators (sc) ---
SC_AREA, SC_LAST, SC_LAT_SUM, SC_TIME_SUM = range(4)
# --- int params (ip), float params (fp) ---
# IP_RANDOM: some tier dispatches at random; IP_TRACE: keep per-request traces;
# IP_ADMISSION: the class-aware admission stage at the first tier (rows.ADMISSION_CODES),
# IP_N_SERVERS: that tier's VMs as the stage counts them; IP_PAGES: requests come as
# pages (their demands drawn in the loop from the pools qd); IP_PER_REQUEST: a page's
# requests are dispatched one by one (else they stick to its base request's VM).
IP_TIERS, IP_SCALED, IP_SCT, IP_RANDOM, IP_TRACE, IP_ADMISSION, IP_N_SERVERS = range(7)
IP_PAGES, IP_PER_REQUEST = 7, 8
N_IP = 9
FP_MONITOR_S, FP_WINDOW_S, FP_SLA_S, FP_SCT_S = range(4)
# SwitchAdm's per-server thresholds at FP_THR..FP_THR+3, MaxConn_D(T_D) per server and
# DynamicPart's control period (partition_stage.set_up).
FP_THR, FP_MAXCONN_SLA, FP_PERIOD_S = 4, 8, 9
N_FP = 10
# --- per tier: int (tp), float (tf) ---
# TP_RR: where the dispatcher's next scan starts (one past its last pick, within the tier);
# TP_DISPATCH: the tier's dispatch policy (sim/dispatch.py's codes).
TP_FIRST, TP_COUNT, TP_CORES, TP_FCFS, TP_WAIT_BOUND, TP_Q_UPPER, TP_RR = range(7)
# TP_OWN_DEMAND: the tier draws demands from its own distribution (with pages, from the
# pool row classes + tier), else from the request class's.
TP_POOL, TP_HELD, TP_PEAK_HELD, TP_DISPATCH, TP_OWN_DEMAND = range(7, 12)
N_TP = 12
TF_SPEED, TF_FACTOR, TF_RES_SUM, TF_VM_SECONDS = range(4)
N_TF = 4
# --- VM columns, after the shared ones ---
# VI_PAGES: pages sticking to the VM (it is not released while it has any).
VI_TIER, VI_HELD, VI_NQ, VI_RHEAD, VI_RTAIL, VI_SLOTS, VI_SCT_K, VI_PEAK_HELD = range(
    N_VI_SHARED, N_VI_SHARED + 8
)
VI_PAGES = N_VI_SHARED + 8
N_VI = N_VI_SHARED + 9
VF_HELD_AREA, VF_SCT_LAST = range(N_VF_SHARED, N_VF_SHARED + 2)
N_VF = N_VF_SHARED + 2
# --- request columns: jf = arrival, then per tier enter, acquire, demand, then the
# service start at the first tier (jf_start) ---
JF_ARRIVAL = 0
# JI_PAGE: the request's page (-1: none), JI_BASE: it is the page's base request
JI_CLASS, JI_TIER, JI_NEXT, JI_PAGE, JI_BASE = range(5)
JI_VM = 5  # then the VM per tier
# --- page columns ---
PF_ARRIVAL, PF_CLOCK = range(2)
PI_VM, PI_OUTSTANDING, PI_TO_ISSUE, PI_NOBJ, PI_NPUSH, PI_FAILED, PI_NEXT, PI_CLASS = range(8)
N_PI = 8
# --- pools of draws (pages): demand pool rows (classes, then one per tier) x (read
# pointer, length), then the gap pool's (class rows only) ---
QC_DEM_PTR, QC_DEM_LEN, QC_GAP_PTR, QC_GAP_LEN = range(4)
# --- per class: sums (csum, after the shared ones), the user and kind of
# docs/methods/admission.md (cls) ---
CS_ARRIVED, CS_REJECTED = range(N_CS_SHARED, N_CS_SHARED + 2)
N_CS = N_CS_SHARED + 2
CL_TOP, CL_DYNAMIC, CL_EARLY_HINTS = range(3)
N_CL = 3
# --- tick series: global (ts, the shared columns) and per tier (tt) ---
N_TS = N_TS_SHARED
TT_ALLOCATED, TT_ACTIVE, TT_UTILIZATION, TT_CONCURRENCY, TT_WAITING, TT_POOL = range(6)
N_TT = 6
# --- SCT ring: per VM and interval ---
R_COMPLETIONS, R_AREA, R_LATENCY = range(3)


class TierState(NamedTuple):
    ic: I64
    sc: F64
    ip: I64
    fp: F64
    tp: I64  # tiers x TP_*
    tf: F64  # tiers x TF_*
    vi: I64  # VMs x VI_*
    vf: F64  # VMs x VF_*
    vtag: F64  # VMs x capacity: service heaps (tags)
    vjob: I64  # VMs x capacity: service heaps (request ids)
    jf: F64  # requests x (arrival, enter[T], acquire[T], demand[T])
    ji: I64  # requests x (class, tier, next, page, base, vm[T])
    pf: F64  # pages x PF_*
    pi: I64  # pages x PI_*
    et: F64  # event heap times
    ei: I64  # event heap (kind, id, version)
    arr_t: F64  # this segment's arrivals
    arr_c: I64  # their classes
    arr_d: F64  # their demands per tier (without pages)
    arr_n: I64  # their pages' (objects, pushed objects)
    arr_cuts: F64  # the ends of the periods the segment joins, before its own end
    qu: F64  # uniforms for random dispatch (read from ic[IC_UNI_PTR])
    qd: F64  # pages: demand pool rows (classes, then tiers) x draws
    qg: F64  # pages: gap pool, classes x draws
    qc: I64  # pages: the pools' cursors, demand rows x QC_*
    ts: NDArray[np.int32]  # ticks x TS_*
    tt: NDArray[np.float32]  # ticks x tiers x TT_*
    box: I64  # (allocated VMs of the scaled tier) x utilisation bin
    hists: I64  # (2 x classes) x fine sketch buckets: end-to-end latency, page load time
    csum: F64  # classes x CS_*
    win: I64  # SLA windows x (completions, over threshold)
    winh: NDArray[np.int32]  # SLA windows x coarse sketch buckets
    ring: F64  # VMs x intervals x R_* (SCT statistics of the last window)
    # completed requests x (arrival, start, end, demand, vm, page arrival, class):
    # start, demand and VM at the first tier
    trace: F64
    cls: I64  # classes x CL_*
    ks: F64  # (from t_s, K) rows: the partitions' K step function


@njit(cache=True, inline="always")
def jf_start(n_tiers: int) -> int:
    """The request column of its service start at the first tier."""
    return 1 + 3 * n_tiers


def _free_jobs(n: int, ncols: int) -> I64:
    rows = free_rows(n, ncols, JI_NEXT)
    rows[:, JI_TIER] = -1
    return rows


def new_tier_state(
    tp: I64,
    tf: F64,
    ip: I64,
    fp: F64,
    weights: F64,
    cls: I64,
    dims: tuple[int, int, int, int],
) -> TierState:
    """Empty state; ``weights``: each VM row's dispatch weight; ``cls``: each request
    class's CL_* row; ``dims`` = (monitoring ticks, SLA windows, SCT ring intervals,
    trace rows)."""
    n_ticks, n_windows, n_ring, trace_rows = dims
    tiers, vms, n_classes = len(tp), int(tp[:, TP_COUNT].sum()), len(cls)
    jobs, pages, heap, cap = 1024, 256, 1024, 64
    ic = np.zeros(N_IC, dtype=np.int64)
    ic[IC_JOBS_FREE_N], ic[IC_PAGES_FREE_N] = jobs, pages
    vi = np.zeros((vms, N_VI), dtype=np.int64)
    vi[:, [VI_EVENT, VI_QHEAD, VI_QTAIL, VI_RHEAD, VI_RTAIL]] = -1
    for t in range(tiers):
        vi[tp[t, TP_FIRST] : tp[t, TP_FIRST] + tp[t, TP_COUNT], VI_TIER] = t
    vf = np.zeros((vms, N_VF))
    vf[:, VF_WEIGHT] = weights
    return TierState(
        ic=ic, sc=np.zeros(4), ip=ip, fp=fp, tp=tp, tf=tf, vi=vi, vf=vf,
        vtag=np.zeros((vms, cap)), vjob=np.zeros((vms, cap), dtype=np.int64),
        jf=np.zeros((jobs, jf_start(tiers) + 1)), ji=_free_jobs(jobs, JI_VM + tiers),
        pf=np.zeros((pages, 2)), pi=free_rows(pages, N_PI, PI_NEXT),
        et=np.zeros(heap), ei=np.zeros((heap, 2), dtype=np.int64),
        arr_t=np.zeros(0), arr_c=np.zeros(0, dtype=np.int64), arr_d=np.zeros((0, tiers)),
        arr_n=np.zeros((0, 2), dtype=np.int64), arr_cuts=np.zeros(0),
        qu=np.zeros(0), qd=np.zeros((n_classes + tiers, 0)), qg=np.zeros((n_classes, 0)),
        qc=np.zeros((n_classes + tiers, 4), dtype=np.int64),
        ts=np.zeros((n_ticks, N_TS), dtype=np.int32),
        tt=np.zeros((n_ticks, tiers, N_TT), dtype=np.float32),
        box=np.zeros((vms + 1, BOX_BINS + 1), dtype=np.int64),
        hists=np.zeros((2 * n_classes, sketch.n_buckets(sketch.FINE_ALPHA)), dtype=np.int64),
        csum=np.zeros((n_classes, N_CS)),
        win=np.zeros((n_windows, 2), dtype=np.int64),
        winh=np.zeros((n_windows, sketch.n_buckets(sketch.COARSE_ALPHA)), dtype=np.int32),
        ring=np.zeros((vms, n_ring, 3)),
        trace=np.zeros((trace_rows, 7)),
        cls=cls,
        ks=np.zeros((1, 2)),
    )  # fmt: skip


def grow(s: TierState, status: int, need: int = 0) -> TierState:
    """Enlarge the capacity a ``NEED_*`` status names (service heaps to >= ``need``)."""
    if status == NEED_JOBS:
        n = len(s.ji)
        ji, jf = grow_free_list(s.ji, s.jf, s.ic, JI_NEXT, IC_JOB_FREE, IC_JOBS_FREE_N)
        ji[n:, JI_TIER] = -1
        return s._replace(ji=ji, jf=jf)
    if status == NEED_PAGES:
        pi, pf = grow_free_list(s.pi, s.pf, s.ic, PI_NEXT, IC_PAGE_FREE, IC_PAGES_FREE_N)
        return s._replace(pi=pi, pf=pf)
    if status == NEED_HEAP:
        et, ei = grow_event_heap(s.et, s.ei)
        return s._replace(et=et, ei=ei)
    if status == NEED_VM_HEAP:
        vtag, vjob = widen_service_heaps(s.vtag, s.vjob, need)
        return s._replace(vtag=vtag, vjob=vjob)
    if status == NEED_TRACE:
        return s._replace(trace=double_rows(s.trace))
    raise ValueError(f"cannot grow for status {status}")


class TierWorld(NamedTuple):
    """The arrays the compiled loop works on, by name (TierState less the segment's
    arrivals and the monitoring outputs, bundled apart: TierArrivals, TierMonitor)."""

    ic: I64
    sc: F64
    ip: I64
    fp: F64
    tp: I64
    tf: F64
    vi: I64
    vf: F64
    vtag: F64
    vjob: I64
    jf: F64
    ji: I64
    pf: F64
    pi: I64
    et: F64
    ei: I64
    qu: F64
    qd: F64
    qg: F64
    qc: I64
    hists: I64
    csum: F64
    win: I64
    winh: NDArray[np.int32]
    ring: F64
    tr: F64  # trace
    cls: I64
    ks: F64


class TierArrivals(NamedTuple):
    """This segment's arrivals, in time order."""

    t: F64  # arrival times
    c: I64  # their classes
    d: F64  # their demands per tier (without pages)
    n: I64  # their pages' (objects, pushed objects)
    cuts: F64  # the ends of the periods the segment joins, before its own end


class TierMonitor(NamedTuple):
    """What each monitoring tick writes (one row per tick; box accumulates)."""

    ts: NDArray[np.int32]  # ticks x TS_*
    tt: NDArray[np.float32]  # ticks x tiers x TT_*
    box: I64  # (allocated VMs of the scaled tier) x utilisation bin


def arrivals(s: TierState) -> TierArrivals:
    return TierArrivals(s.arr_t, s.arr_c, s.arr_d, s.arr_n, s.arr_cuts)


def monitor(s: TierState) -> TierMonitor:
    return TierMonitor(s.ts, s.tt, s.box)


def world(s: TierState) -> TierWorld:
    """The arrays the compiled loop takes (loop.py)."""
    return TierWorld(s.ic, s.sc, s.ip, s.fp, s.tp, s.tf, s.vi, s.vf, s.vtag, s.vjob, s.jf,
                     s.ji, s.pf, s.pi, s.et, s.ei, s.qu, s.qd, s.qg, s.qc, s.hists, s.csum,
                     s.win, s.winh, s.ring, s.trace, s.cls, s.ks)  # fmt: skip


def room(s: TierState, heap: int, vm_heap: int) -> TierState:
    """Grow until ``heap`` more events and service heaps of ``vm_heap`` entries fit."""
    while s.ic[IC_HEAP_N] + heap > len(s.et):
        s = grow(s, NEED_HEAP)
    if vm_heap > s.vtag.shape[1]:
        s = grow(s, NEED_VM_HEAP, vm_heap)
    return s
