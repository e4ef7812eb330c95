"""The compiled core's state: a few typed 2-D arrays, one row per entity.

Each entity keeps its fields as columns of one float64 and one int64 matrix (VMs,
requests, pages, the event heap), so compiled helpers take a handful of arrays rather
than dozens. Scalars live in small arrays indexed by the constants below (``ic`` int64
counters, ``sc`` float64 accumulators, ``ip``/``fp`` parameters). Capacities grow on
demand: the core returns a ``NEED_*`` status before touching anything and :func:`grow`
enlarges the array it names (rows.py, shared with the multi-tier loop), so a run resumes
exactly where it stopped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from headroom.engine.sim import sketch
from headroom.engine.sim.rows import (  # noqa: F401 (the shared layout, re-exported)
    ADM_DYNAMIC_PART,
    ADM_NONE,
    ADM_STATIC_PART,
    ADM_SWITCH,
    ADMISSION_CODES,
    BOX_BINS,
    CS_LAT_MAX,
    CS_LAT_SUM,
    CS_PLT_MAX,
    CS_PLT_SUM,
    DONE,
    EI_ID,
    EI_KIND,
    EI_VER,
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
    IC_HS_PEAK,
    IC_IN_SYSTEM,
    IC_JOB_FREE,
    IC_JOBS_FREE_N,
    IC_K,
    IC_K_N,
    IC_LOAD,
    IC_NSRV_PEAK,
    IC_REJECTED,
    IC_TICK,
    IC_TICK_ARR,
    IC_TICK_DONE,
    IC_TICK_REJ,
    IC_UNI_PTR,
    IC_WAITING,
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
    VI_CONN,
    VI_N,
    VI_NSRV,
    VI_QHEAD,
    VI_QTAIL,
    VI_SET,
    VI_STATE,
    VI_VERSION,
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
(
    IC_PAGES_ARRIVED,
    IC_PAGES_DONE,
    IC_PAGES_REJECTED,
    IC_PAGES_FAILED,
    IC_PAGE_FREE,
    IC_LAST_VM,
    IC_TRACE_N,
    IC_PAGES_FREE_N,
) = range(N_IC_SHARED, N_IC_SHARED + 8)
N_IC = N_IC_SHARED + 8
# --- float accumulators (sc) ---
SC_NOW, SC_AREA, SC_LAST, SC_LAT_SUM, SC_VM_SECONDS = range(5)
N_SC = 5
# --- int params (ip) ---
# IP_DISPATCH: the dispatch policy (sim/dispatch.py's codes)
IP_FCFS, IP_CORES, IP_SLOTS, IP_WAIT_BOUND, IP_Q_UPPER, IP_DISPATCH, IP_PER_REQUEST = range(7)
# IP_ADMISSION: the class-aware admission stage (rows.ADMISSION_CODES), IP_N_SERVERS:
# the VMs it counts (partition_stage.set_up)
IP_PAGES, IP_TRACE, IP_ADMISSION, IP_N_SERVERS = range(7, 11)
N_IP = 11
# --- float params (fp) ---
FP_SPEED, FP_OVERHEAD, FP_MONITOR_S, FP_SLA_THRESHOLD_S, FP_WINDOW_S = range(5)
# SwitchAdm's per-server thresholds (admission.partitions.THR_* order) at FP_THR..FP_THR+3;
# MaxConn_D(T_D) per server and the DynamicPart control period.
FP_THR, FP_MAXCONN_SLA, FP_PERIOD_S = 5, 9, 10
N_FP = 11

# --- VM columns, after the shared ones ---
N_VF = N_VF_SHARED
VI_PAGES = N_VI_SHARED
N_VI = VI_PAGES + 1
# --- request (job) columns ---
JF_ARRIVAL, JF_START, JF_DEMAND = range(3)
JI_PAGE, JI_BASE, JI_VM, JI_NEXT, JI_CLASS, JI_KIND = range(6)  # kind: 1 = dynamic
N_JI = 6
# --- page columns ---
PF_ARRIVAL, PF_CLOCK = range(2)
PI_VM, PI_OUTSTANDING, PI_TO_ISSUE, PI_NOBJ, PI_NPUSH, PI_FAILED, PI_NEXT, PI_CLASS = range(8)
# --- per request class: pool cursors and settings (cls), latency sums (csum) ---
CL_DEM_PTR, CL_DEM_LEN, CL_GAP_PTR, CL_GAP_LEN, CL_EARLY_HINTS = range(5)
# per-class counts, and the class of docs/methods/admission.md
CL_ARRIVED, CL_REJECTED, CL_DYNAMIC, CL_TOP = range(5, 9)
N_CL = 9
# --- monitoring columns (int32, one row per tick), after the shared ones ---
TS_ALLOCATED, TS_ACTIVE = range(N_TS_SHARED, N_TS_SHARED + 2)
N_TS = N_TS_SHARED + 2

I32 = NDArray[np.int32]


class CoreState(NamedTuple):
    ic: I64
    sc: F64
    ip: I64
    fp: F64
    vf: F64  # VMs x VF_*
    vi: I64  # VMs x VI_*
    vtag: F64  # VMs x capacity: each VM's service heap (tags)
    vjob: I64  # VMs x capacity: each VM's service heap (request ids)
    jf: F64  # requests x JF_*
    ji: I64  # requests x JI_*
    pf: F64  # pages x PF_*
    pi: I64  # pages x PI_*
    et: F64  # event heap: times
    ei: I64  # event heap: EI_*
    arr_t: F64  # this segment's arrival times
    arr_n: I64  # this segment's (objects, pushed objects, class) per arrival
    pool_demand: F64  # classes x pool: i.i.d. service demands
    pool_gap: F64  # classes x pool: i.i.d. client gaps
    pool_uniform: F64
    cls: I64  # classes x CL_*
    ts: I32  # ticks x TS_*
    ts_utilization: NDArray[np.float32]
    box_hist: I64  # (allocated VMs) x utilisation bin
    hists: I64  # (2 x classes) x fine sketch buckets: latency, page load time per class
    csum: F64  # classes x CS_*
    win: I64  # windows x (completions, over the SLA threshold)
    win_hist: I32  # windows x coarse latency buckets
    trace: F64  # requests x (arrival, start, end, demand, vm, page arrival, class)
    k_series: F64 = np.zeros((1, 2))  # (from t_s, K) rows: the partitions' K step function


class World(NamedTuple):
    """The arrays the compiled loop works on, by name (CoreState less the segment's
    arrivals and the monitoring outputs, bundled apart: Arrivals, Monitor)."""

    vf: F64
    vi: I64
    vtag: F64
    vjob: I64
    jf: F64
    ji: I64
    pf: F64
    pi: I64
    et: F64
    ei: I64
    ic: I64
    sc: F64
    ip: I64
    fp: F64
    qd: F64  # pool_demand
    qg: F64  # pool_gap
    qu: F64  # pool_uniform
    cls: I64
    hists: I64
    csum: F64
    win: I64
    winh: I32  # win_hist
    tr: F64  # trace
    ks: F64  # k_series


class Arrivals(NamedTuple):
    """This segment's arrivals, in time order."""

    t: F64  # arrival times
    n: I64  # (objects, pushed objects, class) per arrival


