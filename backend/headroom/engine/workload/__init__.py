"""Workload characterization (docs/methods/workload.md): from a request table to a workload model.

Typical use::

    result = characterize(table)          # classify, arrivals, sessions/pages, fits, model
    result.to_dict()                      # the `headroom characterize --json` contract
    result.model.scenario_workload(...)   # a simulation scenario's `workload` section

Modules: ``rules`` (rules as data; light), ``classify`` (:func:`apply_rules`),
``arrivals`` (series at 1 s/10 s/60 s/1 h, stats, daily profile), ``latency``
(percentiles overall, per class, per path group, per minute), ``sessions`` (sessions and
pages), ``fitting`` and ``bodytail`` (MLE, AIC, KS, CIs; lognormal-Pareto splice),
``histogram`` (binned values with the fitted pdf), ``model`` (the versioned document and
its JSON Schema), ``characterization`` (the pipeline), ``traffic`` (the
upload-time traffic summary), ``display`` (the chart data of a characterization).

The package imports lazily (PEP 562): ``from headroom.engine.workload import Rules``
loads only the light ``rules`` module, so the API process never pulls polars or numba
in through the rules or the model schema.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .arrivals import ArrivalStats, arrival_series, arrival_stats, daily_profile, stats_by_class
    from .characterization import Characterization, characterize
    from .classify import apply_rules
    from .fitting import FAMILIES, Fit, FitReport, bootstrap_ci, fit_distribution, fit_family
    from .histogram import Histogram, histogram
    from .latency import latency_by_path, latency_over_time, latency_percentiles
    from .model import (
        MODEL_VERSION,
        ClassModel,
        ModelError,
        WorkloadModel,
        load_workload_model,
        workload_model_schema,
    )
    from .rules import Rule, Rules, RuleSet, default_rules, rules_schema
    from .sessions import SessionSettings, annotate, object_gaps_s, pages, sessions, think_times_s

_MODULE_OF: dict[str, str] = {
    **dict.fromkeys(
        ("ArrivalStats", "arrival_series", "arrival_stats", "daily_profile", "stats_by_class"),
        "arrivals",
    ),
    **dict.fromkeys(("Characterization", "characterize"), "characterization"),
    **dict.fromkeys(("Rule", "Rules", "RuleSet", "default_rules", "rules_schema"), "rules"),
    **dict.fromkeys(("apply_rules",), "classify"),
    **dict.fromkeys(
        ("FAMILIES", "Fit", "FitReport", "bootstrap_ci", "fit_distribution", "fit_family"),
        "fitting",
    ),
    **dict.fromkeys(("Histogram", "histogram"), "histogram"),
    **dict.fromkeys(("latency_by_path", "latency_over_time", "latency_percentiles"), "latency"),
    **dict.fromkeys(
        (
            "MODEL_VERSION",
            "ClassModel",
            "ModelError",
            "WorkloadModel",
            "load_workload_model",
            "workload_model_schema",
        ),
        "model",
    ),
    **dict.fromkeys(
        ("SessionSettings", "annotate", "object_gaps_s", "pages", "sessions", "think_times_s"),
        "sessions",
    ),
}

__all__ = [
    "FAMILIES",
    "MODEL_VERSION",
    "ArrivalStats",
    "Characterization",
    "ClassModel",
    "Fit",
    "FitReport",
    "Histogram",
    "ModelError",
    "Rule",
    "RuleSet",
    "Rules",
    "SessionSettings",
    "WorkloadModel",
    "annotate",
    "apply_rules",
    "arrival_series",
    "arrival_stats",
    "bootstrap_ci",
    "characterize",
    "daily_profile",
    "default_rules",
    "fit_distribution",
    "fit_family",
    "histogram",
    "latency_by_path",
    "latency_over_time",
    "latency_percentiles",
    "load_workload_model",
    "object_gaps_s",
    "pages",
    "rules_schema",
    "sessions",
    "stats_by_class",
    "think_times_s",
    "workload_model_schema",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
