"""Binary min-heaps over preallocated arrays, shared by the single-tier core (kernel/vm.py) and the
multi-tier loop (tiers/heap.py). Each function takes the index of the heap's size counter
(``n_at``), because the two loops lay out their state arrays differently.

The event heap: times ``et`` with rows ``ei`` of (kind, id, version), its size in
``ic[n_at]``. A VM's service heap: virtual-clock tags ``vtag[v]`` with request ids
``vjob[v]``, its size in ``vi[v, n_at]``."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def event_push(et, ei, ic, n_at, t, kind, ident, ver):
    i = ic[n_at]
    ic[n_at] = i + 1
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
def event_pop(et, ei, ic, n_at):
    """Drop the earliest event (the caller has read it at row 0)."""
    n = ic[n_at] - 1
    ic[n_at] = n
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
def service_push(vi, vtag, vjob, v, n_at, tag, job):
    i = vi[v, n_at]
    vi[v, n_at] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if vtag[v, parent] <= tag:
            break
        vtag[v, i], vjob[v, i] = vtag[v, parent], vjob[v, parent]
        i = parent
    vtag[v, i], vjob[v, i] = tag, job


@njit(cache=True, inline="always")
def service_pop(vi, vtag, vjob, v, n_at):
    """Remove and return the request with the smallest tag on VM v."""
    top = vjob[v, 0]
    n = vi[v, n_at] - 1
    vi[v, n_at] = n
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
