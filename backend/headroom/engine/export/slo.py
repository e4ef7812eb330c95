"""The SLA as an SLO: "the p-th percentile of latency stays under T" is "at least p% of
requests finish within T", a ratio of Prometheus histogram counters. Sloth (prometheus/v1)
and OpenSLO specs, and the recording and multi-window burn-rate alerting rules (the
Google SRE workbook's page and ticket pairs over a 30-day budget) Sloth generates."""

from __future__ import annotations

from headroom.engine.export.figures import SlaFigures
from headroom.engine.export.model import ExportFile, ExportOptions
from headroom.engine.export.yaml_text import dump, dump_all

YAML = "application/yaml"
WINDOWS = ("5m", "30m", "1h", "2h", "6h", "1d", "3d")
PERIOD = "30d"
# (severity, long window, short window, burn rate) pairs: an alert fires when both windows
# burn the budget that fast (2% of a 30-day budget in 1 h at 14.4, 5% in 6 h at 6, ...).
BURNS = (
    ("page", "1h", "5m", 14.4),
    ("page", "6h", "30m", 6.0),
    ("ticket", "1d", "2h", 3.0),
    ("ticket", "3d", "6h", 1.0),
)


def _queries(sla: SlaFigures, o: ExportOptions, window: str) -> tuple[str, str]:
    """(errors, total): requests slower than T, and all requests, per second."""
    selector = f'namespace="{o.namespace}",service="{o.deployment}"'
    total = f"sum(rate({o.latency_metric}_count{{{selector}}}[{window}]))"
    good = f'sum(rate({o.latency_metric}_bucket{{{selector},le="{sla.threshold_s:g}"}}[{window}]))'
    return f"({total} - {good})", total


def _name(o: ExportOptions) -> str:
    return f"{o.deployment}-latency"


def sloth(sla: SlaFigures, o: ExportOptions) -> str:
    errors, total = _queries(sla, o, "{{.window}}")
    slo = {
        "name": "latency",
        "objective": sla.percentile,
        "description": f"p{sla.percentile:g} latency under {sla.threshold_s:g} s",
        "sli": {"events": {"error_query": errors, "total_query": total}},
        "alerting": {
            "name": f"{o.deployment.capitalize()}LatencySLO",
            "page_alert": {"labels": {"severity": "page"}},
            "ticket_alert": {"labels": {"severity": "ticket"}},
        },
    }
    return dump({"version": "prometheus/v1", "service": o.deployment, "slos": [slo]})


def openslo(sla: SlaFigures, o: ExportOptions) -> str:
    errors, total = _queries(sla, o, "1m")
    good = f"{total} - {errors}"
    source = {"type": "Prometheus", "spec": {"query": good}}
    ratio = {
        "counter": False,
        "good": {"metricSource": source},
        "total": {"metricSource": {"type": "Prometheus", "spec": {"query": total}}},
    }
    slo = {
        "apiVersion": "openslo/v1",
        "kind": "SLO",
        "metadata": {"name": _name(o), "displayName": f"{o.deployment} latency"},
        "spec": {
            "service": o.deployment,
            "indicator": {
                "metadata": {"name": f"{_name(o)}-within"},
                "spec": {"ratioMetric": ratio},
            },
            "timeWindow": [{"duration": PERIOD, "isRolling": True}],
            "budgetingMethod": "Occurrences",
            "objectives": [
                {
                    "displayName": f"within {sla.threshold_s:g} s",
                    "target": round(sla.percentile / 100, 6),
                }
            ],
        },
    }
    return dump_all([slo])


def _labels(o: ExportOptions) -> dict[str, str]:
    return {"sloth_service": o.deployment, "sloth_slo": "latency"}


def _record(window: str) -> str:
    return f"slo:sli_error:ratio_rate{window}"


def _burning(window: str, selector: str, ratio: float) -> str:
    return f"max({_record(window)}{{{selector}}} > {ratio:.6g}) without (sloth_window)"


def rules(sla: SlaFigures, o: ExportOptions) -> str:
    budget = round(1 - sla.percentile / 100, 9)
    selector = ",".join(f'{k}="{v}"' for k, v in _labels(o).items())
    recordings = []
    for window in WINDOWS:
        errors, total = _queries(sla, o, window)
        labels = {**_labels(o), "sloth_window": window}
        recordings.append(
            {"record": _record(window), "expr": f"{errors} / {total}", "labels": labels}
        )
    alerts = []
    for severity in ("page", "ticket"):
        pairs = [b for b in BURNS if b[0] == severity]
        expr = " or ".join(
            f"({_burning(long, selector, rate * budget)} and "
            f"{_burning(short, selector, rate * budget)})"
            for _, long, short, rate in pairs
        )
        alerts.append(
            {
                "alert": f"{o.deployment.capitalize()}LatencySLOBurn{severity.capitalize()}",
                "expr": expr,
                "labels": {"severity": severity, **_labels(o)},
                "annotations": {
                    "summary": f"{o.deployment} burns its latency error budget "
                    f"(p{sla.percentile:g} under {sla.threshold_s:g} s)"
                },
            }
        )
    meta = [
        {
            "record": "slo:objective:ratio",
            "expr": f"vector({sla.percentile / 100:g})",
            "labels": _labels(o),
        },
        {"record": "slo:error_budget:ratio", "expr": f"vector({budget:g})", "labels": _labels(o)},
    ]
    groups = [
        {"name": f"{_name(o)}-sli-recordings", "rules": recordings},
        {"name": f"{_name(o)}-meta-recordings", "rules": meta},
        {"name": f"{_name(o)}-alerts", "rules": alerts},
    ]
    return dump({"groups": groups})


def slo(sla: SlaFigures, o: ExportOptions) -> ExportFile:
    text = {"sloth": sloth, "openslo": openslo, "rules": rules}[o.slo_format](sla, o)
    name = {"sloth": "sloth", "openslo": "openslo", "rules": "rules"}[o.slo_format]
    note = (
        f"The SLA as an SLO: {sla.percentile:g}% of {o.deployment}'s requests within "
        f"{sla.threshold_s:g} s over {PERIOD}, read from the histogram {o.latency_metric} "
        f'(it needs a bucket le="{sla.threshold_s:g}"). Formats: sloth, openslo, rules (Prometheus '
        "recording and multi-window burn-rate alerts)."
    )
    return ExportFile("slo", text, YAML, f"{_name(o)}.{name}.yaml", note)
