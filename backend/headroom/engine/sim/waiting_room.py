"""The virtual waiting queue as an admission stage of either runner (docs/methods/admission.md).

Every request that reaches the front end (a page's base request, or a single request)
checks in at its arrival time t and gets a wait w (whole seconds) from the wait-time
scheduler (engine/admission/virtual_queue.py), consuming its class's hardness units of
the capacity; it reaches the server at t + w. A request whose wait would exceed
``max_wait_s`` is dropped (counted as rejected). The core only ever sees the release
times as arrivals, so its latencies, Little's law and SLA windows are the server's; the
waits are this stage's own statistics.

With ``capacity: discover`` the scheduler's capacity is the rate the online discovery
(engine/admission/discovery.py) asks for: after every epoch the stage reads the core's
counters (completions and their latency sum) and feeds discovery_step with the epoch's
offered load, goodput and mean response time. The runner ends segments at epoch
boundaries so that the counters are read between segments.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Protocol

import numpy as np

from headroom.engine.admission import discovery as dsc
from headroom.engine.admission.virtual_queue import (
    vq_advance,
    vq_assign_all,
    vq_new,
    vq_set_capacity,
    vq_set_near,
)
from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.rows import CS_LAT_SUM, CS_PLT_SUM, F64, I64
from headroom.engine.sim.scenario import Scenario, VirtualQueueAdmission


class LoopState(Protocol):
    """What the stage reads of the loop's state: the latency and page load time
    sketches (``hists``, two rows per class) and the per-class sums (``csum``)."""

    @property
    def hists(self) -> I64: ...

    @property
    def csum(self) -> F64: ...


class AdmissionStage(Protocol):
    """A stage between the workload's arrivals and a loop (the runners' view)."""

    def boundaries(self, duration_s: float) -> list[float]: ...

    def release(self, times: F64, rows: I64, t1: float) -> tuple[F64, I64]: ...

    def after_segment(self, state: LoopState, t_s: float) -> None: ...

    def finish(self, result: SimulationResult) -> SimulationResult: ...


class NullStage:
    """No stage: the loop sees the arrivals as drawn."""

    def boundaries(self, duration_s: float) -> list[float]:
        return []

    def release(self, times: F64, rows: I64, t1: float) -> tuple[F64, I64]:
        return times, rows

    def after_segment(self, state: LoopState, t_s: float) -> None:
        return None

    def finish(self, result: SimulationResult) -> SimulationResult:
        return result


def build_stage(s: Scenario, seed: int) -> AdmissionStage:
    if isinstance(s.admission, VirtualQueueAdmission):
        return WaitingRoom(s, seed)
    return NullStage()


class _Discovery:
    """Discovery state plus the core counters at the last epoch end and the epoch log."""

    def __init__(self, a: VirtualQueueAdmission) -> None:
        params = dsc.DiscoveryParams(a.c0, a.alpha, a.beta, a.delta, a.n_f, a.n_s, a.epsilon)
        self.params = params.to_array()
        self.state, self.obs = dsc.discovery_new(params)
        self.last = (0.0, 0, 0.0, 0.0, 0.0)  # the cumulative counts at the last epoch end
        self.rows: list[tuple[float, ...]] = []  # one per epoch, see EPOCH_KEYS
        self.converged_t_s: list[float] = []
        self.kept_per_s = 0.0  # the estimate that still holds after a restart upwards

    @property
    def rate_per_s(self) -> float:
        return float(self.state[dsc.RATE])

    @property
    def promised_per_s(self) -> float:
        """The capacity promised to seconds after the current epoch: the probe itself
        once converged; while probing, beta x the rate discovery would back off to
        (beta x the coarse probe, then beta x the overshoot), or the estimate that still
        holds after a rise. Promises only grow until convergence: a lower one could not
        take back the bookings made at the higher one (the server would get them)."""
        s, beta = self.state, self.params[dsc.P_BETA]
        if s[dsc.CONVERGED]:
            return float(s[dsc.RATE])
        back_off = beta * (s[dsc.RATE] if s[dsc.PHASE] == dsc.COARSE else s[dsc.C_BAR])
        return float(max(beta * back_off, self.kept_per_s))

    def step(self, span_s: float, t_s: float, counts: tuple[float, int, float, float, float]):
        """One epoch of ``span_s`` ending at t_s; counts = cumulative (units served, their
        number, their response time sum, units checked in, units released). Returns the
        rate (units/s) for the next epoch."""
        units, done, time_s, checked, released = (
            a - b for a, b in zip(counts, self.last, strict=True)
        )
        self.last = counts
        offered = max(checked, released) / span_s
        goodput, response = units / span_s, (time_s / done if done else 0.0)
        rate, phase, before = (
            self.rate_per_s,
            self.state[dsc.PHASE],
            self.state[dsc.CONVERGED_EPOCH],
        )
        dsc.discovery_step(self.state, self.params, self.obs, offered, goodput, response)
        if phase == dsc.MONITOR and self.state[dsc.PHASE] == dsc.COARSE:
            upward = self.state[dsc.START] == self.state[dsc.ESTIMATE]
            self.kept_per_s = float(self.state[dsc.ESTIMATE]) if upward else 0.0
        if self.state[dsc.CONVERGED_EPOCH] != before:
            self.converged_t_s.append(t_s)
        estimate = self.state[dsc.ESTIMATE] if self.converged_t_s else math.nan
        power = goodput / response if response > 0 else 0.0
        self.rows.append((t_s, rate, goodput, response, power, phase, estimate))
        return self.rate_per_s


EPOCH_KEYS = (
    "epoch_t_s",
    "epoch_rate_per_s",
    "epoch_goodput_per_s",
    "epoch_response_s",
    "epoch_power",
    "epoch_phase",
    "epoch_estimate_per_s",
)


class WaitingRoom:
    """The ``virtual_queue`` admission stage: check-in, wait, release, drop; discovery."""

    def __init__(self, s: Scenario, seed: int) -> None:
        a = s.admission
        assert isinstance(a, VirtualQueueAdmission)
        self.spec, self.duration_s = a, s.duration_s
        classes = s.workload.class_list()
        self.hardness = np.array([a.hardness.get(c.name, 1.0) for c in classes])
        self.paged = np.array([c.page is not None for c in classes])
        self.discovery = _Discovery(a) if a.capacity == "discover" else None
        # One slot more than the longest wait: waits 0..max_wait_s are all allowed.
        if self.discovery is None:
            self.slots, self.vq = vq_new(a.max_wait_s + 1, float(a.capacity))
        else:
            self.slots, self.vq = vq_new(a.max_wait_s + 1, self.discovery.promised_per_s)
            vq_set_near(self.slots, self.vq, a.epoch_s, self.discovery.rate_per_s)
        self.pending_t, self.pending_n = np.zeros(0), np.zeros((0, 3), dtype=np.int64)
        seconds = math.ceil(self.duration_s - 1e-9)
        self.per_s = {k: np.zeros(seconds) for k in ("offered", "admitted", "dropped", "wait")}
        self.per_s["wait_max"] = np.full(seconds, np.nan)
        self.wait_hist = np.zeros(a.max_wait_s + 1, dtype=np.int64)
        self.dropped_by_class = np.zeros(len(classes), dtype=np.int64)
        self.checked_in = self.released = 0
        self.checked_units = self.released_units = 0.0
        self.next_epoch_s = a.epoch_s
        # A stream of its own (after the Feeder's children of the same root seed).
        root = np.random.SeedSequence(seed).spawn(len(classes) + 2)[-1]
        self.rng = np.random.default_rng(root)

    def boundaries(self, duration_s: float) -> list[float]:
        """Epoch ends (discovery reads the core's counters there); none at a fixed capacity."""
        if self.discovery is None:
            return []
        n = math.floor(duration_s / self.spec.epoch_s + 1e-9)
        return [k * self.spec.epoch_s for k in range(1, n + 1)]

    def release(self, times: F64, rows: I64, t1: float) -> tuple[F64, I64]:
        """Check in arrivals (``rows``: the arrival rows, the class in column 2);
        the releases due before t1 in time order."""
        self._check_in(times, rows)
        due = int(np.searchsorted(self.pending_t, t1, side="left"))
        times, rows = self.pending_t[:due].copy(), self.pending_n[:due].copy()
        self.pending_t, self.pending_n = self.pending_t[due:], self.pending_n[due:]
        self.released += due
        self.released_units += float(self.hardness[rows[:, 2]].sum())
        _add(self.per_s["admitted"], times)
        return times, rows

    def _check_in(self, times: F64, rows: I64) -> None:
        if len(times) == 0:
            return
        waits = vq_assign_all(self.slots, self.vq, times, self.hardness[rows[:, 2]])
        kept = waits >= 0
        self.checked_in += len(times)
        self.checked_units += float(self.hardness[rows[:, 2]].sum())
        self._record(times, waits, kept, rows[:, 2])
        release = self._release_times(times[kept], waits[kept])
        all_t = np.concatenate([self.pending_t, release])
        all_n = np.concatenate([self.pending_n, rows[kept]])
        order = np.argsort(all_t, kind="stable")
        self.pending_t, self.pending_n = all_t[order], np.ascontiguousarray(all_n[order])

    def _release_times(self, times: F64, waits: I64) -> F64:
        """No wait: at once. A wait of w: at a uniform instant of the second floor(t) + w,
        the second the gate admits the request in (users do not return in step)."""
        later = np.floor(times) + waits + self.rng.uniform(size=len(times))
        return np.where(waits > 0, later, times)

    def _record(self, times: F64, waits: I64, kept: np.ndarray, klass: I64) -> None:
        p = self.per_s
        _add(p["offered"], times)
        _add(p["dropped"], times[~kept])
        _add(p["wait"], times[kept], waits[kept].astype(np.float64))
        sec = np.minimum(times[kept].astype(np.int64), len(p["wait_max"]) - 1)
        np.fmax.at(p["wait_max"], sec, waits[kept].astype(np.float64))
        self.wait_hist += np.bincount(waits[kept], minlength=len(self.wait_hist))
        self.dropped_by_class += np.bincount(klass[~kept], minlength=len(self.dropped_by_class))

    def after_segment(self, state: LoopState, t_s: float) -> None:
        """At an epoch end: one discovery step, and the scheduler takes the new rate."""
        d, epoch = self.discovery, self.spec.epoch_s
        if d is None or t_s < self.next_epoch_s - 1e-9:
            return
        self.next_epoch_s += epoch
        counts = (*self._served(state), self.checked_units, self.released_units)
        rate = d.step(epoch, t_s, counts)
        vq_advance(self.slots, self.vq, t_s)
        vq_set_capacity(self.slots, self.vq, d.promised_per_s, True)
        vq_set_near(self.slots, self.vq, self.next_epoch_s, rate)

    def _served(self, state: LoopState) -> tuple[float, int, float]:
        """(units, count, response time sum) of what the server completed so far, in the
        stage's units: a page counts once with its load time (its objects follow it), a
        single request with its latency; each weighs its class's hardness."""
        rows = 2 * np.arange(len(self.paged)) + self.paged
        counts = state.hists[rows].sum(axis=1)
        lat, plt = state.csum[:, CS_LAT_SUM], state.csum[:, CS_PLT_SUM]
        sums = np.where(self.paged, plt, lat)
        return float(counts @ self.hardness), int(counts.sum()), float(sums.sum())

    def finish(self, result: SimulationResult) -> SimulationResult:
        """Front-end accounting on top of the core's: dropped check-ins are rejected
        requests (and failed pages); check-ins still waiting at the end are in the system."""
        dropped, waiting = int(self.dropped_by_class.sum()), len(self.pending_t)
        waiting_by_class = np.bincount(self.pending_n[:, 2], minlength=len(self.hardness))
        dropped_pages = int(self.dropped_by_class[self.paged].sum())
        classes = tuple(
            dataclasses.replace(
                c,
                arrived=c.arrived + int(self.dropped_by_class[k] + waiting_by_class[k]),
                rejected=c.rejected + int(self.dropped_by_class[k]),
            )
            for k, c in enumerate(result.classes)
        )
        return dataclasses.replace(
            result,
            requests=result.requests + dropped + waiting,
            rejected=result.rejected + dropped,
            in_system_at_end=result.in_system_at_end + waiting,
            pages=result.pages + dropped_pages + int(waiting_by_class[self.paged].sum()),
            pages_failed=result.pages_failed + dropped_pages,
            classes=classes,
            admission=self.summary(),
            admission_series=self.series(),
        )

    def summary(self) -> dict[str, Any]:
        d = self.discovery
        estimate: float | None = None if d else float(self.spec.capacity)
        if d is not None and d.converged_t_s:
            estimate = float(d.state[dsc.ESTIMATE])
        return {
            "capacity_estimate_per_s": estimate,
            "converged_at_s": d.converged_t_s[-1] if d and d.converged_t_s else None,
            "served": self.released,
            "dropped": int(self.dropped_by_class.sum()),
            "wait_s": wait_summary(self.wait_hist),
        }

    def series(self) -> dict[str, np.ndarray]:
        p = self.per_s
        count = p["offered"] - p["dropped"]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(count > 0, p["wait"] / count, np.nan)
        out: dict[str, np.ndarray] = {
            "second_t_s": np.arange(len(count), dtype=np.float64),
            "second_offered": p["offered"].astype(np.int64),
            "second_admitted": p["admitted"].astype(np.int64),
            "second_dropped": p["dropped"].astype(np.int64),
            "second_wait_mean_s": mean,
            "second_wait_max_s": p["wait_max"].copy(),
        }
        rows = self.discovery.rows if self.discovery else []
        table = np.array(rows, dtype=np.float64).reshape(len(rows), len(EPOCH_KEYS))
        for j, key in enumerate(EPOCH_KEYS):
            out[key] = table[:, j].astype(np.int64) if key == "epoch_phase" else table[:, j]
        converged = self.discovery.converged_t_s if self.discovery else []
        out["converged_t_s"] = np.array(converged, dtype=np.float64)
        return out


def _add(per_s: F64, times: F64, weights: F64 | None = None) -> None:
    """Add one (or ``weights``) per time to the bin of its whole second."""
    if len(times) == 0:
        return
    sec = np.minimum(times.astype(np.int64), len(per_s) - 1)
    per_s += np.bincount(sec, weights=weights, minlength=len(per_s))[: len(per_s)]


def wait_summary(hist: I64) -> dict[str, float | None]:
    """Mean, nearest-rank p95 and max of whole-second waits from their exact histogram."""
    n = int(hist.sum())
    if n == 0:
        return {"mean": None, "p95": None, "max": None}
    w = np.arange(len(hist), dtype=np.float64)
    cum = np.cumsum(hist)
    p95 = int(np.searchsorted(cum, math.ceil(0.95 * n), side="left"))
    return {
        "mean": float((w * hist).sum() / n),
        "p95": float(p95),
        "max": float(np.nonzero(hist)[0][-1]),
    }
