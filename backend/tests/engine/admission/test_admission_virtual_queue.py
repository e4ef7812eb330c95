"""The wait-time scheduler against hand-worked examples of docs/methods/admission.md, a naive
dictionary-based reference (no circular array, no skip cache), and invariants."""

import math
from collections import defaultdict

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.admission.virtual_queue import (
    slot_loads,
    vq_advance,
    vq_assign,
    vq_assign_all,
    vq_new,
    vq_set_capacity,
)


def _assign(slots, state, n: int, hardness: float = 1.0) -> list[int]:
    return [vq_assign(slots, state, hardness) for _ in range(n)]


def test_under_capacity_nobody_waits() -> None:
    slots, state = vq_new(60, 10)
    assert _assign(slots, state, 10) == [0] * 10


def test_over_capacity_fills_the_earliest_slots() -> None:
    slots, state = vq_new(60, 2)
    assert _assign(slots, state, 5) == [0, 0, 1, 1, 2]
    vq_advance(slots, state, 1.7)  # one second later: the third second holds one request
    assert _assign(slots, state, 2) == [1, 2]
    assert list(slot_loads(slots, state)[:3]) == [2, 2, 1]


def test_capacity_up_fills_new_room_in_early_slots() -> None:
    slots, state = vq_new(60, 2)
    assert _assign(slots, state, 6) == [0, 0, 1, 1, 2, 2]
    vq_set_capacity(slots, state, 4)
    assert _assign(slots, state, 7) == [0, 0, 1, 1, 2, 2, 3]


def test_capacity_down_pushes_new_arrivals_past_the_drain_time() -> None:
    # C = 100 req/s booked for the next T = 10 s; C' = 50 needs T' = 100 x 10 / 50 = 20 s,
    # so new arrivals wait at least T' + 1 = 21 s and nothing is booked in seconds 10..20.
    slots, state = vq_new(3600, 100)
    assert _assign(slots, state, 1000)[-1] == 9
    vq_set_capacity(slots, state, 50)
    assert _assign(slots, state, 51) == [21] * 50 + [22]
    assert slot_loads(slots, state)[10:21].sum() == 0


def test_hardness_consumes_units_of_capacity() -> None:
    slots, state = vq_new(60, 10)
    assert _assign(slots, state, 4, hardness=3) == [0, 0, 0, 1]
    assert _assign(slots, state, 2, hardness=1) == [0, 1]  # 9 + 1 fits in second 0
    assert _assign(slots, state, 1, hardness=25) == [2]  # harder than C: a slot of its own


def test_no_slot_within_the_maximum_wait_refuses() -> None:
    slots, state = vq_new(3, 1)
    assert _assign(slots, state, 4) == [0, 1, 2, -1]


def _reference(events, max_wait_s: int, capacity: float):
    """Absolute seconds in a dict, scanned from scratch for every request."""
    booked: dict[int, float] = defaultdict(float)
    floor, waits, caps = 0, [], []
    for t, kind, value in events:
        now = math.floor(t)
        if kind == "cap":
            if value < capacity:
                load = sum(booked[s] for s in range(now, now + max_wait_s))
                drain = math.ceil(load / value - 1e-9)
                floor = now + drain + 1 if drain > 0 else now
            elif value > capacity:
                floor = now
            capacity = value
            continue
        wait = -1
        for i in range(max(floor - now, 0), max_wait_s):
            if booked[now + i] + value <= capacity or (value > capacity and booked[now + i] == 0):
                booked[now + i] += value
                wait = i
                break
        waits.append(wait)
        caps.append((now + wait, booked[now + wait], capacity, value))
    return waits, caps


event = st.one_of(
    st.tuples(st.just("req"), st.sampled_from([0.5, 1.0, 1.0, 1.0, 2.0, 3.0])),
    st.tuples(st.just("cap"), st.sampled_from([1.0, 2.0, 3.0, 4.5, 8.0])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 0.8), event), min_size=1, max_size=300))
def test_matches_the_reference_and_keeps_the_invariants(steps) -> None:
    max_wait_s, t, events = 40, 0.0, []
    for gap, (kind, value) in steps:
        t += gap
        events.append((t, kind, value))
    slots, state = vq_new(max_wait_s, 3.0)
    waits = []
    for t, kind, value in events:
        vq_advance(slots, state, t)
        if kind == "cap":
            vq_set_capacity(slots, state, value)
        else:
            waits.append(vq_assign(slots, state, value))
    expected, bookings = _reference(events, max_wait_s, 3.0)
    assert waits == expected
    for _, load, cap, hardness in (b for b, w in zip(bookings, waits, strict=True) if w >= 0):
        assert load <= cap or load == hardness  # no slot over capacity at booking time
    assert all(-1 <= w < max_wait_s for w in waits)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 2.0), min_size=1, max_size=400), st.integers(1, 6))
def test_fifo_at_constant_capacity(gaps, capacity) -> None:
    arrival_s = np.cumsum(np.asarray(gaps))
    slots, state = vq_new(3600, capacity)
    waits = vq_assign_all(slots, state, arrival_s, np.ones(arrival_s.size))
    served_at = np.floor(arrival_s) + waits
    assert (waits >= 0).all() and (waits < 3600).all()
    assert (np.diff(served_at) >= 0).all()  # unit requests keep their order
    _, counts = np.unique(served_at, return_counts=True)
    assert counts.max() <= capacity


def test_bursts_of_ten_times_capacity_are_all_served_without_overload() -> None:
    """docs/methods/admission.md's check, scheduler side: 10 s bursts at 10x C = 100 req/s every
    200 s over 0.45 C of background traffic (average 0.93 C, below capacity). Nobody is refused,
    no second sends the server more than C (so the response after the wait stays at the
    unloaded value), and the longest wait is the burst's backlog drained at C."""
    rng = np.random.default_rng(11)
    capacity, horizon_s = 100.0, 2000
    t = np.arange(horizon_s)
    rate = np.where(t % 200 < 10, 10 * capacity, 0.45 * capacity)
    counts = rng.poisson(rate)
    arrival_s = np.repeat(t, counts) + rng.random(counts.sum())
    arrival_s.sort()
    slots, state = vq_new(3600, capacity)
    waits = vq_assign_all(slots, state, arrival_s, np.ones(arrival_s.size))
    assert (waits >= 0).all()  # none dropped
    _, per_second = np.unique(np.floor(arrival_s) + waits, return_counts=True)
    assert per_second.max() <= capacity
    backlog_s = 10 * (10 * capacity - capacity) / capacity  # 90 s of work queued by a burst
    assert waits.max() <= backlog_s * 1.2  # Poisson excess and background arrivals
