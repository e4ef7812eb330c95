"""SLA gating for pipelines: the checks `headroom check` evaluates, from observed figures.

Pure functions; cli_check fetches the figures from a server."""

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Check:
    """One limit: `observed` must be at most (`bound` "max") or at least ("min") `limit`."""

    name: str
    limit: float
    observed: float
    unit: str
    bound: Literal["max", "min"]

    @property
    def passed(self) -> bool:
        return self.observed <= self.limit if self.bound == "max" else self.observed >= self.limit

    def describe(self) -> str:
        sign = {"max": "<=", "min": ">="}[self.bound]
        line = f"{'PASS' if self.passed else 'FAIL'} {self.name}: {self.observed:.4g} {self.unit}"
        if self.passed:
            return f"{line} {sign} limit {self.limit:.4g} {self.unit}"
        excess = abs(self.observed - self.limit)
        share = f", {excess / self.limit:.1%}" if self.limit else ""
        word = "over" if self.bound == "max" else "under"
        return (
            f"{line}, {excess:.4g} {self.unit}{share} {word} the limit {self.limit:.4g} {self.unit}"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "limit": self.limit,
            "observed": self.observed,
            "unit": self.unit,
            "passed": self.passed,
        }


def p95_limit(label: str, p95_s: float, max_p95_s: float) -> Check:
    return Check(f"p95 latency ({label})", max_p95_s, p95_s, "s", "max")


def p95_regression(label: str, p95_s: float, baseline_p95_s: float, max_regression: float) -> Check:
    """The p95 may grow by at most `max_regression` (a fraction) over the baseline's."""
    limit = baseline_p95_s * (1.0 + max_regression)
    return Check(f"p95 latency vs baseline ({label})", limit, p95_s, "s", "max")


def knee_regression(
    label: str, knee_per_s: float, baseline_knee_per_s: float, max_regression: float
) -> Check:
    """The knee (the load where latency turns up) may fall by at most `max_regression`."""
    limit = baseline_knee_per_s * (1.0 - max_regression)
    return Check(f"knee load vs baseline ({label})", limit, knee_per_s, "req/s", "min")


def verdict(checks: list[Check]) -> dict[str, object]:
    return {"passed": all(c.passed for c in checks), "checks": [c.to_json() for c in checks]}
