"""Tiny distribution objects: ``sample(rng, n)``, ``mean``, ``variance``.

The compiled core cannot call Python per event, so callers draw whole batches
(``sample(rng, n)`` returns a float64 array) and feed the arrays to the core.
Declarative form: ``{dist: uniform, low: 0, high: 1}`` -> :func:`parse_distribution`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@runtime_checkable
class Distribution(Protocol):
    """A non-negative random variable drawn in vectorised batches."""

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray: ...

    @property
    def mean(self) -> float: ...

    @property
    def variance(self) -> float: ...


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


@dataclass(frozen=True)
class Constant:
    value: float

    def __post_init__(self) -> None:
        _require(math.isfinite(self.value) and self.value >= 0, "value must be >= 0")

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return np.full(n, self.value, dtype=np.float64)

    @property
    def mean(self) -> float:
        return self.value

    @property
    def variance(self) -> float:
        return 0.0


@dataclass(frozen=True)
class Uniform:
    low: float
    high: float

    def __post_init__(self) -> None:
        _require(0 <= self.low <= self.high < math.inf, "need 0 <= low <= high")

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return rng.uniform(self.low, self.high, n)

    @property
    def mean(self) -> float:
        return (self.low + self.high) / 2

    @property
    def variance(self) -> float:
        return (self.high - self.low) ** 2 / 12


@dataclass(frozen=True)
class Exponential:
    mean_value: float

    def __post_init__(self) -> None:
        _require(0 < self.mean_value < math.inf, "mean must be > 0")

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return rng.exponential(self.mean_value, n)

    @property
    def mean(self) -> float:
        return self.mean_value

    @property
    def variance(self) -> float:
        return self.mean_value**2


@dataclass(frozen=True)
class Lognormal:
    """exp(N(mu, sigma^2)); mu and sigma are those of the underlying normal."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        _require(math.isfinite(self.mu), "mu must be finite")
        _require(0 <= self.sigma < 20, "sigma must be in [0, 20)")

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return rng.lognormal(self.mu, self.sigma, n)

    @property
    def mean(self) -> float:
        return math.exp(self.mu + self.sigma**2 / 2)

    @property
    def variance(self) -> float:
        return (math.exp(self.sigma**2) - 1) * math.exp(2 * self.mu + self.sigma**2)


@dataclass(frozen=True)
class Pareto:
    """Pareto type I: P(X > x) = (scale / x) ** alpha for x >= scale."""

    alpha: float
    scale: float

    def __post_init__(self) -> None:
        _require(0 < self.alpha < math.inf, "alpha must be > 0")
        _require(0 < self.scale < math.inf, "scale must be > 0")

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return self.scale * (1.0 + rng.pareto(self.alpha, n))

    @property
    def mean(self) -> float:
        a = self.alpha
        return math.inf if a <= 1 else a * self.scale / (a - 1)

    @property
    def variance(self) -> float:
        a = self.alpha
        return math.inf if a <= 2 else self.scale**2 * a / ((a - 1) ** 2 * (a - 2))


@dataclass(frozen=True)
class Mixture:
    """Draw part i with probability weights[i] (weights are normalised)."""

    weights: tuple[float, ...]
    parts: tuple[Distribution, ...]
    _probs: FloatArray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _require(len(self.parts) > 0, "mixture needs at least one part")
        _require(len(self.weights) == len(self.parts), "one weight per part")
        w = np.asarray(self.weights, dtype=np.float64)
        _require(bool(np.all(w >= 0)) and float(w.sum()) > 0, "weights must be >= 0, sum > 0")
        object.__setattr__(self, "_probs", w / w.sum())

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        which = rng.choice(len(self.parts), size=n, p=self._probs)
        out = np.empty(n, dtype=np.float64)
        for i, part in enumerate(self.parts):
            mask = which == i
            out[mask] = part.sample(rng, int(mask.sum()))
        return out

    @property
    def mean(self) -> float:
        return float(sum(p * d.mean for p, d in zip(self._probs, self.parts, strict=True)))

    @property
    def variance(self) -> float:
        second = sum(
            p * (d.variance + d.mean**2) for p, d in zip(self._probs, self.parts, strict=True)
        )
        return float(second - self.mean**2)


