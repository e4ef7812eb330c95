"""Recommendations: one sentence each, with its number, the chart that shows the evidence,
a confidence and a page to act on it, computed from a capacity report (per request class at
the user's SLA thresholds) or an SCT report (per server)."""

from headroom.engine.recommend.capacity import capacity_recommendations, default_thresholds
from headroom.engine.recommend.concurrency import concurrency_scenario, sct_recommendation
from headroom.engine.recommend.model import Link, Recommendation

__all__ = [
    "Link",
    "Recommendation",
    "capacity_recommendations",
    "concurrency_scenario",
    "default_thresholds",
    "sct_recommendation",
]
