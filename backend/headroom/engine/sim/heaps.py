"""Binary min-heaps over preallocated arrays, for the event loop (tiers/), which keeps the
heaps' sizes where rows.py puts them.

The event heap: times ``et`` with rows ``ei`` of (kind, id), its size in
``ic[IC_HEAP_N]``. A VM's service heap: virtual-clock tags ``vtag[v]`` with request ids
``vjob[v]``, its size in ``vi[v, VI_NSRV]``. A VM's next completion is at most one event
in the event heap, at row ``vi[v, VI_EVENT]`` (-1: none), moved in place whenever the
VM's state changes; so under processor sharing, where every arrival moves it, the heap
holds no outdated completions."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim.rows import (
    EI_ID,
    EI_KIND,
    EV_COMPLETION,
    IC_HEAP_N,
    VF_RATE,
    VF_VCLOCK,
    VI_EVENT,
    VI_NSRV,
)


@njit(cache=True, inline="always")
def _place(et, ei, vi, i, t, kind, ident):
    """Write an event at row i (a completion's VM notes the row)."""
    et[i] = t
    ei[i, EI_KIND], ei[i, EI_ID] = kind, ident
    if kind == EV_COMPLETION:
        vi[ident, VI_EVENT] = i


@njit(cache=True, inline="always")
def _sift_up(et, ei, vi, i, t):
    """Move the parents of the free row i that are later than t down; the row t goes to."""
    while i > 0:
        parent = (i - 1) >> 1
        if et[parent] <= t:
            break
        _place(et, ei, vi, i, et[parent], ei[parent, EI_KIND], ei[parent, EI_ID])
        i = parent
    return i


@njit(cache=True, inline="always")
def _sift_down(et, ei, vi, n, i, t):
    """Move the earlier children of the free row i up (a heap of n rows); the row t
    goes to."""
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and et[child + 1] < et[child]:
            child += 1
        if et[child] >= t:
            break
        _place(et, ei, vi, i, et[child], ei[child, EI_KIND], ei[child, EI_ID])
        i = child
    return i


@njit(cache=True, inline="always")
def _settle(et, ei, vi, n, i, t, kind, ident):
    """Put an event at the free row i of a heap of n rows and restore the heap order."""
    row = _sift_up(et, ei, vi, i, t)
    if row == i:
        row = _sift_down(et, ei, vi, n, i, t)
    _place(et, ei, vi, row, t, kind, ident)


@njit(cache=True, inline="always")
def heap_push(et, ei, ic, vi, t, kind, ident):
    i = ic[IC_HEAP_N]
    ic[IC_HEAP_N] = i + 1
    _place(et, ei, vi, _sift_up(et, ei, vi, i, t), t, kind, ident)


@njit(cache=True, inline="always")
def _remove(et, ei, ic, vi, i):
    """Drop the event at row i: the last row takes its place."""
    n = ic[IC_HEAP_N] - 1
    ic[IC_HEAP_N] = n
    if i < n:
        _settle(et, ei, vi, n, i, et[n], ei[n, EI_KIND], ei[n, EI_ID])


@njit(cache=True, inline="always")
def heap_pop(et, ei, ic, vi):
    """Drop the earliest event (the caller has read it at row 0)."""
    if ei[0, EI_KIND] == EV_COMPLETION:
        vi[ei[0, EI_ID], VI_EVENT] = -1
    _remove(et, ei, ic, vi, 0)


@njit(cache=True, inline="always")
def service_push(vi, vtag, vjob, v, tag, job):
    i = vi[v, VI_NSRV]
    vi[v, VI_NSRV] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if vtag[v, parent] <= tag:
            break
        vtag[v, i], vjob[v, i] = vtag[v, parent], vjob[v, parent]
        i = parent
    vtag[v, i], vjob[v, i] = tag, job


@njit(cache=True, inline="always")
def service_pop(vi, vtag, vjob, v):
    """Remove and return the request with the smallest tag on VM v."""
    top = vjob[v, 0]
    n = vi[v, VI_NSRV] - 1
    vi[v, VI_NSRV] = n
    tag, job = vtag[v, n], vjob[v, n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and vtag[v, child + 1] < vtag[v, child]:
            child += 1
        if vtag[v, child] >= tag:
            break
        vtag[v, i], vjob[v, i] = vtag[v, child], vjob[v, child]
        i = child
    vtag[v, i], vjob[v, i] = tag, job
    return top


@njit(cache=True, inline="always")
def reschedule(vf, vi, vtag, et, ei, ic, v, now):
    """Move VM v's pending completion to its next finisher's time (none: drop it)."""
    i = vi[v, VI_EVENT]
    if vi[v, VI_NSRV] == 0:
        if i >= 0:
            vi[v, VI_EVENT] = -1
            _remove(et, ei, ic, vi, i)
        return
    dt = max(vtag[v, 0] - vf[v, VF_VCLOCK], 0.0) / vf[v, VF_RATE]
    if i < 0:
        heap_push(et, ei, ic, vi, now + dt, EV_COMPLETION, v)
    else:
        _settle(et, ei, vi, ic[IC_HEAP_N], i, now + dt, EV_COMPLETION, v)
