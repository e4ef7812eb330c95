"""The key numbers of a stored result document, for lists (no engine import: API side)."""

from typing import Any


def key_numbers(document: dict[str, Any]) -> dict[str, Any] | None:
    """A run's summary; for a sweep, its size and its best run: the cheapest without SLA
    violations (the cheapest of all when none is free of them, or without an SLA)."""
    if document.get("kind") == "run":
        summary: dict[str, Any] = document["summary"]
        return summary
    runs = document.get("runs") or []
    if not runs:
        return None
    clean = [r for r in runs if r.get("sla_violation_fraction") == 0]
    best = min(clean or runs, key=lambda r: r.get("cost") or 0.0)
    return {
        "runs": len(runs),
        "axes": [axis["path"] for axis in document.get("axes", [])],
        "best": {"values": best["values"], **best["summary"]},
    }
