"""Compiled per-VM mechanics: service, each VM's FIFO queue, boots and drains.

Every request in service on a VM progresses at the same rate (processor sharing: the
VM's effective speed times min(1, cores / n); FCFS: the effective speed on its own
core), so a per-VM virtual clock V advances by rate x dt and a request finishes when V
reaches its tag (V at service start + demand). The VM's next completion is one event
in the global heap (heaps.py).

Helpers take the state's arrays explicitly (see state.py for their columns), or the
named bundle W (state.World) where they need many of them.
"""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import partition_sets
from headroom.engine.sim.heaps import heap_push, reschedule, service_push
from headroom.engine.sim.kernel.state import (
    EV_BOOT,
    FP_OVERHEAD,
    FP_SPEED,
    IC_IN_SYSTEM,
    IC_NSRV_PEAK,
    IC_WAITING,
    IP_CORES,
    IP_FCFS,
    IP_Q_UPPER,
    IP_SLOTS,
    IP_WAIT_BOUND,
    JF_DEMAND,
    JF_START,
    JI_KIND,
    JI_NEXT,
    JI_VM,
    SC_VM_SECONDS,
    VF_ALLOC_T,
    VF_BUSY,
    VF_LAST,
    VF_LAST_DISPATCH,
    VF_RATE,
    VF_VCLOCK,
    VF_WRR,
    VI_N,
    VI_NSRV,
    VI_PAGES,
    VI_QHEAD,
    VI_QTAIL,
    VI_STATE,
    VI_VERSION,
    VM_ACTIVE,
    VM_BOOTING,
    VM_DRAINING,
    VM_FREE,
    CoreState,
    world,
)


@njit(cache=True, inline="always")
def advance(vf, vi, ip, v, now):
    """Bring VM v's virtual clock and busy-core integral up to ``now``."""
    dt = now - vf[v, VF_LAST]
    if dt > 0:
        vf[v, VF_VCLOCK] += vf[v, VF_RATE] * dt
        vf[v, VF_BUSY] += min(vi[v, VI_NSRV], ip[IP_CORES]) * dt
        vf[v, VF_LAST] = now


@njit(cache=True, inline="always")
def set_rate(vf, vi, ip, fp, v):
    nsrv = vi[v, VI_NSRV]
    conc = nsrv if ip[IP_FCFS] == 0 else vi[v, VI_N]
    speed = fp[FP_SPEED]
    extra = conc - ip[IP_Q_UPPER]
    if extra > 0:
        speed *= fp[FP_OVERHEAD] ** extra
    if ip[IP_FCFS] == 0 and nsrv > ip[IP_CORES]:
        speed *= ip[IP_CORES] / nsrv
    vf[v, VF_RATE] = max(speed, 1e-300)


@njit(cache=True, inline="always")
def start_service(W, v, job, now):
    vf, vi, vtag, vjob, jf = W.vf, W.vi, W.vtag, W.vjob, W.jf
    jf[job, JF_START] = now
    service_push(vi, vtag, vjob, v, vf[v, VF_VCLOCK] + jf[job, JF_DEMAND], job)


@njit(cache=True, inline="always")
def submit(W, v, job, now, resched):
    """Admit a request to VM v: into service, the FIFO queue, or refused (False)."""
    vf, vi, vtag, vjob, ji, et, ei = W.vf, W.vi, W.vtag, W.vjob, W.ji, W.et, W.ei
    ic, ip, fp = W.ic, W.ip, W.fp
    if v < 0:
        return False
    if vi[v, VI_NSRV] >= ip[IP_SLOTS] and vi[v, VI_N] - vi[v, VI_NSRV] >= ip[IP_WAIT_BOUND]:
        return False
    advance(vf, vi, ip, v, now)
    top, rate = vjob[v, 0] if vi[v, VI_NSRV] > 0 else -1, vf[v, VF_RATE]
    ji[job, JI_VM], ji[job, JI_NEXT] = v, -1
    vi[v, VI_N] += 1
    ic[IC_IN_SYSTEM] += 1
    hold_conn(vi, ji, ic, v, job, 1)
    if vi[v, VI_NSRV] < ip[IP_SLOTS]:
        start_service(W, v, job, now)
        ic[IC_NSRV_PEAK] = max(ic[IC_NSRV_PEAK], vi[v, VI_NSRV])
    else:
        if vi[v, VI_QTAIL] >= 0:
            ji[vi[v, VI_QTAIL], JI_NEXT] = job
        else:
            vi[v, VI_QHEAD] = job
        vi[v, VI_QTAIL] = job
        ic[IC_WAITING] += 1
    set_rate(vf, vi, ip, fp, v)
    # The pending completion stays valid when neither the first finisher nor the rate changed.
    if resched and (top < 0 or vjob[v, 0] != top or vf[v, VF_RATE] != rate):
        reschedule(vf, vi, vtag, et, ei, ic, v, now)
    return True


