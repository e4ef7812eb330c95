"""Workload characterization (spec: workload.md): from a request table to a workload model.

Typical use::

    result = characterize(table)          # classify, arrivals, sessions/pages, fits, model
    result.to_dict()                      # the `headroom characterize --json` contract
    result.model.scenario_workload(...)   # a simulation scenario's `workload` section

Modules: ``classify`` (rules as data, :func:`apply_rules`), ``arrivals`` (series at
1 s/10 s/60 s/1 h, stats, daily profile), ``latency`` (percentiles overall, per class,
per path group, per minute), ``sessions`` (sessions and pages), ``fitting`` and
``bodytail`` (MLE, AIC, KS, CIs; lognormal-Pareto splice), ``histogram`` (binned
values with the fitted pdf), ``model`` (the versioned
document and its JSON Schema), ``characterization`` (the pipeline), ``traffic`` (the
upload-time traffic summary).
"""

from .arrivals import ArrivalStats, arrival_series, arrival_stats, daily_profile, stats_by_class
from .characterization import Characterization, characterize
from .classify import Rule, Rules, RuleSet, apply_rules, default_rules, rules_schema
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
from .sessions import SessionSettings, annotate, object_gaps_s, pages, sessions, think_times_s

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
