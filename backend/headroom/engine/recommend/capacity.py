"""The recommendations of a capacity report (its JSON document, report.py's ``to_dict``) at
the SLA thresholds the user chose per class: per class MaxRate(T), MaxConn(T) and the
servers for the peak; the power-ratio capacity; admission by class when the classes' limits
differ; background work when the mean load leaves capacity idle; the virtual queue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from headroom.engine.capacity.partitions import servers_needed
from headroom.engine.capacity.sla import LoadCurve, max_rate_per_s
from headroom.engine.recommend import wording as w
from headroom.engine.recommend.model import Confidence, Link, Recommendation

CLASS_GAP = 0.8  # tighter / looser MaxRate at or under this calls for admission by class
IDLE_UTILIZATION = 0.6  # under this mean share of the capacity, idle capacity is worth using
GOOD_FIT_R2 = 0.8  # a power-ratio fit under this R² is a weak fit

Doc = Mapping[str, Any]


@dataclass(frozen=True)
class SlaFigures:
    """MaxRate(T) and MaxConn(T) of one class at a threshold T."""

    threshold_s: float
    rate_per_s: float
    max_conn: float
    capped: bool  # T is above the whole curve: the rate is only a lower bound


def load_curve(points: list[Doc]) -> LoadCurve:
    """The curve the SLA figures are read from: sorted by load, measured points at their
    isotonic fit, latency made non-decreasing, concurrency by Little's law when absent."""
    ordered = sorted(points, key=lambda p: float(p["load_per_s"]))
    load = np.array([float(p["load_per_s"]) for p in ordered])
    raw = [
        float(p["latency_fit_s"])
        if p.get("source") == "measured" and p.get("latency_fit_s") is not None
        else float(p["latency_s"])
        for p in ordered
    ]
    latency = np.maximum.accumulate(np.array(raw)) if raw else np.array([])
    concurrency = np.array(
        [
            float(p["concurrency"]) if p.get("concurrency") is not None else x * y
            for p, x, y in zip(ordered, load, latency, strict=True)
        ]
    )
    return LoadCurve(
        load_per_s=load,
        latency_s=latency,
        throughput_per_s=np.array([float(p.get("throughput_per_s") or 0.0) for p in ordered]),
        concurrency=concurrency,
        is_model=np.array([p.get("source") == "model" for p in ordered], dtype=bool),
    )


def sla_figures(points: list[Doc], threshold_s: float) -> SlaFigures:
    curve = load_curve(points)
    rate, capped = max_rate_per_s(curve, threshold_s)
    conn = curve.concurrency_at(rate) if rate > 0 else 0.0
    return SlaFigures(threshold_s, rate, conn, capped)


def default_thresholds(report: Doc) -> dict[str, float]:
    """Per class the threshold the analysis chose (its SLA), else the knee's latency."""
    out = {}
    for name, cls in report.get("classes", {}).items():
        sla, knee = cls.get("sla") or {}, cls.get("knee") or {}
        threshold = sla.get("threshold_s") or knee.get("latency_s")
        if threshold:
            out[name] = float(threshold)
    return out


def capacity_recommendations(
    report: Doc, percentile: float, thresholds_s: Mapping[str, float]
) -> list[Recommendation]:
    """Every class at its threshold, then the power ratio, admission by class, background
    work and the virtual queue. A class without a threshold in ``thresholds_s`` is left out."""
    classes = report.get("classes", {})
    recs = [
        rec
        for name in classes
        if name in thresholds_s
        for rec in class_recommendations(name, report, percentile, thresholds_s[name])
    ]
    recs += power_recommendation(report)
    recs += class_policy_recommendation(report, percentile, thresholds_s)
    recs += background_recommendation(report)
    recs += virtual_queue_recommendation(report)
    return recs


def class_recommendations(
    name: str, report: Doc, percentile: float, threshold_s: float
) -> list[Recommendation]:
    """MaxRate(T), MaxConn(T) and the servers the class's peak needs."""
    cls = report["classes"].get(name)
    if cls is None or not cls.get("curve"):
        return []
    f = sla_figures(cls["curve"], threshold_s)
    p = w.percentile_label(percentile)
    where = "each server" if report.get("per_server") else "the site"
    prefix = f"{name}: " if len(report["classes"]) > 1 else ""
    if f.rate_per_s <= 0:
        text = (
            f"{prefix}No observed load holds {p} under {w.latency(threshold_s)}; "
            "raise the threshold or make requests faster."
        )
        return [Recommendation(f"{name}-none", name, text, "measured", "knee-chart")]
    measured = [float(c["load_per_s"]) for c in cls["curve"] if c.get("source") == "measured"]
    confidence: Confidence = (
        "lower bound"
        if f.capped
        else "model"
        if f.rate_per_s > max([0.0, *measured]) + 1e-9
        else "measured"
    )
    recs = [
        Recommendation(
            f"{name}-rate",
            name,
            f"{prefix}Keep {where} under {w.rate_per_s(f.rate_per_s)} to hold {p} under "
            f"{w.latency(threshold_s)}.",
            confidence,
            "knee-chart",
        ),
        Recommendation(
            f"{name}-conn",
            name,
            f"{prefix}Cap {where} at {w.decimal(f.max_conn, 1)} concurrent connections to "
            "hold that target.",
            confidence,
            "knee-chart",
        ),
    ]
    peak = float(cls.get("peak_load_per_s") or 0.0)
    if peak >= 0:
        servers = servers_needed(peak, f.rate_per_s)
        plural = "server" if servers == 1 else "servers"
        recs.append(
            Recommendation(
                f"{name}-servers",
                name,
                f"{prefix}Run {servers} {plural} to serve the observed peak of "
                f"{w.rate_per_s(peak)} within the target.",
                confidence,
                "knee-chart",
            )
        )
    return recs