@njit(cache=True, inline="always")
def hold_conn(vi, ji, ic, v, job, delta):
    """Connection accounting: VM v takes (delta 1) or lets go of (-1) request ``job``,
    counted by the request's kind on the VM and in its set's total."""
    partition_sets.hold(vi, ic, v, ji[job, JI_KIND], delta)


@njit(cache=True, inline="always")
def promote_waiting(W, v, now):
    """Move the head of VM v's FIFO queue into service if a slot is free."""
    vi, ji, ic, ip = W.vi, W.ji, W.ic, W.ip
    head = vi[v, VI_QHEAD]
    if head < 0 or vi[v, VI_NSRV] >= ip[IP_SLOTS]:
        return
    vi[v, VI_QHEAD] = ji[head, JI_NEXT]
    if vi[v, VI_QHEAD] < 0:
        vi[v, VI_QTAIL] = -1
    ic[IC_WAITING] -= 1
    start_service(W, v, head, now)


@njit(cache=True, inline="always")
def maybe_release(vf, vi, sc, v, now):
    """A draining VM that holds nothing is released; its cost stops accruing."""
    if vi[v, VI_STATE] == VM_DRAINING and vi[v, VI_N] == 0 and vi[v, VI_PAGES] == 0:
        vi[v, VI_STATE] = VM_FREE
        vi[v, VI_VERSION] += 1
        sc[SC_VM_SECONDS] += now - vf[v, VF_ALLOC_T]


@njit(cache=True)
def activate(vf, vi, fp, v, now):
    vi[v, VI_STATE] = VM_ACTIVE
    vf[v, VF_LAST], vf[v, VF_BUSY], vf[v, VF_VCLOCK] = now, 0.0, 0.0
    vf[v, VF_RATE], vf[v, VF_WRR] = fp[FP_SPEED], 0.0


@njit(cache=True)
def allocate(W, k, now, boot_s):
    """Request up to k VMs (free slots only); returns how many were allocated."""
    vf, vi, et, ei, ic, fp = W.vf, W.vi, W.et, W.ei, W.ic, W.fp
    done = 0
    for v in range(len(vi)):
        if done == k:
            break
        if vi[v, VI_STATE] != VM_FREE:
            continue
        vf[v, VF_ALLOC_T], vf[v, VF_LAST_DISPATCH] = now, now
        done += 1
        if boot_s <= 0:
            activate(vf, vi, fp, v, now)
        else:
            vi[v, VI_STATE] = VM_BOOTING
            heap_push(et, ei, ic, now + boot_s, EV_BOOT, v, 0)
    return done


@njit(cache=True)
def drain_least_loaded(vf, vi, sc, now):
    """Put the active VM holding the fewest requests into draining; -1 if none."""
    best = -1
    for v in range(len(vi)):
        if vi[v, VI_STATE] == VM_ACTIVE and (best < 0 or vi[v, VI_N] < vi[best, VI_N]):
            best = v
    if best >= 0:
        vi[best, VI_STATE] = VM_DRAINING
        maybe_release(vf, vi, sc, best, now)
    return best


def allocate_vms(s: CoreState, k: int, now: float, boot_s: float) -> int:
    """Python entry: allocate k VMs on a state (boot events go to its heap)."""
    n: int = allocate(world(s), k, now, boot_s)
    return n
