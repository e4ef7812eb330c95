"""SLA gating for pipelines: the checks `headroom check` evaluates, from observed figures.

Pure functions; cli.check fetches the figures from a server."""

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Check:
    """One limit: `observed` must be at most (`bound` "max") or at least ("min") `limit`.

    A skipped check (`skipped` says why, e.g. no knee in the baseline) has no figures and
    neither passes nor fails: `passed` is None."""

    name: str
    limit: float | None
    observed: float | None
    unit: str
    bound: Literal["max", "min"]
    skipped: str | None = None

    @property
    def passed(self) -> bool | None:
        if self.skipped is not None or self.limit is None or self.observed is None:
            return None
        return self.observed <= self.limit if self.bound == "max" else self.observed >= self.limit

    def describe(self) -> str:
        if self.passed is None or self.limit is None or self.observed is None:
            return f"SKIP {self.name}: {self.skipped or 'not evaluated'}"
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
        out: dict[str, object] = {
            "name": self.name,
            "limit": self.limit,
            "observed": self.observed,
            "unit": self.unit,
            "passed": self.passed,
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
        return out


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
    return Check(_knee_name(label), limit, knee_per_s, "req/s", "min")


def knee_skipped(label: str, reason: str) -> Check:
    """The knee comparison that could not be made (a dataset without a knee)."""
    return Check(_knee_name(label), None, None, "req/s", "min", skipped=reason)


def _knee_name(label: str) -> str:
    return f"knee load vs baseline ({label})"


def verdict(checks: list[Check]) -> dict[str, object]:
    """Passed unless a check failed (skipped checks do not fail the gate)."""
    passed = all(c.passed is not False for c in checks)
    return {"passed": passed, "checks": [c.to_json() for c in checks]}