@dataclass(frozen=True, eq=False)
class Empirical:
    """Resample the given observations (a tuple or an array) uniformly with replacement."""

    values: tuple[float, ...] | FloatArray
    _array: FloatArray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        v = np.asarray(self.values, dtype=np.float64)
        _require(v.ndim == 1 and len(v) > 0, "empirical needs at least one value")
        _require(bool(np.all(np.isfinite(v))) and bool(np.all(v >= 0)), "values must be >= 0")
        object.__setattr__(self, "_array", v)

    def sample(self, rng: np.random.Generator, n: int) -> FloatArray:
        return rng.choice(self._array, size=n)

    @property
    def mean(self) -> float:
        return float(np.mean(self._array))

    @property
    def variance(self) -> float:
        return float(np.var(self._array))


# Their values do not depend on how draws are split between calls: numpy draws each value
# on its own, one after another (a mixture draws its parts' choices, an empirical
# distribution its indices, per call).
_DRAWN_ONE_BY_ONE = (Constant, Uniform, Exponential, Lognormal, Pareto)


def sample_runs(dist: Distribution, rng: np.random.Generator, sizes: Sequence[int]) -> FloatArray:
    """``dist.sample(rng, n)`` for each of ``sizes`` in turn, concatenated (one draw when
    the split does not matter)."""
    if isinstance(dist, _DRAWN_ONE_BY_ONE):
        return dist.sample(rng, sum(sizes))
    return np.concatenate([np.zeros(0), *(dist.sample(rng, n) for n in sizes)])


Datasets = Mapping[str, FloatArray]


def _parse_mixture(spec: Mapping[str, Any], datasets: Datasets) -> Mixture:
    parts: Sequence[Sequence[Any]] = spec["parts"]
    return Mixture(
        weights=tuple(float(w) for w, _ in parts),
        parts=tuple(parse_distribution(d, datasets) for _, d in parts),
    )


def _parse_empirical(spec: Mapping[str, Any], datasets: Datasets) -> Empirical:
    name = spec.get("dataset")
    if name is None:
        return Empirical(tuple(float(v) for v in spec["values"]))
    if name not in datasets:
        raise ValueError(f"empirical: unknown dataset {name!r}")
    return Empirical(np.asarray(datasets[name], dtype=np.float64))


_BUILDERS: dict[str, Any] = {
    "constant": lambda s, _: Constant(float(s["value"])),
    "uniform": lambda s, _: Uniform(float(s["low"]), float(s["high"])),
    "exponential": lambda s, _: Exponential(float(s["mean"])),
    "lognormal": lambda s, _: Lognormal(float(s["mu"]), float(s["sigma"])),
    "pareto": lambda s, _: Pareto(float(s["alpha"]), float(s["scale"])),
    "mixture": _parse_mixture,
    "empirical": _parse_empirical,
}


def parse_distribution(spec: Mapping[str, Any], datasets: Datasets | None = None) -> Distribution:
    """Build a distribution from its declarative mapping (``{dist: name, ...}``).

    ``{dist: empirical, dataset: name}`` resamples ``datasets[name]`` (e.g. a dataset's
    measured service times, resolved by the caller).
    """
    name = spec.get("dist")
    if name not in _BUILDERS:
        raise ValueError(f"unknown dist {name!r}; one of {sorted(_BUILDERS)}")
    try:
        dist: Distribution = _BUILDERS[name](spec, datasets or {})
    except KeyError as missing:
        raise ValueError(f"dist {name}: missing parameter {missing}") from None
    return dist
