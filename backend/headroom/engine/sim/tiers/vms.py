"""A VM of the multi-tier loop (loop.py): its accept queue, pool slots and cores.

A request reaches a tier, is dispatched to an active VM of that tier by the tier's
dispatch policy (sim/dispatch.py; least connections unless told otherwise) and waits in
the VM's accept queue until a pool slot is free (over the accept bound it is refused).
Holding the slot it is served (processor sharing over the cores, or FCFS on the cores).

A VM's concurrency is the number of slots in use (in service, waiting for a core, or
waiting downstream); the overhead model multiplies its speed by ``factor`` for every
slot in use past ``q_upper``. Every event updates per-VM interval statistics for SCT
(slot releases, slot-time integral, slot-holding time of the releases) in a ring of the
last window, so the SCT model costs no per-request storage.

Also the VM's life (allocated, booting, active, draining, released) and the pool
limit the SCT policy sets (sct.py).
"""

from __future__ import annotations

from numba import njit

from headroom.engine.sim import dispatch
from headroom.engine.sim.heaps import heap_push, reschedule, service_push
from headroom.engine.sim.tiers import state as S


@njit(cache=True)
def sct_advance(vi, vf, ring, fp, v, now):
    """Integrate VM v's slots in use into its SCT intervals up to ``now``."""
    width, n_ring = fp[S.FP_SCT_S], ring.shape[1]
    k, last, held = vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST], vi[v, S.VI_HELD]
    k_now = int(now / width)
    while k < k_now:
        end = (k + 1) * width
        ring[v, k % n_ring, S.R_AREA] += held * (end - last)
        last, k = end, k + 1
        slot = k % n_ring
        ring[v, slot, 0], ring[v, slot, 1], ring[v, slot, 2] = 0.0, 0.0, 0.0
    ring[v, k % n_ring, S.R_AREA] += held * (now - last)
    vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST] = k, now


@njit(cache=True, inline="always")
def advance(W, v, now):
    ip, fp, tp, vi, vf = W.ip, W.fp, W.tp, W.vi, W.vf
    ring = W.ring
    dt = now - vf[v, S.VF_LAST]
    if dt > 0:
        vf[v, S.VF_VCLOCK] += vf[v, S.VF_RATE] * dt
        vf[v, S.VF_BUSY] += min(vi[v, S.VI_NSRV], tp[vi[v, S.VI_TIER], S.TP_CORES]) * dt
        vf[v, S.VF_HELD_AREA] += vi[v, S.VI_HELD] * dt
        vf[v, S.VF_LAST] = now
    if ip[S.IP_SCT]:
        sct_advance(vi, vf, ring, fp, v, now)


@njit(cache=True, inline="always")
def _rate(tp, tf, vi, v):
    """VM v's speed from its slots in use (overhead) and requests in service (PS)."""
    t, nsrv = vi[v, S.VI_TIER], vi[v, S.VI_NSRV]
    speed, cores = tf[t, S.TF_SPEED], tp[t, S.TP_CORES]
    extra = vi[v, S.VI_HELD] - tp[t, S.TP_Q_UPPER]
    if extra > 0:
        speed *= tf[t, S.TF_FACTOR] ** extra
    if tp[t, S.TP_FCFS] == 0 and nsrv > cores:
        speed *= cores / nsrv
    return max(speed, 1e-300)


@njit(cache=True, inline="always")
def touch(W, v, now):
    """Recompute VM v's speed and move its next completion."""
    ic, tp, tf, vi, vf, vtag, et, ei = W.ic, W.tp, W.tf, W.vi, W.vf, W.vtag, W.et, W.ei
    vf[v, S.VF_RATE] = _rate(tp, tf, vi, v)
    reschedule(vf, vi, vtag, et, ei, ic, v, now)


@njit(cache=True, inline="always")
def start_cpu(W, v, j, now):
    ic, ip, vi, vf, vtag, vjob, jf = W.ic, W.ip, W.vi, W.vf, W.vtag, W.vjob, W.jf
    n_tiers, t = ip[S.IP_TIERS], vi[v, S.VI_TIER]
    service_push(vi, vtag, vjob, v, vf[v, S.VF_VCLOCK] + jf[j, 1 + 2 * n_tiers + t], j)
    if t == 0:
        jf[j, S.jf_start(n_tiers)] = now
    ic[S.IC_NSRV_PEAK] = max(ic[S.IC_NSRV_PEAK], vi[v, S.VI_NSRV])


