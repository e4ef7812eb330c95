import { describe, expect, it } from "vitest";
import type { CurvePoint } from "../../api/models";
import { kneeClass } from "../../test/capacityFixtures";
import {
  interpolate,
  maxConnAt,
  maxRateAt,
  niceCeil,
  serversNeeded,
  slaCurve,
  slaFigures,
  thresholdForKey,
  thresholdRange,
} from "./slaMath";

// Hand-worked: latency 0.1 / 0.2 / 0.5 / 1 / 2 s at 10 / 20 / 30 / 35 / 40 req/s,
// concurrency 1 / 4 / 15 / 35 / 80.
const curve = slaCurve(kneeClass().curve);

describe("MaxRate(T)", () => {
  it("interpolates between the two points around the crossing", () => {
    // 10 + (0.15 - 0.1) / (0.2 - 0.1) x (20 - 10) = 15
    expect(maxRateAt(curve, 0.15)).toEqual({ rate_per_s: 15, capped: false, below: false });
    // 20 + (0.35 - 0.2) / (0.5 - 0.2) x 10 = 25
    expect(maxRateAt(curve, 0.35).rate_per_s).toBeCloseTo(25, 12);
    // on the model part: 35 + (1.5 - 1) / (2 - 1) x 5 = 37.5
    expect(maxRateAt(curve, 1.5).rate_per_s).toBeCloseTo(37.5, 12);
  });

  it("is the point's load when T equals a point's latency", () => {
    expect(maxRateAt(curve, 0.2).rate_per_s).toBe(20);
    expect(maxRateAt(curve, 0.1).rate_per_s).toBe(10);
  });

  it("is 0 when T is below the first point (no observed load meets it)", () => {
    expect(maxRateAt(curve, 0.05)).toEqual({ rate_per_s: 0, capped: false, below: true });
    expect(maxConnAt(curve, 0)).toBe(0);
  });

  it("is the last load, marked capped, when T is above the last point", () => {
    expect(maxRateAt(curve, 5)).toEqual({ rate_per_s: 40, capped: true, below: false });
  });

  it("is 0 on an empty curve", () => {
    expect(maxRateAt(slaCurve([]), 1)).toEqual({ rate_per_s: 0, capped: false, below: false });
  });
});

describe("MaxConn(T)", () => {
  it("reads the concurrency at MaxRate(T) off the curve", () => {
    // at 15 req/s: 1 + 0.5 x (4 - 1) = 2.5; at 25: 4 + 0.5 x (15 - 4) = 9.5
    expect(slaFigures(curve, 0.15).max_conn).toBeCloseTo(2.5, 12);
    expect(slaFigures(curve, 0.35).max_conn).toBeCloseTo(9.5, 12);
    expect(slaFigures(curve, 5).max_conn).toBe(80);
  });

  it("falls back to Little's law (load x latency) when points carry no concurrency", () => {
    const points: CurvePoint[] = [
      { load_per_s: 10, latency_s: 0.2, source: "measured" },
      { load_per_s: 20, latency_s: 0.4, source: "measured" },
    ];
    const c = slaCurve(points);
    expect(c.concurrency).toEqual([2, 8]);
    // MaxRate(0.3) = 15, N = 2 + 0.5 x (8 - 2) = 5
    expect(slaFigures(c, 0.3)).toMatchObject({ rate_per_s: 15, max_conn: 5 });
  });
});

describe("slaCurve", () => {
  it("sorts by load, reads measured points off the isotonic fit and never lets latency fall", () => {
    const c = slaCurve([
      { load_per_s: 20, latency_s: 0.15, latency_fit_s: 0.18, source: "measured" },
      { load_per_s: 10, latency_s: 0.2, latency_fit_s: 0.18, source: "measured" },
      { load_per_s: 30, latency_s: 0.1, source: "model" },
    ]);
    expect(c.load_per_s).toEqual([10, 20, 30]);
    expect(c.latency_s).toEqual([0.18, 0.18, 0.18]);
  });
});

describe("serversNeeded", () => {
  it("is ceil(peak x growth / MaxRate), at least 1", () => {
    expect(serversNeeded(45, 1, 20)).toBe(3);
    expect(serversNeeded(40, 1, 20)).toBe(2); // exactly 2, not 3
    expect(serversNeeded(40, 1.5, 20)).toBe(3);
    expect(serversNeeded(39.4, 1, 34.84)).toBe(2);
    expect(serversNeeded(0, 1, 10)).toBe(1);
    // 0.1 x 3 / 0.1 is 3.0000000000000004 in floating point: still 3 servers
    expect(serversNeeded(0.1 * 3, 1, 0.1)).toBe(3);
  });

  it("is null when no load meets the threshold or the growth is not positive", () => {
    expect(serversNeeded(45, 1, 0)).toBeNull();
    expect(serversNeeded(45, 0, 20)).toBeNull();
    expect(serversNeeded(45, Number.NaN, 20)).toBeNull();
  });
});

describe("threshold handle steps", () => {
  const range = { min: 0.01, max: 1, step: 0.01 };
  it("moves by a step on arrows, ten on page keys, to the ends on Home/End", () => {
    expect(thresholdForKey("ArrowUp", 0.5, range)).toBeCloseTo(0.51, 12);
    expect(thresholdForKey("ArrowDown", 0.5, range)).toBeCloseTo(0.49, 12);
    expect(thresholdForKey("PageUp", 0.5, range)).toBeCloseTo(0.6, 12);
    expect(thresholdForKey("Home", 0.5, range)).toBe(0.01);
    expect(thresholdForKey("End", 0.5, range)).toBe(1);
    expect(thresholdForKey("ArrowUp", 1, range)).toBe(1);
    expect(thresholdForKey("ArrowDown", 0.01, range)).toBe(0.01);
    expect(thresholdForKey("a", 0.5, range)).toBeNull();
  });

  it("spans a round range a little above the curve's top", () => {
    expect(thresholdRange(curve)).toEqual({ min: 0.05, max: 5, step: 0.05 });
    expect(niceCeil(0.43)).toBe(0.5);
    expect(niceCeil(1.2)).toBe(2);
    expect(niceCeil(3)).toBe(5);
  });
});

describe("interpolate", () => {
  it("clamps to the ends like numpy.interp", () => {
    expect(interpolate([1, 2], [10, 20], 0)).toBe(10);
    expect(interpolate([1, 2], [10, 20], 3)).toBe(20);
    expect(interpolate([1, 2], [10, 20], 1.25)).toBe(12.5);
  });
});