def _power_confidence(report: Doc) -> Confidence:
    capacity = report.get("capacity")
    return "measured" if capacity and capacity["r2"] >= GOOD_FIT_R2 else "weak fit"


def power_recommendation(report: Doc) -> list[Recommendation]:
    capacity = report.get("capacity")
    if capacity is None:
        return []
    text = (
        f"Throughput per unit of latency peaks at "
        f"{w.rate_per_s(capacity['power_peak_load_per_s'])} (power ratio, R² "
        f"{w.decimal(capacity['r2'], 2)}): beyond it, extra load costs more latency than it "
        "adds throughput."
    )
    return [Recommendation("power", "", text, _power_confidence(report), "power")]


def class_policy_recommendation(
    report: Doc, percentile: float, thresholds_s: Mapping[str, float]
) -> list[Recommendation]:
    """When two classes' SLA limits differ (tighter at most CLASS_GAP of looser), admission
    by class protects the tighter one under overload (SwitchAdm, StaticPart, DynamicPart)."""
    limits = []
    for name, cls in report.get("classes", {}).items():
        if name == "all" or name not in thresholds_s or not cls.get("curve"):
            continue
        f = sla_figures(cls["curve"], thresholds_s[name])
        if f.rate_per_s > 0:
            limits.append((name, f))
    if len(limits) < 2:
        return []
    ordered = sorted(limits, key=lambda item: item[1].rate_per_s)
    (tight_name, tight), (loose_name, loose) = ordered[0], ordered[-1]
    if tight.rate_per_s > CLASS_GAP * loose.rate_per_s:
        return []
    p = w.percentile_label(percentile)
    loose_t = (
        "" if loose.threshold_s == tight.threshold_s else f" (under {w.latency(loose.threshold_s)})"
    )
    text = (
        f"{tight_name} requests hold {p} under {w.latency(tight.threshold_s)} only up to "
        f"{w.rate_per_s(tight.rate_per_s)}, {loose_name} up to {w.rate_per_s(loose.rate_per_s)}"
        f"{loose_t}: admission by class (SwitchAdm, StaticPart, DynamicPart) keeps "
        f"{tight_name} within its SLA when load passes {w.rate_per_s(tight.rate_per_s)}."
    )
    confidence: Confidence = "lower bound" if tight.capped or loose.capped else "model"
    link = Link("/policies/classes", "Compare class policies")
    return [Recommendation("class-policies", tight_name, text, confidence, "knee-chart", link)]


def mean_load_per_s(report: Doc) -> float | None:
    """The time-weighted mean load of the measured windows (each measured point of the
    all-requests curve is a load bin of ``windows`` windows)."""
    curve = (report.get("classes", {}).get("all") or {}).get("curve") or []
    points = [c for c in curve if c.get("source") == "measured" and (c.get("windows") or 0) > 0]
    windows = sum(int(c["windows"]) for c in points)
    if windows == 0:
        return None
    return sum(float(c["load_per_s"]) * int(c["windows"]) for c in points) / windows


def background_recommendation(report: Doc) -> list[Recommendation]:
    """When the mean load uses little of the power-ratio capacity, background work can use
    the rest with a reservation that yields to the foreground."""
    capacity = (report.get("capacity") or {}).get("power_peak_load_per_s")
    mean = mean_load_per_s(report)
    if capacity is None or not capacity > 0 or mean is None:
        return []
    used = mean / capacity
    if used >= IDLE_UTILIZATION:
        return []
    peak = (report.get("classes", {}).get("all") or {}).get("peak_load_per_s")
    peak_text = (
        f", and even the peak of {w.rate_per_s(peak)} leaves {w.percent(1 - peak / capacity, 0)}"
        if peak is not None and peak < capacity
        else ""
    )
    text = (
        f"The mean load of {w.rate_per_s(mean)} uses {w.percent(used, 0)} of the "
        f"{w.rate_per_s(capacity)} capacity (power-ratio peak){peak_text}: background work "
        f"can take the idle {w.percent(1 - used, 0)} with a reservation that yields to the "
        "foreground."
    )
    link = Link("/policies/background", "Plan background work")
    return [Recommendation("background", "", text, _power_confidence(report), "power", link)]


def virtual_queue_recommendation(report: Doc) -> list[Recommendation]:
    """The virtual queue at the power-ratio capacity C, its latency X off the all-requests
    knee curve, and the longest wait W it would tell a user at the peak."""
    vq = report.get("virtual_queue")
    if not vq or not isinstance(vq.get("capacity_per_s"), int | float):
        return []
    text = (
        f"A virtual queue with capacity {w.rate_per_s(vq['capacity_per_s'])} keeps response "
        f"time under {w.latency(vq['latency_s'])} ({w.percentile_label(vq['percentile'])}); "
        f"the longest wait at your peak would be {w.duration(vq['max_wait_s'])}."
    )
    source = vq.get("latency_source")
    confidence: Confidence = source if source in ("measured", "model") else "lower bound"
    class_name = "all" if "all" in report.get("classes", {}) else ""
    link = Link("/policies/virtual-queue", "Try a virtual queue")
    return [Recommendation("virtual-queue", class_name, text, confidence, "knee-chart", link)]