@njit(cache=True, inline="always")
def _acquire(W, v, j, now):
    """Request j takes a pool slot on VM v and asks for a core."""
    ip, tp, vi, jf, ji = W.ip, W.tp, W.vi, W.jf, W.ji
    t = vi[v, S.VI_TIER]
    vi[v, S.VI_HELD] += 1
    vi[v, S.VI_PEAK_HELD] = max(vi[v, S.VI_PEAK_HELD], vi[v, S.VI_HELD])
    tp[t, S.TP_HELD] += 1
    tp[t, S.TP_PEAK_HELD] = max(tp[t, S.TP_PEAK_HELD], tp[t, S.TP_HELD])
    jf[j, 1 + ip[S.IP_TIERS] + t] = now
    if tp[t, S.TP_FCFS] and vi[v, S.VI_NSRV] >= tp[t, S.TP_CORES]:
        W.ic[S.IC_WAITING] += 1
        push_queue(vi, ji, v, j, S.VI_RHEAD, S.VI_RTAIL)
    else:
        start_cpu(W, v, j, now)


@njit(cache=True, inline="always")
def push_queue(vi, ji, v, j, head_col, tail_col):
    """Request j joins the tail of one of VM v's queues (a list linked through JI_NEXT)."""
    ji[j, S.JI_NEXT] = -1
    if vi[v, tail_col] >= 0:
        ji[vi[v, tail_col], S.JI_NEXT] = j
    else:
        vi[v, head_col] = j
    vi[v, tail_col] = j


@njit(cache=True, inline="always")
def pop_queue(vi, ji, v, head_col, tail_col):
    head = vi[v, head_col]
    vi[v, head_col] = ji[head, S.JI_NEXT]
    if vi[v, head_col] < 0:
        vi[v, tail_col] = -1
    return head


@njit(cache=True)
def promote(W, v, now):
    """Move requests from VM v's accept queue into free pool slots."""
    ic, vi, ji = W.ic, W.vi, W.ji
    while vi[v, S.VI_NQ] > 0 and vi[v, S.VI_HELD] < vi[v, S.VI_SLOTS]:
        h = pop_queue(vi, ji, v, S.VI_QHEAD, S.VI_QTAIL)
        vi[v, S.VI_NQ] -= 1
        ic[S.IC_WAITING] -= 1
        _acquire(W, v, h, now)


@njit(cache=True, inline="always")
def _choose(W, t, now, want):
    """The active VM of tier t that the tier's dispatch policy picks (with ``want`` >= 0,
    within that partition set); -1: none."""
    tp = W.tp
    first, count = tp[t, S.TP_FIRST], tp[t, S.TP_COUNT]
    policy, start = tp[t, S.TP_DISPATCH], tp[t, S.TP_RR]
    best = dispatch.choose_vm(W.vf, W.vi, W.ic, W.qu, policy, first, count, start, now, want)
    if best >= 0:
        tp[t, S.TP_RR] = (best - first + 1) % count
    return best


@njit(cache=True, inline="always")
def enter(W, j, t, now, want):
    """Request j reaches tier t (``want``: the partition set it may go to, -1: any): a
    slot, the accept queue, or refused (False)."""
    v = _choose(W, t, now, want)
    if v < 0:
        return False
    return enter_vm(W, j, t, v, now)


@njit(cache=True, inline="always")
def enter_vm(W, j, t, v, now):
    """Request j reaches VM v of tier t: a slot, the accept queue, or refused (False)."""
    ic, tp, vi, jf, ji = W.ic, W.tp, W.vi, W.jf, W.ji
    full = vi[v, S.VI_HELD] >= vi[v, S.VI_SLOTS]
    if full and vi[v, S.VI_NQ] >= tp[t, S.TP_WAIT_BOUND]:
        return False
    advance(W, v, now)
    ji[j, S.JI_VM + t], ji[j, S.JI_TIER] = v, t
    jf[j, 1 + t] = now
    vi[v, S.VI_N] += 1
    if full:
        push_queue(vi, ji, v, j, S.VI_QHEAD, S.VI_QTAIL)
        vi[v, S.VI_NQ] += 1
        ic[S.IC_WAITING] += 1
    else:
        tf, vf, vtag, vjob, et, ei = W.tf, W.vf, W.vtag, W.vjob, W.et, W.ei
        top = vjob[v, 0] if vi[v, S.VI_NSRV] > 0 else -1
        old_rate = vf[v, S.VF_RATE]
        _acquire(W, v, j, now)
        rate = _rate(tp, tf, vi, v)
        vf[v, S.VF_RATE] = rate
        # The pending completion stays valid when neither the first finisher nor the rate
        # changed (recomputing it later would move it in its last bits).
        if top < 0 or vjob[v, 0] != top or rate != old_rate:
            reschedule(vf, vi, vtag, et, ei, ic, v, now)
    return True


