/**
 * Parity with the engine: capacityMath.parity.json holds knee curves, thresholds and partition
 * inputs with what headroom.engine.capacity gives for them (generated and kept from drifting by
 * backend/tests/engine/capacity/test_cap_browser_parity.py). Both sides run the same formulas;
 * a relative tolerance of 1e-12 only allows for the order of float operations.
 */
import { describe, expect, it } from "vitest";
import type { CurvePoint } from "../../api/models";
import fixture from "./capacityMath.parity.json";
import { maxTopFraction, staticPartition } from "./partitionMath";
import { serversNeeded, slaCurve, slaFigures } from "./slaMath";

function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-12 * Math.max(Math.abs(expected), 1);
}

describe("slaMath.ts against the engine's fixture", () => {
  for (const [index, c] of fixture.sla.entries()) {
    it(`curve ${index}: MaxRate(T), MaxConn(T) and capped at ${c.figures.length} thresholds`, () => {
      const curve = slaCurve(c.curve as CurvePoint[]);
      for (const want of c.figures) {
        const got = slaFigures(curve, want.threshold_s);
        const at = `T = ${want.threshold_s}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`;
        expect(close(got.rate_per_s, want.rate_per_s), at).toBe(true);
        expect(close(got.max_conn, want.max_conn), at).toBe(true);
        expect(got.capped, at).toBe(want.capped);
      }
    });
  }

  it("servers needed", () => {
    for (const c of fixture.servers_needed) expect(serversNeeded(c.peak_per_s, 1, c.max_rate_per_s)).toBe(c.servers);
  });
});

describe("partitionMath.ts against the engine's fixture", () => {
  it(`K, its formula, the warning and the largest top fraction in ${fixture.partitions.length} cases`, () => {
    for (const c of fixture.partitions) {
      const got = staticPartition(c.servers, c.top_fraction, c.safety); // + 0 below: ceil gives -0 where Python gives 0
      const at = JSON.stringify(c);
      expect({ k: got.k, kFormula: got.kFormula + 0, cannotMeet: got.cannotMeet }, at).toEqual({ k: c.k, kFormula: c.k_formula, cannotMeet: c.cannot_meet });
      expect(close(maxTopFraction(c.servers, c.safety), c.max_top_fraction), at).toBe(true);
    }
  });
});
