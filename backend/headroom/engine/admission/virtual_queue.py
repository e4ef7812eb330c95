"""The virtual waiting queue (docs/methods/admission.md): a wait-time scheduler that tells each
request when to come back instead of dropping it.

State layout (preallocated, no Python objects, so the simulator core can call the kernels
per arrival):
- `slots`: float64[max_wait_s], circular; slots[(state[HEAD] + i) % max_wait_s] = units
  of capacity already scheduled to reach the server i seconds after second state[NOW_S].
- `state`: float64[STATE_SIZE], indexed by the constants below.
A request of hardness h (h units of capacity; 1 for the reference request) takes the
smallest i >= the floor with slot[i] + h <= C; a request harder than C takes an empty slot
of its own. No slot within the maximum wait: the request is refused (wait -1).
An optional near window (vq_set_near) gives the seconds before NEAR_END_S a capacity of
their own: capacity discovery probes a rate there without promising it to later seconds.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

HEAD = 0  # index in `slots` of offset 0
NOW_S = 1  # the whole second that offset 0 stands for
CAPACITY = 2  # C, units per second
FLOOR_S = 3  # absolute second before which nothing new is scheduled (after a decrease)
OPEN_S = 4  # absolute second: slots from FLOOR_S to it are full (a skip cache)
MIN_HARDNESS = 5  # the lightest request seen: "full" means no room for it
NEAR_END_S = 6  # absolute second: slots before it hold NEAR_CAPACITY instead of CAPACITY
NEAR_CAPACITY = 7  # the near window's capacity (a probe that later seconds are not promised)
LAST_POSITION = 8  # where the last booking starts in its slot, as a fraction of the slot
STATE_SIZE = 9

FloatArray = NDArray[np.float64]


def vq_new(max_wait_s: int, capacity_per_s: float, now_s: int = 0) -> tuple[FloatArray, FloatArray]:
    """Fresh (slots, state) for a queue with the given maximum wait and capacity."""
    if max_wait_s < 1:
        raise ValueError(f"max_wait_s must be >= 1, got {max_wait_s}")
    if not capacity_per_s > 0:
        raise ValueError(f"capacity_per_s must be > 0, got {capacity_per_s}")
    state = np.zeros(STATE_SIZE)
    state[NOW_S] = state[FLOOR_S] = state[OPEN_S] = now_s
    state[CAPACITY] = state[NEAR_CAPACITY] = capacity_per_s
    state[NEAR_END_S] = now_s  # no near window
    state[MIN_HARDNESS] = np.inf
    return np.zeros(max_wait_s), state


@njit(cache=True)
def vq_advance(slots: FloatArray, state: FloatArray, now_s: float) -> None:
    """Shift the array to the whole second of now_s, emptying the seconds that passed."""
    second = math.floor(now_s)
    steps = int(second - state[NOW_S])
    if steps <= 0:
        return
    size = slots.size
    head = int(state[HEAD])
    for k in range(min(steps, size)):
        slots[(head + k) % size] = 0.0
    state[HEAD] = (head + steps) % size
    state[NOW_S] = second
    state[OPEN_S] = max(state[OPEN_S], second)


@njit(cache=True)
def vq_assign(slots: FloatArray, state: FloatArray, hardness: float) -> int:
    """Wait (whole seconds) for a request arriving in the current second, or -1 if none
    fits within the maximum wait. Books the request's hardness in its slot."""
    if hardness < state[MIN_HARDNESS]:  # the skip cache assumed harder requests: reset it
        state[MIN_HARDNESS] = hardness
        state[OPEN_S] = state[NOW_S]
    size, head, far = slots.size, int(state[HEAD]), state[CAPACITY]
    now, h_min = state[NOW_S], state[MIN_HARDNESS]
    near_n, near = state[NEAR_END_S] - now, state[NEAR_CAPACITY]
    start = int(max(state[FLOOR_S], state[OPEN_S]) - now)
    open_i = start  # slots before it are full for the lightest request seen
    for i in range(start, size):
        k = (head + i) % size
        cap = near if i < near_n else far
        fits = slots[k] + hardness <= cap or (hardness > cap and slots[k] == 0.0)
        if fits:
            state[LAST_POSITION] = min(slots[k] / cap, 1.0)
            slots[k] += hardness
        if i == open_i and slots[k] + h_min > cap:
            open_i = i + 1
        if fits:
            state[OPEN_S] = max(state[OPEN_S], now + open_i)
            return i
    state[OPEN_S] = max(state[OPEN_S], now + open_i)
    return -1