@njit(cache=True, inline="always")
def maybe_release_vm(tf, vi, vf, v, now):
    """A draining VM that holds no request and no page is released; its cost stops."""
    if vi[v, S.VI_STATE] == S.VM_DRAINING and vi[v, S.VI_N] == 0 and vi[v, S.VI_PAGES] == 0:
        vi[v, S.VI_STATE] = S.VM_FREE
        tf[vi[v, S.VI_TIER], S.TF_VM_SECONDS] += now - vf[v, S.VF_ALLOC_T]


@njit(cache=True, inline="always")
def release(W, v, j, t, now, served):
    """Request j gives back its slot on VM v (tier t); ``served``: it completed. The
    caller then checks whether a draining VM can go (maybe_release_vm)."""
    ip, tp, tf, vi, jf = W.ip, W.tp, W.tf, W.vi, W.jf
    ring = W.ring
    advance(W, v, now)
    vi[v, S.VI_HELD] -= 1
    vi[v, S.VI_N] -= 1
    tp[t, S.TP_HELD] -= 1
    if served:
        tf[t, S.TF_RES_SUM] += now - jf[j, 1 + t]
        if ip[S.IP_SCT]:
            slot = vi[v, S.VI_SCT_K] % ring.shape[1]
            ring[v, slot, S.R_COMPLETIONS] += 1.0
            ring[v, slot, S.R_LATENCY] += now - jf[j, 1 + ip[S.IP_TIERS] + t]
    if vi[v, S.VI_NQ] > 0:  # spares the call, and passing it every array, when none waits
        promote(W, v, now)
    touch(W, v, now)


@njit(cache=True)
def activate(W, v, now):
    fp, tf, vi, vf = W.fp, W.tf, W.vi, W.vf
    ring = W.ring
    vi[v, S.VI_STATE] = S.VM_ACTIVE
    vf[v, S.VF_LAST], vf[v, S.VF_VCLOCK], vf[v, S.VF_BUSY], vf[v, S.VF_HELD_AREA] = now, 0, 0, 0
    vf[v, S.VF_WRR] = 0.0
    vf[v, S.VF_RATE] = tf[vi[v, S.VI_TIER], S.TF_SPEED]
    vi[v, S.VI_SCT_K], vf[v, S.VF_SCT_LAST] = int(now / fp[S.FP_SCT_S]), now
    ring[v, :, :] = 0.0


@njit(cache=True)
def allocate(W, t, k, now, boot_s):
    """Request up to k VMs of tier t (free rows only); returns how many."""
    ic, tp, vi, vf, et, ei = W.ic, W.tp, W.vi, W.vf, W.et, W.ei
    done = 0
    first = tp[t, S.TP_FIRST]
    for v in range(first, first + tp[t, S.TP_COUNT]):
        if done == k:
            break
        if vi[v, S.VI_STATE] != S.VM_FREE:
            continue
        vf[v, S.VF_ALLOC_T], vf[v, S.VF_LAST_DISPATCH] = now, now
        vi[v, S.VI_SLOTS] = tp[t, S.TP_POOL]
        done += 1
        if boot_s <= 0:
            activate(W, v, now)
        else:
            vi[v, S.VI_STATE] = S.VM_BOOTING
            heap_push(et, ei, ic, vi, now + boot_s, S.EV_BOOT, v)
    return done


@njit(cache=True)
def drain_least_loaded(W, t, now):
    """Put tier t's active VM holding the fewest requests into draining; -1 if none."""
    tp, tf, vi, vf = W.tp, W.tf, W.vi, W.vf
    best = -1
    first = tp[t, S.TP_FIRST]
    for v in range(first, first + tp[t, S.TP_COUNT]):
        if vi[v, S.VI_STATE] == S.VM_ACTIVE and (best < 0 or vi[v, S.VI_N] < vi[best, S.VI_N]):
            best = v
    if best >= 0:
        advance(W, best, now)
        vi[best, S.VI_STATE] = S.VM_DRAINING
        maybe_release_vm(tf, vi, vf, best, now)
    return best


@njit(cache=True)
def set_pool(W, v, slots, now):
    """Change VM v's pool limit; a larger pool takes waiting requests at once. Requests
    already holding slots keep them (a smaller pool fills up again as they leave)."""
    advance(W, v, now)
    W.vi[v, S.VI_SLOTS] = slots
    promote(W, v, now)
    touch(W, v, now)


@njit(cache=True)
def flush(W, now):
    """Bring every allocated VM's integrals (and SCT intervals) up to ``now``."""
    vi = W.vi
    for v in range(len(vi)):
        if vi[v, S.VI_STATE] != S.VM_FREE:
            advance(W, v, now)
