import { describe, expect, it } from "vitest";
import { DEFAULT_LINK, curveRows, h1Rate, h2Rate, linkProblems } from "./connections";

// The same hand-worked values as backend/tests/engine/background/test_background_connections.py:
// RTT 100 ms, 10 MB/s (80 Mbit/s), k = 6 with 500 B headers, R = 12 with 50 B headers.
const LINK = { ...DEFAULT_LINK, rttMs: 100, bandwidthMbitPerS: 80, h1Connections: 6, h2Streams: 12 };

describe("connections vs streams", () => {
  it("is latency-limited for small payloads: R x S / RTT", () => {
    expect(h1Rate(1000, LINK)).toBeCloseTo(60_000, 6);
    expect(h2Rate(1000, LINK)).toBeCloseTo(120_000, 6);
  });

  it("is bandwidth-limited for large payloads: B x S / (S + H)", () => {
    expect(h1Rate(1e6, LINK)).toBeCloseTo((10e6 * 1e6) / 1.0005e6, 3);
    expect(h2Rate(1e6, LINK)).toBeCloseTo((10e6 * 1e6) / 1.00005e6, 3);
  });

  it("moves toward the connection-count ratio on a shared bottleneck", () => {
    const same = { ...LINK, h2Streams: 6, otherConnections: 94 };
    expect(h1Rate(100, same, true) / h2Rate(100, same, true)).toBeCloseTo(1, 9);
    const ratio = h1Rate(10e6, same, true) / h2Rate(10e6, same, true);
    expect(ratio).toBeCloseTo(((6 / 100) / (1 / 95)) * ((10e6 + 50) / (10e6 + 500)), 9);
  });

  it("plots log10 values from 100 B to 10 MB", () => {
    const rows = curveRows(LINK, 5);
    expect(rows.map((r) => r.x)).toEqual([2, 3.25, 4.5, 5.75, 7]);
    expect(rows[0]?.h2).toBeCloseTo(Math.log10(12_000), 9);
  });

  it("names bad inputs by field", () => {
    expect(linkProblems(LINK)).toEqual({});
    expect(linkProblems({ ...LINK, rttMs: 0, h1Connections: 1.5 })).toEqual({
      rttMs: "RTT must be above 0 ms",
      h1Connections: "at least 1 connection",
    });
  });
});
