"""Online capacity discovery (docs/methods/admission.md): a state machine fed once per epoch with
the offered load, goodput and mean response time measured while the shaper admitted
state[RATE] requests/s. It returns the rate to admit during the next epoch.

State layout (preallocated, no Python objects):
- `params`: float64[PARAM_SIZE] (C0, ALPHA, BETA, DELTA, N_F, N_S, EPSILON), see
  `DiscoveryParams`.
- `state`: float64[STATE_SIZE], indexed by the constants below; COEF .. COEF + 3 hold the
  last cubic fit of gamma against the admitted rate (highest power first).
- `obs`: float64[2, max_obs]: admitted rate (row 0) and power ratio gamma = goodput /
  response time (row 1) of the epochs kept; state[N_OBS] of them, oldest first.
Phases: coarse (geometric probing from c0), stabilise (ignore samples until goodput holds
at the new rate), fine (linear probing until the cubic's maximum has stayed inside the
probed range for N_f more epochs), monitor (change detection against the fitted curve).
Where the spec's text leaves room, for measurements as noisy as a simulated server's:
- change detection compares each epoch with the level of gamma measured at the estimate
  in the first N_f monitor epochs, e_max being their largest distance from it (the cubic,
  fitted over the whole probe from c0, misses the level at its own maximum by up to 40%
  on a server whose latency is flat below the knee), and a change must persist for N_s
  epochs before discovery restarts;
- an epoch whose goodput exceeds the probe by more than epsilon (the server still
  serving earlier admissions) teaches nothing about the probe and pauses discovery like
  too little demand does; in the coarse phase, goodput falling more than epsilon below
  the probe ends the phase like the cubic's interior maximum does (probe higher only
  while goodput keeps up).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.linalg import least_squares

FloatArray = NDArray[np.float64]

COARSE, STABILISE, FINE, MONITOR = 0.0, 1.0, 2.0, 3.0
PHASE_NAMES = ("coarse", "stabilise", "fine", "monitor")

PHASE, RATE, C_BAR, START, ESTIMATE, CONVERGED = 0, 1, 2, 3, 4, 5
STREAK, INSIDE, E_MAX, EPOCH, CONVERGED_EPOCH, N_OBS, COEF = 6, 7, 8, 9, 10, 11, 12
BASE_N, BASE_SUM, BASE_MIN, BASE_MAX = COEF + 4, COEF + 5, COEF + 6, COEF + 7
STATE_SIZE = COEF + 8

P_C0, P_ALPHA, P_BETA, P_DELTA, P_NF, P_NS, P_EPS = 0, 1, 2, 3, 4, 5, 6
PARAM_SIZE = 7

# Change detection needs a band even when the fit is (nearly) exact: at least this
# fraction of the curve's value at the estimate, so rounding alone never restarts discovery.
MIN_BAND_FRACTION = 0.02
# A cubic through 4 points interpolates their noise and shows spurious maxima; two more
# points make the least-squares fit average it.
MIN_POINTS = 6


@dataclass(frozen=True)
class DiscoveryParams:
    c0_per_s: float = 15.0
    alpha: float = 1.15  # coarse growth factor
    beta: float = 0.8  # back-off after the coarse overshoot
    delta: float = 0.02  # fine step, as a fraction of the overshoot rate
    n_f: int = 7  # epochs the maximum must stay inside before convergence
    n_s: int = 2  # stable epochs that end the stabilise phase
    epsilon: float = 0.1  # goodput within this relative distance of the rate = holding

    def __post_init__(self) -> None:
        if not (self.c0_per_s > 0 and self.alpha > 1 and 0 < self.beta < 1):
            raise ValueError("need c0_per_s > 0, alpha > 1 and 0 < beta < 1")
        if not (self.delta > 0 and self.n_f >= 1 and self.n_s >= 1 and 0 < self.epsilon < 1):
            raise ValueError("need delta > 0, n_f >= 1, n_s >= 1 and 0 < epsilon < 1")

    def to_array(self) -> FloatArray:
        return np.array(
            [self.c0_per_s, self.alpha, self.beta, self.delta, self.n_f, self.n_s, self.epsilon]
        )


def discovery_new(params: DiscoveryParams, max_obs: int = 512) -> tuple[FloatArray, FloatArray]:
    """Fresh (state, obs) starting the coarse phase at c0."""
    state = np.zeros(STATE_SIZE)
    state[PHASE] = COARSE
    state[RATE] = state[START] = params.c0_per_s
    state[ESTIMATE] = np.nan
    return state, np.zeros((2, max_obs))


@njit(cache=True)
def cubic_fit(x: FloatArray, y: FloatArray) -> FloatArray:
    """Least-squares cubic, highest power first, fitted on x / max(x) for conditioning."""
    scale = x.max()
    a = np.empty((x.size, 4))
    for j in range(4):
        a[:, j] = (x / scale) ** (3 - j)
    coef = least_squares(a, y)
    for j in range(4):
        coef[j] /= scale ** (3 - j)
    return coef


@njit(cache=True)
def cubic_value(coef: FloatArray, x: float) -> float:
    return ((coef[0] * x + coef[1]) * x + coef[2]) * x + coef[3]


@njit(cache=True)
def interior_max(coef: FloatArray, lo: float, hi: float) -> float:
    """The cubic's maximiser on [lo, hi] when it is a critical point strictly inside, else
    nan. Critical points solve 3a x^2 + 2b x + c = 0."""
    a, b, c = 3.0 * coef[0], 2.0 * coef[1], coef[2]
    best, best_value = lo, cubic_value(coef, lo)
    if cubic_value(coef, hi) > best_value:
        best, best_value = hi, cubic_value(coef, hi)
    disc = b * b - 4.0 * a * c
    if a != 0.0 and disc >= 0.0:
        root = math.sqrt(disc)
        for x in ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a)):
            if lo < x < hi and cubic_value(coef, x) > best_value:
                best, best_value = x, cubic_value(coef, x)
    elif a == 0.0 and b != 0.0 and lo < -c / b < hi and cubic_value(coef, -c / b) > best_value:
        best = -c / b
    return best if lo < best < hi else np.nan


@njit(cache=True)
def _record(state: FloatArray, obs: FloatArray, rate: float, gamma: float) -> float:
    """Keep the observation (dropping the oldest when full), refit, return the interior
    maximum over the kept range (nan when there is none or too few points)."""
    n = int(state[N_OBS])
    if n == obs.shape[1]:
        obs[:, :-1] = obs[:, 1:].copy()
        n -= 1
    obs[0, n], obs[1, n] = rate, gamma
    n += 1
    state[N_OBS] = n
    if np.unique(obs[0, :n]).size < MIN_POINTS:
        return np.nan
    coef = cubic_fit(obs[0, :n], obs[1, :n])
    state[COEF : COEF + 4] = coef
    return (
        interior_max(coef, state[START], rate)
        if state[PHASE] == COARSE
        else interior_max(coef, obs[0, :n].min(), obs[0, :n].max())
    )


@njit(cache=True)
def _restart(state: FloatArray, rate: float) -> None:
    state[PHASE], state[RATE], state[START] = COARSE, rate, rate
    state[N_OBS], state[CONVERGED], state[INSIDE], state[STREAK] = 0.0, 0.0, 0.0, 0.0


@njit(cache=True)
def _fine(state: FloatArray, params: FloatArray, obs: FloatArray, gamma: float, holding: bool):
    rate = state[RATE]
    peak = _record(state, obs, rate, gamma)
    if holding:  # probe higher only while goodput keeps up with the rate
        state[RATE] = rate + params[P_DELTA] * state[C_BAR]
    state[INSIDE] = state[INSIDE] + 1.0 if not math.isnan(peak) else 0.0
    if state[INSIDE] > params[P_NF]:  # inside when first seen and for N_f more epochs
        n = int(state[N_OBS])
        coef = state[COEF : COEF + 4]
        residual = 0.0
        for j in range(n):
            residual = max(residual, abs(obs[1, j] - cubic_value(coef, obs[0, j])))
        band = MIN_BAND_FRACTION * abs(cubic_value(coef, peak))
        state[E_MAX] = max(residual, band)
        state[ESTIMATE], state[CONVERGED], state[CONVERGED_EPOCH] = peak, 1.0, state[EPOCH]
        state[PHASE], state[RATE], state[STREAK] = STABILISE, peak, 0.0


@njit(cache=True)
def discovery_step(
    state: FloatArray,
    params: FloatArray,
    obs: FloatArray,
    offered_per_s: float,
    goodput_per_s: float,
    latency_s: float,
) -> float:
    """Feed one epoch's measurements; returns the admitted rate for the next epoch."""
    state[EPOCH] += 1.0
    rate, eps, phase = state[RATE], params[P_EPS], state[PHASE]
    if offered_per_s < (1.0 - eps) * rate:  # demand below the probe: nothing to learn
        return rate
    if phase != STABILISE and goodput_per_s * (1.0 - eps) > rate:
        return rate  # served well above the probe (earlier promises): not a measure of it
    gamma = goodput_per_s / latency_s if latency_s > 0.0 else 0.0
    holding = goodput_per_s > 0.0 and abs(goodput_per_s - rate) / goodput_per_s < eps
    if phase == COARSE:
        peak = _record(state, obs, rate, gamma)
        # Overshot: the cubic peaks inside, and (a guard against a noise-made maximum while
        # gamma still climbs ~15% per step) this epoch's gamma is clearly below the best seen.
        # ... or (probe higher only while goodput keeps up) the server fell behind the probe.
        best = obs[1, : int(state[N_OBS])].max()
        overshot = not math.isnan(peak) and gamma < (1.0 - MIN_BAND_FRACTION) * best
        if overshot or (state[N_OBS] > 1 and goodput_per_s < (1.0 - eps) * rate):
            state[C_BAR], state[PHASE], state[STREAK] = rate, STABILISE, 0.0
            state[RATE] = params[P_BETA] * rate
        else:
            state[RATE] = params[P_ALPHA] * rate
    elif phase == STABILISE:
        state[STREAK] = state[STREAK] + 1.0 if holding else 0.0
        if state[STREAK] >= params[P_NS]:
            state[PHASE], state[INSIDE] = (MONITOR if state[CONVERGED] else FINE), 0.0
            state[STREAK], state[BASE_N] = 0.0, 0.0
    elif phase == FINE:
        _fine(state, params, obs, gamma, holding)
    else:
        _monitor(state, params, gamma)
    return state[RATE]


