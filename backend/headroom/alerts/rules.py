"""A rule against the figures: fired, ok, or not evaluated (and why), in words."""

from dataclasses import dataclass

from headroom.alerts.figures import Figures
from headroom.alerts.models import Outcome, RuleKind


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    value: float | None
    limit: float | None
    message: str


def judge(
    kind: RuleKind, threshold: float | None, figures: Figures, previous: float | None
) -> Verdict:
    if kind == RuleKind.p95_above_sla:
        return _p95(threshold, figures)
    if kind == RuleKind.knee_below_baseline:
        return _knee(threshold, figures, previous)
    return _error_rate(threshold, figures)


def _skip(reason: str, value: float | None = None) -> Verdict:
    return Verdict(Outcome.not_evaluated, value, None, f"not evaluated: {reason}")


def _p95(threshold: float | None, f: Figures) -> Verdict:
    if not f.has_summary:
        return _skip("the dataset has no traffic summary yet")
    if f.p95_s is None:
        return _skip("the log records no response times")
    limit = threshold if threshold is not None else f.sla_threshold_s
    if limit is None:
        return _skip("no SLA target: give seconds, or run a capacity analysis", f.p95_s)
    source = "the threshold" if threshold is not None else "the SLA target"
    if f.p95_s > limit:
        text = f"p95 latency {_s(f.p95_s)} is above {source} {_s(limit)}"
        return Verdict(Outcome.fired, f.p95_s, limit, text)
    text = f"p95 latency {_s(f.p95_s)} is within {source} {_s(limit)}"
    return Verdict(Outcome.ok, f.p95_s, limit, text)


def _knee(threshold: float | None, f: Figures, previous: float | None) -> Verdict:
    if f.analysis_id is None:
        return _skip("no capacity analysis")
    if f.knee_per_s is None:
        return _skip("the capacity analysis found no knee")
    limit = threshold if threshold is not None else previous
    if limit is None:
        reason = f"no baseline yet; this knee ({_rate(f.knee_per_s)}) is the next baseline"
        return _skip(reason, f.knee_per_s)
    source = "the baseline" if threshold is not None else "the previous evaluation's"
    if f.knee_per_s < limit:
        text = f"the knee {_rate(f.knee_per_s)} is lower than {source} {_rate(limit)}"
        return Verdict(Outcome.fired, f.knee_per_s, limit, text)
    text = f"the knee {_rate(f.knee_per_s)} is not lower than {source} {_rate(limit)}"
    return Verdict(Outcome.ok, f.knee_per_s, limit, text)


def _error_rate(threshold: float | None, f: Figures) -> Verdict:
    if not f.has_summary:
        return _skip("the dataset has no traffic summary yet")
    if f.error_rate is None:
        return _skip("the log has no status codes")
    limit = threshold if threshold is not None else 0.01
    if f.error_rate > limit:
        text = f"5xx share {_pct(f.error_rate)} is above {_pct(limit)}"
        return Verdict(Outcome.fired, f.error_rate, limit, text)
    return Verdict(
        Outcome.ok, f.error_rate, limit, f"5xx share {_pct(f.error_rate)} is within {_pct(limit)}"
    )


def _s(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.3g} s"


def _rate(value: float) -> str:
    return f"{value:.3g} req/s"


def _pct(value: float) -> str:
    return f"{value * 100:.3g}%"
