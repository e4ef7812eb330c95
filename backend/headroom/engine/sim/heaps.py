"""Binary min-heaps over preallocated arrays, for the event loop (tiers/), which keeps the
heaps' sizes where rows.py puts them.

The event heap: times ``et`` with rows ``ei`` of (kind, id, version), its size in
``ic[IC_HEAP_N]``. A VM's service heap: virtual-clock tags ``vtag[v]`` with request ids
``vjob[v]``, its size in ``vi[v, VI_NSRV]``. A VM's next completion is one event in the
event heap, re-pushed with a new version whenever the VM's state changes (stale versions
are skipped when popped)."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim.rows import (
    EV_COMPLETION,
    IC_HEAP_N,
    VF_RATE,
    VF_VCLOCK,
    VI_NSRV,
    VI_VERSION,
)


@njit(cache=True, inline="always")
def heap_push(et, ei, ic, t, kind, ident, ver):
    i = ic[IC_HEAP_N]
    ic[IC_HEAP_N] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if et[parent] <= t:
            break
        et[i] = et[parent]
        ei[i, 0], ei[i, 1], ei[i, 2] = ei[parent, 0], ei[parent, 1], ei[parent, 2]
        i = parent
    et[i] = t
    ei[i, 0], ei[i, 1], ei[i, 2] = kind, ident, ver


@njit(cache=True, inline="always")
def heap_pop(et, ei, ic):
    """Drop the earliest event (the caller has read it at row 0)."""
    n = ic[IC_HEAP_N] - 1
    ic[IC_HEAP_N] = n
    t, kind, ident, ver = et[n], ei[n, 0], ei[n, 1], ei[n, 2]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and et[child + 1] < et[child]:
            child += 1
        if et[child] >= t:
            break
        et[i] = et[child]
        ei[i, 0], ei[i, 1], ei[i, 2] = ei[child, 0], ei[child, 1], ei[child, 2]
        i = child
    et[i] = t
    ei[i, 0], ei[i, 1], ei[i, 2] = kind, ident, ver


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
    """Invalidate VM v's pending completion and push its next one."""
    vi[v, VI_VERSION] += 1
    if vi[v, VI_NSRV] > 0:
        dt = max(vtag[v, 0] - vf[v, VF_VCLOCK], 0.0) / vf[v, VF_RATE]
        heap_push(et, ei, ic, now + dt, EV_COMPLETION, v, vi[v, VI_VERSION])