@njit(cache=True)
def _calibrate(state: FloatArray, params: FloatArray, gamma: float) -> bool:
    """The first N_f monitor epochs measure the curve where the monitor sits: the level
    of gamma at the estimate (their mean) and e_max (their largest distance from it).
    Returns whether calibration is still going on."""
    n = state[BASE_N]
    if n >= params[P_NF]:
        return False
    state[BASE_SUM] += gamma
    state[BASE_MIN] = gamma if n == 0 else min(state[BASE_MIN], gamma)
    state[BASE_MAX] = gamma if n == 0 else max(state[BASE_MAX], gamma)
    state[BASE_N] = n + 1.0
    if state[BASE_N] >= params[P_NF]:
        level = state[BASE_SUM] / state[BASE_N]
        spread = max(state[BASE_MAX] - level, level - state[BASE_MIN])
        state[E_MAX] = max(spread, MIN_BAND_FRACTION * abs(level))
        state[BASE_SUM] = level
    return True


@njit(cache=True)
def _monitor(state: FloatArray, params: FloatArray, gamma: float) -> None:
    """Change detection against the level calibrated at the estimate. One noisy epoch
    must not restart discovery: the distance must stay beyond 2 e_max on the same side
    for N_s consecutive epochs (STREAK counts them, positive above, negative below)."""
    if _calibrate(state, params, gamma):
        return
    distance = gamma - state[BASE_SUM]
    streak = state[STREAK]
    if distance > 2.0 * state[E_MAX]:
        streak = max(streak, 0.0) + 1.0
    elif distance < -2.0 * state[E_MAX]:
        streak = min(streak, 0.0) - 1.0
    else:
        streak = 0.0
    state[STREAK] = streak
    if streak >= params[P_NS]:  # capacity rose: probe up from the estimate
        _restart(state, state[ESTIMATE])
    elif streak <= -params[P_NS]:  # capacity fell: start over from c0
        _restart(state, params[P_C0])


