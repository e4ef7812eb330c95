"""The event loop's dispatcher: which active VM of a range of rows (one tier) takes a new
request, by the policy the scenario names.

Policies are plain ints, so that compiled code reads them as constants. Round robin,
least connections, LRU and random scan the rows from ``start`` (an offset within the
range, one past the last pick: ties go round robin); weighted round robin scans them in
order (smooth weighted round robin: every candidate gains its weight, the pick loses the
total). Random picks the k-th candidate, k = uniform x candidates, reading the next
uniform of the pool ``qu`` at ``ic[IC_UNI_PTR]`` (the runner keeps the pool filled).
"""

from __future__ import annotations

from numba import njit

from headroom.engine.sim.rows import (
    IC_UNI_PTR,
    VF_LAST_DISPATCH,
    VF_WEIGHT,
    VF_WRR,
    VI_N,
    VI_SET,
    VI_STATE,
    VM_ACTIVE,
)

ROUND_ROBIN, WEIGHTED_ROUND_ROBIN, LEAST_CONNECTIONS, LRU, RANDOM = range(5)
POLICY_CODES = {
    "round_robin": ROUND_ROBIN,
    "weighted_round_robin": WEIGHTED_ROUND_ROBIN,
    "least_connections": LEAST_CONNECTIONS,
    "lru": LRU,
    "random": RANDOM,
}


@njit(cache=True, inline="always")
def _candidate(vi, v, want):
    return vi[v, VI_STATE] == VM_ACTIVE and (want < 0 or vi[v, VI_SET] == want)


@njit(cache=True, inline="always")
def choose_vm(vf, vi, ic, qu, policy, first, count, start, now, want):
    """The active VM of rows first .. first + count that ``policy`` picks; -1 if none.
    With ``want`` >= 0 only the VMs of that partition set are candidates."""
    best, pick, total = -1, 0, 0.0
    if policy == RANDOM:
        n_active = 0
        for v in range(first, first + count):
            n_active += _candidate(vi, v, want)
        if n_active == 0:
            return -1
        pick = int(qu[ic[IC_UNI_PTR]] * n_active)
        ic[IC_UNI_PTR] += 1
    for k in range(count):
        v = first + ((start + k) % count if policy != WEIGHTED_ROUND_ROBIN else k)
        if not _candidate(vi, v, want):
            continue
        if policy == ROUND_ROBIN:
            best = v
            break
        if policy == WEIGHTED_ROUND_ROBIN:
            vf[v, VF_WRR] += vf[v, VF_WEIGHT]
            total += vf[v, VF_WEIGHT]
            better = best < 0 or vf[v, VF_WRR] > vf[best, VF_WRR]
        elif policy == LEAST_CONNECTIONS:
            better = best < 0 or vi[v, VI_N] < vi[best, VI_N]
        elif policy == LRU:
            better = best < 0 or vf[v, VF_LAST_DISPATCH] < vf[best, VF_LAST_DISPATCH]
        else:  # RANDOM: the pick-th candidate
            better = pick == 0
            pick -= 1
        if better:
            best = v
    if best >= 0:
        vf[best, VF_WRR] -= total
        vf[best, VF_LAST_DISPATCH] = now
    return best
