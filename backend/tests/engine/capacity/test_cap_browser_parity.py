"""The SLA and partition formulas exist twice: the engine (capacity/sla.py read through
recommend.capacity.load_curve, capacity/partitions.py) and the browser, which answers the
SLA handle and the partition sliders without a round trip (frontend/src/features/capacity/
slaMath.ts, partitionMath.ts). This file generates the parity fixture, inputs and what the
engine gives for them, that capacityMath.parity.test.ts checks the TypeScript against; the
test below requires the checked-in file to be byte-identical. Regenerate after a change to
the engine's formulas:

    .venv/bin/python backend/tests/engine/capacity/test_cap_browser_parity.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from headroom.engine.capacity.partitions import max_top_fraction, servers_needed, static_partition
from headroom.engine.recommend.capacity import sla_figures

FIXTURE = (
    Path(__file__).resolve().parents[4] / "frontend/src/features/capacity/capacityMath.parity.json"
)


def _point(load: float, latency: float, source: str, **extra: Any) -> dict[str, Any]:
    return {"load_per_s": load, "latency_s": latency, "source": source, **extra}


# Knee curves in the report's shape: measured points with an isotonic fit, a dip the
# running maximum flattens, model points past the data, points without concurrency.
CURVES: list[list[dict[str, Any]]] = [
    [
        _point(10, 0.1, "measured", latency_fit_s=0.1, concurrency=1),
        _point(20, 0.2, "measured", latency_fit_s=0.2, concurrency=4),
        _point(30, 0.5, "measured", latency_fit_s=0.5, concurrency=15),
        _point(35, 1.0, "model", concurrency=35),
        _point(40, 2.0, "model", concurrency=80),
    ],
    [
        _point(5, 0.05, "measured", latency_fit_s=0.04),
        _point(15, 0.03, "measured", latency_fit_s=0.045),
        _point(25, 0.2, "measured", latency_fit_s=0.18),
        _point(12, 0.06, "measured", latency_fit_s=0.05),
    ],
    [
        _point(100, 0.012, "measured", latency_fit_s=0.012, concurrency=1.2),
        _point(400, 0.013, "measured", latency_fit_s=0.013, concurrency=5.2),
        _point(800, 0.09, "model"),
    ],
]
THRESHOLDS_S = [0.001, 0.012, 0.03, 0.05, 0.1, 0.15, 0.2, 0.35, 0.5, 0.75, 1.5, 5.0]
PARTITIONS = [
    (servers, top, safety)
    for servers in (2, 3, 10, 64)
    for top in (0.0, 0.05, 0.2, 0.3, 0.5, 0.95, 1.0)
    for safety in (0.1, 18 / 26, 0.5, 1.0)
]
PEAKS = [(45.0, 20.0), (40.0, 20.0), (0.0, 7.0), (1000.0, 3.3)]


def fixture_text() -> str:
    sla = [
        {
            "curve": curve,
            "figures": [
                {
                    "threshold_s": t,
                    "rate_per_s": f.rate_per_s,
                    "max_conn": f.max_conn,
                    "capped": f.capped,
                }
                for t in THRESHOLDS_S
                for f in [sla_figures(curve, t)]
            ],
        }
        for curve in CURVES
    ]
    partitions = []
    for servers, top, safety in PARTITIONS:
        part = static_partition(servers, top, safety, 1.0)
        partitions.append(
            {
                "servers": servers,
                "top_fraction": top,
                "safety": safety,
                "k": part.k,
                "k_formula": part.k_formula,
                "cannot_meet": part.warning is not None,
                "max_top_fraction": max_top_fraction(servers, safety, 1.0),
            }
        )
    servers = [
        {"peak_per_s": peak, "max_rate_per_s": rate, "servers": servers_needed(peak, rate)}
        for peak, rate in PEAKS
    ]
    document = {
        "generated_by": "backend/tests/engine/capacity/test_cap_browser_parity.py",
        "sla": sla,
        "partitions": partitions,
        "servers_needed": servers,
    }
    return json.dumps(document, indent=1) + "\n"


def test_the_checked_in_fixture_is_what_the_engine_gives() -> None:
    assert FIXTURE.read_text() == fixture_text(), f"regenerate {FIXTURE.name}: see the docstring"


def test_the_fixture_covers_every_regime() -> None:
    document = json.loads(fixture_text())
    figures = [f for case in document["sla"] for f in case["figures"]]
    assert any(f["capped"] for f in figures) and any(f["rate_per_s"] == 0 for f in figures)
    assert any(f["rate_per_s"] > 0 and not f["capped"] for f in figures)
    assert any(p["cannot_meet"] for p in document["partitions"])
    assert any(p["k"] != p["k_formula"] for p in document["partitions"])


if __name__ == "__main__":
    FIXTURE.write_text(fixture_text())
    print(f"wrote {FIXTURE}")
