"""The FCFS fast path's state (fcfs.py): a few typed 2-D arrays, one row per entity.

Requests keep their fields as columns of one float64 and one int64 matrix; scalars live
in small arrays indexed by the constants below (``ic`` int64 counters, ``sc`` float64
accumulators, ``ip``/``fp`` parameters). The counters and monitoring columns it shares
with the tier loop sit where rows.py puts them. Capacities grow on demand: the fast path
returns a ``NEED_*`` status before touching anything and :func:`grow` enlarges the array
it names, so a run resumes exactly where it stopped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from headroom.engine.sim import sketch
from headroom.engine.sim.rows import (  # noqa: F401 (the shared layout, re-exported)
    BOX_BINS,
    CS_LAT_MAX,
    CS_LAT_SUM,
    DONE,
    F64,
    I64,
    IC_ARR_PTR,
    IC_ARRIVED,
    IC_COMPLETED,
    IC_EVENTS,
    IC_IN_SYSTEM,
    IC_JOB_FREE,
    IC_JOBS_FREE_N,
    IC_REJECTED,
    IC_TICK,
    IC_UNI_PTR,
    N_IC_SHARED,
    N_TS_SHARED,
    NEED_DEMAND,
    NEED_GAP,
    NEED_JOBS,
    NEED_TRACE,
    NEED_UNIFORM,
    TS_ARRIVALS,
    TS_COMPLETIONS,
    TS_IN_SYSTEM,
    TS_REJECTED,
    TS_WAITING,
    double_rows,
    free_rows,
    grow_free_list,
)

# --- int counters (ic), after the shared ones ---
IC_TRACE_N = N_IC_SHARED
N_IC = N_IC_SHARED + 1
# --- float accumulators (sc) ---
SC_AREA, SC_LAT_SUM = range(2)
N_SC = 2
# --- params: int (ip), float (fp) ---
IP_CORES, IP_TRACE = range(2)
N_IP = 2
FP_SPEED, FP_MONITOR_S, FP_SLA_THRESHOLD_S, FP_WINDOW_S = range(4)
N_FP = 4
# --- request (job) columns: the requests still in the system at the horizon ---
JF_ARRIVAL, JF_START, JF_DEMAND = range(3)
JI_VM, JI_NEXT, JI_CLASS = range(3)  # JI_VM: 0 while live, -1 once free
N_JI = 3
# --- per request class: pool cursors (the feeder's), counts (cls) ---
CL_DEM_PTR, CL_DEM_LEN, CL_GAP_PTR, CL_GAP_LEN, CL_ARRIVED, CL_REJECTED = range(6)
N_CL = 6
# --- monitoring columns (int32, one row per tick), after the shared ones ---
TS_ALLOCATED, TS_ACTIVE = range(N_TS_SHARED, N_TS_SHARED + 2)
N_TS = N_TS_SHARED + 2

I32 = NDArray[np.int32]


class CoreState(NamedTuple):
    ic: I64
    sc: F64
    ip: I64
    fp: F64
    jf: F64  # requests x JF_*
    ji: I64  # requests x JI_*
    arr_t: F64  # this segment's arrival times
    arr_n: I64  # this segment's (objects, pushed objects, class) per arrival
    pool_demand: F64  # classes x pool: i.i.d. service demands
    pool_gap: F64  # classes x pool: i.i.d. client gaps (the feeder's; no pages here)
    pool_uniform: F64  # the feeder's (one VM: no dispatch reads them)
    cls: I64  # classes x CL_*
    ts: I32  # ticks x TS_*
    ts_utilization: NDArray[np.float32]
    box_hist: I64  # (allocated VMs) x utilisation bin
    hists: I64  # (2 x classes) x fine sketch buckets: latency (and no page load time)
    csum: F64  # classes x CS_*
    win: I64  # windows x (completions, over the SLA threshold)
    win_hist: I32  # windows x coarse latency buckets
    trace: F64  # requests x (arrival, start, end, demand, vm, page arrival, class)


class World(NamedTuple):
    """The arrays the compiled fast path works on, by name (CoreState less the
    segment's arrivals and the monitoring outputs)."""

    jf: F64
    ji: I64
    ic: I64
    sc: F64
    ip: I64
    fp: F64
    qd: F64  # pool_demand
    cls: I64
    hists: I64
    csum: F64
    win: I64
    winh: I32  # win_hist
    tr: F64  # trace


class Arrivals(NamedTuple):
    """This segment's arrivals, in time order."""

    t: F64  # arrival times
    n: I64  # (objects, pushed objects, class) per arrival


def arrivals(s: CoreState) -> Arrivals:
    return Arrivals(s.arr_t, s.arr_n)


def world(s: CoreState) -> World:
    """The state's arrays as the compiled fast path takes them."""
    return World(
        s.jf, s.ji, s.ic, s.sc, s.ip, s.fp, s.pool_demand, s.cls, s.hists, s.csum, s.win,
        s.win_hist, s.trace,
    )  # fmt: skip


def new_state(
    ip: I64, fp: F64, n_classes: int, n_ticks: int, n_windows: int, trace_cap: int
) -> CoreState:
    """Empty state for ``n_classes`` request classes."""
    jobs = 1024
    ic = np.zeros(N_IC, dtype=np.int64)
    ic[IC_JOBS_FREE_N] = jobs
    ji = free_rows(jobs, N_JI, JI_NEXT)
    ji[:, JI_VM] = -1
    empty = np.zeros(0)
    return CoreState(
        ic=ic, sc=np.zeros(N_SC), ip=ip, fp=fp, jf=np.zeros((jobs, 3)), ji=ji,
        arr_t=empty, arr_n=np.zeros((0, 3), dtype=np.int64),
        pool_demand=np.zeros((n_classes, 0)), pool_gap=np.zeros((n_classes, 0)),
        pool_uniform=empty, cls=np.zeros((n_classes, N_CL), dtype=np.int64),
        ts=np.zeros((n_ticks, N_TS), dtype=np.int32),
        ts_utilization=np.zeros(n_ticks, dtype=np.float32),
        box_hist=np.zeros((2, BOX_BINS + 1), dtype=np.int64),
        hists=np.zeros((2 * n_classes, sketch.n_buckets(sketch.FINE_ALPHA)), dtype=np.int64),
        csum=np.zeros((n_classes, 4)),
        win=np.zeros((n_windows, 2), dtype=np.int64),
        win_hist=np.zeros((n_windows, sketch.n_buckets(sketch.COARSE_ALPHA)), dtype=np.int32),
        trace=np.zeros((trace_cap, 7)),
    )  # fmt: skip


def grow(s: CoreState, status: int) -> CoreState:
    """Enlarge the capacity named by ``status`` (a NEED_* code other than the pools)."""
    if status == NEED_JOBS:
        n = len(s.ji)
        ji, jf = grow_free_list(s.ji, s.jf, s.ic, JI_NEXT, IC_JOB_FREE, IC_JOBS_FREE_N)
        ji[n:, JI_VM] = -1
        return s._replace(ji=ji, jf=jf)
    if status == NEED_TRACE:
        return s._replace(trace=double_rows(s.trace))
    raise ValueError(f"cannot grow for status {status}")
