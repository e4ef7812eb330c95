"""Binary heaps of the multi-tier loop: the event heap (times, with kind, id, version
rows) and each VM's service heap (virtual-clock tags, with request ids)."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import tiers_state as S


@njit(cache=True)
def heap_push(et, ei, ic, t, kind, ident, ver):
    i = ic[S.IC_HEAP_N]
    ic[S.IC_HEAP_N] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if et[parent] <= t:
            break
        et[i] = et[parent]
        ei[i, 0], ei[i, 1], ei[i, 2] = ei[parent, 0], ei[parent, 1], ei[parent, 2]
        i = parent
    et[i] = t
    ei[i, 0], ei[i, 1], ei[i, 2] = kind, ident, ver


@njit(cache=True)
def heap_pop(et, ei, ic):
    n = ic[S.IC_HEAP_N] - 1
    ic[S.IC_HEAP_N] = n
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


@njit(cache=True)
def service_push(vi, vtag, vjob, v, tag, job):
    i = vi[v, S.VI_NSRV]
    vi[v, S.VI_NSRV] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if vtag[v, parent] <= tag:
            break
        vtag[v, i], vjob[v, i] = vtag[v, parent], vjob[v, parent]
        i = parent
    vtag[v, i], vjob[v, i] = tag, job


@njit(cache=True)
def service_pop(vi, vtag, vjob, v):
    top = vjob[v, 0]
    n = vi[v, S.VI_NSRV] - 1
    vi[v, S.VI_NSRV] = n
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
