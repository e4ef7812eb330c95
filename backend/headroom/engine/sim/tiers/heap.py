"""The shared heaps (sim/heaps.py) bound to the multi-tier loop's state layout: the event
heap (times, with kind, id, version rows) and each VM's service heap (virtual-clock tags,
with request ids)."""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import heaps
from headroom.engine.sim.tiers import state as S


@njit(cache=True)
def heap_push(et, ei, ic, t, kind, ident, ver):
    heaps.event_push(et, ei, ic, S.IC_HEAP_N, t, kind, ident, ver)


@njit(cache=True)
def heap_pop(et, ei, ic):
    heaps.event_pop(et, ei, ic, S.IC_HEAP_N)


@njit(cache=True)
def service_push(vi, vtag, vjob, v, tag, job):
    heaps.service_push(vi, vtag, vjob, v, S.VI_NSRV, tag, job)


@njit(cache=True)
def service_pop(vi, vtag, vjob, v):
    return heaps.service_pop(vi, vtag, vjob, v, S.VI_NSRV)