@njit(cache=True)
def vq_set_capacity(
    slots: FloatArray, state: FloatArray, capacity_per_s: float, first_drain: bool = False
) -> None:
    """Up: later arrivals fill the new room in early slots. Down to C' with C units/s
    scheduled for the next T s: they need T' = C x T / C' s at the new rate, so new
    arrivals wait at least T' + 1 and nothing new is scheduled before that.
    T' is ceil(S / C') for the S units booked in all; with ``first_drain`` it is where
    the backlog of the bookings served at C' first clears (the same C x T / C' for that
    uniform profile), so a later second booked below C' (a hole left while the capacity
    was lower, as capacity discovery leaves) can still be filled."""
    old = state[CAPACITY]
    state[CAPACITY] = capacity_per_s
    now = state[NOW_S]
    state[OPEN_S] = now
    if capacity_per_s > old:
        state[FLOOR_S] = now
    elif capacity_per_s < old:
        if first_drain:
            drain_s = _first_drain_s(slots, int(state[HEAD]), capacity_per_s)
        else:
            drain_s = math.ceil(slots.sum() / capacity_per_s - 1e-9)
        state[FLOOR_S] = now + drain_s + 1 if drain_s > 0 else now


@njit(cache=True)
def _first_drain_s(slots: FloatArray, head: int, capacity_per_s: float) -> int:
    """Seconds until the bookings from now on, served at capacity_per_s, first leave no
    backlog (0 when the first second already fits)."""
    backlog, size = 0.0, slots.size
    for i in range(size):
        backlog = max(backlog + slots[(head + i) % size] - capacity_per_s, 0.0)
        if backlog <= 1e-9:
            return 0 if i == 0 else i + 1
    return size + math.ceil(backlog / capacity_per_s - 1e-9)


@njit(cache=True)
def vq_set_near(slots: FloatArray, state: FloatArray, end_s: float, capacity_per_s: float) -> None:
    """Seconds before end_s hold capacity_per_s (the rest keep CAPACITY); end_s <= now
    closes the window. Booked slots are kept."""
    state[NEAR_END_S] = end_s
    state[NEAR_CAPACITY] = capacity_per_s
    state[OPEN_S] = state[NOW_S]  # slots full at the old capacity may have room now


@njit(cache=True)
def vq_assign_all(
    slots: FloatArray, state: FloatArray, arrival_s: FloatArray, hardness: FloatArray
) -> NDArray[np.int64]:
    """Waits for arrivals sorted by time (a batch driver for tests and calculators)."""
    waits = np.empty(arrival_s.size, dtype=np.int64)
    for j in range(arrival_s.size):
        vq_advance(slots, state, arrival_s[j])
        waits[j] = vq_assign(slots, state, hardness[j])
    return waits


@njit(cache=True)
def vq_assign_all_paced(
    slots: FloatArray, state: FloatArray, arrival_s: FloatArray, hardness: FloatArray
) -> tuple[NDArray[np.int64], FloatArray]:
    """Waits as vq_assign_all, and release times for a gate that paces each second's
    bookings evenly: a booking starting at units L of a slot of capacity C is released
    L / C into its second (never before its own arrival; -1 when refused)."""
    waits = np.empty(arrival_s.size, dtype=np.int64)
    release = np.empty(arrival_s.size)
    for j in range(arrival_s.size):
        vq_advance(slots, state, arrival_s[j])
        w = vq_assign(slots, state, hardness[j])
        waits[j] = w
        paced = state[NOW_S] + w + state[LAST_POSITION]
        release[j] = max(arrival_s[j], paced) if w >= 0 else -1.0
    return waits, release


def slot_loads(slots: FloatArray, state: FloatArray) -> FloatArray:
    """Scheduled units by offset from now (offset 0 first): the unrolled circular array."""
    return np.roll(slots, -int(state[HEAD]))
