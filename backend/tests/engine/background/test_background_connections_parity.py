"""The connections-vs-streams formulas exist twice: the engine (connections.py) and the
calculator page (frontend/src/features/policies/connections.ts). This file generates the
parity fixture, inputs in the page's units and every rate the engine gives for them, that
connections.parity.test.ts checks the TypeScript against; the test below regenerates it and
requires the checked-in file to be byte-identical, so the fixture cannot drift from the
engine. Regenerate after a change to the engine's formulas:

    .venv/bin/python backend/tests/engine/background/test_background_connections_parity.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from headroom.engine.background.connections import LinkParams, h1_rate, h2_rate

FIXTURE = (
    Path(__file__).resolve().parents[4] / "frontend/src/features/policies/connections.parity.json"
)
SIZES_BYTES = [100.0, 1_000.0, 15_000.0, 100_000.0, 1_000_000.0, 10_000_000.0]
# The page's inputs (LinkInputs): its defaults, then each field moved to stress a regime.
DEFAULT = {
    "rttMs": 100.0,
    "bandwidthMbitPerS": 80.0,
    "h1Connections": 6,
    "h2Streams": 12,
    "h1HeaderBytes": 500.0,
    "h2HeaderBytes": 50.0,
    "otherConnections": 94,
}
VARIANTS: list[dict[str, Any]] = [
    {},
    {"rttMs": 5.0},
    {"rttMs": 400.0, "bandwidthMbitPerS": 1000.0},
    {"bandwidthMbitPerS": 2.0},
    {"h1Connections": 1, "h2Streams": 1},
    {"h1Connections": 32, "h2Streams": 100, "otherConnections": 0},
    {"h1HeaderBytes": 0.0, "h2HeaderBytes": 0.0, "otherConnections": 3},
]


def _link(inputs: dict[str, Any], shared: bool) -> LinkParams:
    """The page's units to the engine's: ms -> s, Mbit/s -> bytes/s, alone = no others."""
    return LinkParams(
        rtt_s=inputs["rttMs"] / 1000,
        bandwidth_bytes_per_s=inputs["bandwidthMbitPerS"] * 1e6 / 8,
        h1_connections=inputs["h1Connections"],
        h2_streams=inputs["h2Streams"],
        h1_header_bytes=inputs["h1HeaderBytes"],
        h2_header_bytes=inputs["h2HeaderBytes"],
        other_connections=inputs["otherConnections"] if shared else 0,
    )


def _case(inputs: dict[str, Any]) -> dict[str, Any]:
    alone, shared = _link(inputs, False), _link(inputs, True)
    rates = {
        "h1": h1_rate(SIZES_BYTES, alone),
        "h2": h2_rate(SIZES_BYTES, alone),
        "h1Shared": h1_rate(SIZES_BYTES, shared),
        "h2Shared": h2_rate(SIZES_BYTES, shared),
    }
    return {"link": inputs, "rates": {k: [float(x) for x in v] for k, v in rates.items()}}


def fixture_text() -> str:
    cases = [_case({**DEFAULT, **variant}) for variant in VARIANTS]
    document = {
        "generated_by": "backend/tests/engine/background/test_background_connections_parity.py",
        "sizes_bytes": SIZES_BYTES,
        "cases": cases,
    }
    return json.dumps(document, indent=1) + "\n"


def test_the_checked_in_fixture_is_what_the_engine_gives() -> None:
    assert FIXTURE.read_text() == fixture_text(), f"regenerate {FIXTURE.name}: see the docstring"


def test_the_fixture_covers_both_regimes() -> None:
    """Latency-limited (rate = inflight x S / RTT) and bandwidth-limited points both occur,
    so the parity covers each side of the min()."""
    document = json.loads(fixture_text())
    latency, bandwidth = 0, 0
    for case in document["cases"]:
        link = case["link"]
        for size, rate in zip(document["sizes_bytes"], case["rates"]["h1"], strict=True):
            k = link["h1Connections"]
            if abs(rate - k * size / (link["rttMs"] / 1000)) < 1e-9 * rate:
                latency += 1
            else:
                bandwidth += 1
    assert latency > 0 and bandwidth > 0


if __name__ == "__main__":
    FIXTURE.write_text(fixture_text())
    print(f"wrote {FIXTURE}")
