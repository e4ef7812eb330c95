"""A characterization's report item per dataset tab: workload (the default), traffic and
latency, their figures and charts read back against the document they were made from."""

from typing import Any

import pytest
from reports.report_sources import Documents

from headroom.characterizations.documents import CharacterizationDoc
from headroom.engine.workload import Rules
from headroom.reports.snapshot_characterization import characterization_view
from headroom.reports.snapshots import SnapshotError

T0_MS = 1_700_000_000_000


def columns(p95: list[float | None]) -> dict[str, Any]:
    n = len(p95)
    return {
        "t_ms": [T0_MS + 60_000 * i for i in range(n)],
        "count": [10] * n,
        **{f"{k}_s": [v and v * f for v in p95] for k, f in (("p50", 0.5), ("p90", 0.9))},
        "p95_s": p95,
        "p99_s": [v and v * 1.2 for v in p95],
        "max_s": [v and v * 2 for v in p95],
    }


def arrivals(every_s: int, counts: list[int]) -> dict[str, Any]:
    return {
        "every_s": every_s,
        "stats": {
            "every_s": every_s,
            "buckets": len(counts),
            "total": sum(counts),
            "peak": max(counts),
            "trough": min(counts),
            "mean": sum(counts) / len(counts),
            "peak_to_mean": max(counts) * len(counts) / sum(counts),
        },
        "downsampled": False,
        "t_ms": [T0_MS + 1000 * every_s * i for i in range(len(counts))],
        "count": counts,
        "by_class": {},
    }


def document(documents: Documents, latency: bool = True) -> CharacterizationDoc:
    display = {
        "arrivals": {"1": arrivals(1, [1, 0, 2]), "60": arrivals(60, [30, 45])},
        "default_every_s": 60,
        "daily_profile": None,
        "latency": {"every_s": 60, "overall": columns([0.2, None, 0.4]), "by_class": {}}
        if latency
        else None,
        "paths": [],
        "pages_per_session": None,
    }
    return CharacterizationDoc.model_validate({**documents.characterization, "display": display})


def rules(documents: Documents) -> Rules:
    return Rules.model_validate(documents.rules)


def figures(content: Any) -> dict[str, float | None]:
    return {f.key: f.value for f in content.figures}


def test_the_traffic_view_draws_the_default_interval(documents: Documents) -> None:
    doc = document(documents)
    content = characterization_view(doc, rules(documents), "traffic")
    assert figures(content)["requests"] == documents.characterization["requests"]
    assert figures(content)["peak_rate"] == documents.characterization["arrivals"]["peak_per_min"]
    (chart,) = content.charts
    assert chart.title == "Requests per 60 s" and chart.x_unit == "time"
    assert chart.series[0].x == [T0_MS / 1000, T0_MS / 1000 + 60]
    assert chart.series[0].y == [30, 45]


def test_the_latency_view_keeps_its_gaps(documents: Documents) -> None:
    content = characterization_view(document(documents), rules(documents), "latency")
    stats = documents.characterization["latency"]
    assert figures(content) == {
        f"latency_{k}": stats[f"{k}_s"] for k in ("p50", "p90", "p95", "p99")
    }
    p95 = next(s for s in content.charts[0].series if s.key == "p95")
    assert p95.y == [0.2, None, 0.4]  # a minute without timed requests is a gap, not 0


def test_the_workload_is_the_default_and_unknown_views_are_refused(documents: Documents) -> None:
    doc = document(documents)
    assert characterization_view(doc, rules(documents), None) == characterization_view(
        doc, rules(documents), "workload"
    )
    with pytest.raises(SnapshotError, match="pick one of workload, traffic, latency"):
        characterization_view(doc, rules(documents), "paths")
    with pytest.raises(SnapshotError, match="records no response times"):
        characterization_view(document(documents, latency=False), rules(documents), "latency")