@dataclass(frozen=True)
class DiscoveryTrace:
    """One row per epoch: the rate admitted, the phase it was in, the estimate after it."""

    epoch_s: float
    rate_per_s: FloatArray
    phase: NDArray[np.int64]
    estimate_per_s: FloatArray  # nan until the first convergence
    converged_at_s: FloatArray  # simulated time of each convergence


def discover(
    measure: Callable[[int, float], tuple[float, float, float]],
    epochs: int,
    params: DiscoveryParams | None = None,
    epoch_s: float = 8.0,
) -> DiscoveryTrace:
    """Drive discovery for `epochs` epochs; measure(epoch, rate) returns the epoch's
    (offered_per_s, goodput_per_s, mean_latency_s) at that admitted rate."""
    params = params or DiscoveryParams()
    state, obs = discovery_new(params)
    p = params.to_array()
    rate, phase, estimate, converged = np.empty(epochs), np.empty(epochs, np.int64), [], []
    for i in range(epochs):
        rate[i], phase[i] = state[RATE], int(state[PHASE])
        before = state[CONVERGED_EPOCH]
        discovery_step(state, p, obs, *measure(i, rate[i]))
        estimate.append(state[ESTIMATE])
        if state[CONVERGED_EPOCH] != before:
            converged.append((i + 1) * epoch_s)
    return DiscoveryTrace(epoch_s, rate, phase, np.array(estimate), np.array(converged))
