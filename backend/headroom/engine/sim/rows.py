"""The state layout of the event loop (tiers/) and the FCFS fast path (kernel/): entities
as rows of typed arrays, free lists linked through a column, capacities that double on
demand, and the codes for VM states, heap events and the loops' return status.

A loop returns a ``NEED_*`` status before an event that could overrun a capacity; the
runner enlarges what it names with the helpers below (or refills a pool of draws) and
calls the loop again, so results do not depend on initial capacities.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
State = TypeVar("State")

VM_FREE, VM_BOOTING, VM_ACTIVE, VM_DRAINING = 0, 1, 2, 3
# Event kinds (the heap's EI_KIND column).
EV_COMPLETION, EV_CLIENT_REQUEST, EV_BOOT, EV_PERIOD = 0, 1, 2, 3
EI_KIND, EI_ID = range(2)  # event heap columns

# What the loop and the fast path count, at the same place; each state module appends
# its own columns after these.
# --- int counters (ic) ---
(
    IC_ARRIVED,
    IC_COMPLETED,
    IC_REJECTED,
    IC_IN_SYSTEM,
    IC_WAITING,
    IC_HEAP_N,
    IC_JOB_FREE,
    IC_JOBS_FREE_N,
    IC_ARR_PTR,
    IC_TICK,
    IC_TICK_ARR,
    IC_TICK_DONE,
    IC_TICK_REJ,
    IC_EVENTS,
    IC_NSRV_PEAK,
    IC_UNI_PTR,  # uniforms read from the pool (random dispatch)
    IC_K,  # the High Set's size (partitions)
    IC_K_N,  # rows written to the K series
) = range(18)
# Live requests by (set, kind): IC_LOAD + 2 x set + kind, set 0 = Low (every VM without
# partitions), 1 = High; kind 0 = static, 1 = dynamic. The VMs' VI_CONN columns, summed.
IC_LOAD = 18
IC_HS_PEAK = 22  # DynamicPart: the High Set's peak load since the last control period
N_IC_SHARED = 23
# --- per class sums (csum): latency and page load time sums and maxima ---
CS_LAT_SUM, CS_LAT_MAX, CS_PLT_SUM, CS_PLT_MAX = range(4)
N_CS_SHARED = 4
# --- VM columns: int (vi), float (vf) ---
# VI_EVENT: the VM's pending completion's row in the event heap (-1: none, heaps.py);
# VI_SET: the VM's partition set (0 = Low: every VM without partitions, 1 = High);
# VI_CONN: live requests the VM holds, by kind (VI_CONN + 0 static, + 1 dynamic).
VI_STATE, VI_N, VI_NSRV, VI_EVENT, VI_QHEAD, VI_QTAIL, VI_SET, VI_CONN = range(8)
N_VI_SHARED = 9
# The dispatcher's (dispatch.py): last dispatch time (lru), running and own weight
# (weighted round robin).
VF_VCLOCK, VF_LAST, VF_RATE, VF_BUSY, VF_ALLOC_T = range(5)
VF_LAST_DISPATCH, VF_WRR, VF_WEIGHT = range(5, 8)
N_VF_SHARED = 8
# --- per monitoring tick (ts, int32) ---
TS_ARRIVALS, TS_COMPLETIONS, TS_REJECTED, TS_WAITING, TS_IN_SYSTEM = range(5)
N_TS_SHARED = 5

# A loop's return status: DONE, or the pool or capacity it ran short of.
DONE, NEED_DEMAND, NEED_GAP, NEED_UNIFORM, NEED_JOBS, NEED_PAGES, NEED_HEAP = range(7)
NEED_VM_HEAP, NEED_TRACE = 7, 8
# The class-aware admission stages (partition_sets.py); DynamicPart's controller runs on
# EV_PERIOD events.
ADM_NONE, ADM_SWITCH, ADM_STATIC_PART, ADM_DYNAMIC_PART = 0, 1, 2, 3
ADMISSION_CODES = {
    "none": ADM_NONE,
    "switch_adm": ADM_SWITCH,
    "static_part": ADM_STATIC_PART,
    "dynamic_part": ADM_DYNAMIC_PART,
}
UNBOUNDED = 1 << 62  # a pool limit or accept queue without a bound
BOX_BINS = 200  # utilisation histogram bins per allocated-VM count (width 0.005)


def free_rows(n: int, ncols: int, next_col: int, first: int = 0) -> I64:
    """``n`` zero rows linked into a free list through column ``next_col`` (ids from
    ``first``; the last row ends the list)."""
    rows = np.zeros((n, ncols), dtype=np.int64)
    rows[:, next_col] = np.arange(first + 1, first + n + 1)
    rows[-1, next_col] = -1
    return rows


def double_rows(a: NDArray[Any]) -> NDArray[Any]:
    return np.concatenate([a, np.zeros_like(a)])


def grow_free_list(
    ints: I64, floats: F64, ic: I64, next_col: int, head_at: int, count_at: int
) -> tuple[I64, F64]:
    """Double an entity kept in a free list (int rows ``ints`` linked through ``next_col``,
    float rows ``floats``); the new rows go to the front of the list, whose head and
    length are ``ic[head_at]`` and ``ic[count_at]``."""
    n = len(ints)
    new = free_rows(n, ints.shape[1], next_col, first=n)
    new[-1, next_col] = ic[head_at]
    ic[head_at], ic[count_at] = n, ic[count_at] + n
    return np.concatenate([ints, new]), double_rows(floats)


def grow_event_heap(et: F64, ei: I64) -> tuple[F64, I64]:
    """Double the event heap (times, and rows of kind, id)."""
    return double_rows(et), double_rows(ei)


def widen_service_heaps(vtag: F64, vjob: I64, need: int = 0) -> tuple[F64, I64]:
    """Widen every VM's service heap (tags, request ids) to twice its width, or ``need``."""
    pad = ((0, 0), (0, max(2 * vtag.shape[1], need) - vtag.shape[1]))
    return np.pad(vtag, pad), np.pad(vjob, pad)


def count_states(vi: I64) -> tuple[int, int, int]:
    """(booting, active, draining) among the VM rows ``vi``."""
    counts = np.bincount(vi[:, VI_STATE], minlength=VM_DRAINING + 1)
    return int(counts[VM_BOOTING]), int(counts[VM_ACTIVE]), int(counts[VM_DRAINING])


def run_to(
    state: State,
    t_end: float,
    run: Callable[[State, float], int],
    enlarge: Callable[[State, int], State],
) -> State:
    """Run a loop up to ``t_end``: after each ``NEED_*`` status, ``enlarge`` grows or refills
    what it names and the loop resumes where it stopped."""
    while (status := run(state, t_end)) != DONE:
        state = enlarge(state, status)
    return state


def segment_bounds(boundaries: Iterable[float], duration_s: float) -> list[tuple[float, float]]:
    """The runners' segments: [0, duration_s] cut at every boundary strictly inside it
    (decision periods, admission epochs, ...); a loop runs one segment at a time."""
    cuts = sorted({0.0, duration_s, *(b for b in boundaries if 0.0 < b < duration_s)})
    return list(pairwise(cuts))