class Monitor(NamedTuple):
    """What each monitoring tick writes (one row per tick; box_hist accumulates)."""

    ts: I32  # ticks x TS_*
    utilization: NDArray[np.float32]
    box_hist: I64  # (allocated VMs) x utilisation bin


def arrivals(s: CoreState) -> Arrivals:
    return Arrivals(s.arr_t, s.arr_n)


def monitor(s: CoreState) -> Monitor:
    return Monitor(s.ts, s.ts_utilization, s.box_hist)


def world(s: CoreState) -> World:
    """The state's arrays as the compiled loop takes them."""
    return World(
        s.vf, s.vi, s.vtag, s.vjob, s.jf, s.ji, s.pf, s.pi, s.et, s.ei, s.ic, s.sc, s.ip, s.fp,
        s.pool_demand, s.pool_gap, s.pool_uniform, s.cls, s.hists, s.csum, s.win, s.win_hist,
        s.trace, s.k_series,
    )  # fmt: skip


def new_state(
    ip: I64,
    fp: F64,
    weights: F64,
    early_hints: I64,
    n_ticks: int,
    n_windows: int,
    trace_cap: int,
) -> CoreState:
    """Empty state for ``len(weights)`` VM slots (all free), one class per early_hints flag."""
    vms, jobs, pages, heap, vm_cap = len(weights), 1024, 256, 1024, 64
    ic = np.zeros(N_IC, dtype=np.int64)
    ic[IC_JOBS_FREE_N], ic[IC_PAGES_FREE_N] = jobs, pages
    vf = np.zeros((vms, N_VF))
    vf[:, VF_WEIGHT] = weights
    vi = np.zeros((vms, N_VI), dtype=np.int64)
    vi[:, VI_QHEAD] = vi[:, VI_QTAIL] = -1
    ji = free_rows(jobs, N_JI, JI_NEXT)
    ji[:, JI_VM] = -1
    empty, n_classes = np.zeros(0), len(early_hints)
    cls = np.zeros((n_classes, N_CL), dtype=np.int64)
    cls[:, CL_EARLY_HINTS] = early_hints
    return CoreState(
        ic=ic, sc=np.zeros(N_SC), ip=ip, fp=fp, vf=vf, vi=vi,
        vtag=np.zeros((vms, vm_cap)), vjob=np.zeros((vms, vm_cap), dtype=np.int64),
        jf=np.zeros((jobs, 3)), ji=ji, pf=np.zeros((pages, 2)), pi=free_rows(pages, 8, PI_NEXT),
        et=np.zeros(heap), ei=np.zeros((heap, 3), dtype=np.int64),
        arr_t=empty, arr_n=np.zeros((0, 3), dtype=np.int64),
        pool_demand=np.zeros((n_classes, 0)), pool_gap=np.zeros((n_classes, 0)),
        pool_uniform=empty, cls=cls,
        ts=np.zeros((n_ticks, N_TS), dtype=np.int32),
        ts_utilization=np.zeros(n_ticks, dtype=np.float32),
        box_hist=np.zeros((vms + 1, BOX_BINS + 1), dtype=np.int64),
        hists=np.zeros((2 * n_classes, sketch.n_buckets(sketch.FINE_ALPHA)), dtype=np.int64),
        csum=np.zeros((n_classes, 4)),
        win=np.zeros((n_windows, 2), dtype=np.int64),
        win_hist=np.zeros((n_windows, sketch.n_buckets(sketch.COARSE_ALPHA)), dtype=np.int32),
        trace=np.zeros((trace_cap, 7)),
        k_series=np.zeros((1, 2)),
    )  # fmt: skip


def grow(s: CoreState, status: int) -> CoreState:
    """Enlarge the capacity named by ``status`` (a NEED_* code other than the pools)."""
    if status == NEED_JOBS:
        n = len(s.ji)
        ji, jf = grow_free_list(s.ji, s.jf, s.ic, JI_NEXT, IC_JOB_FREE, IC_JOBS_FREE_N)
        ji[n:, JI_VM] = -1
        return s._replace(ji=ji, jf=jf)
    if status == NEED_PAGES:
        pi, pf = grow_free_list(s.pi, s.pf, s.ic, PI_NEXT, IC_PAGE_FREE, IC_PAGES_FREE_N)
        return s._replace(pi=pi, pf=pf)
    if status == NEED_HEAP:
        et, ei = grow_event_heap(s.et, s.ei)
        return s._replace(et=et, ei=ei)
    if status == NEED_VM_HEAP:
        vtag, vjob = widen_service_heaps(s.vtag, s.vjob)
        return s._replace(vtag=vtag, vjob=vjob)
    if status == NEED_TRACE:
        return s._replace(trace=double_rows(s.trace))
    raise ValueError(f"cannot grow for status {status}")
