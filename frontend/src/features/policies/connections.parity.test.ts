/**
 * Parity with the engine: connections.parity.json holds inputs in this page's units and the rates
 * headroom.engine.background.connections gives for them (generated and kept from drifting by
 * backend/tests/engine/background/test_background_connections_parity.py). The two sides evaluate
 * the same float operations in the same order, so a relative tolerance of 1e-12 only allows for
 * rounding in the JSON round trip; any formula difference is orders of magnitude larger.
 */
import { describe, expect, it } from "vitest";
import { h1Rate, h2Rate, type LinkInputs } from "./connections";
import fixture from "./connections.parity.json";

type RateKey = "h1" | "h2" | "h1Shared" | "h2Shared";

const RATES: Record<RateKey, (size: number, link: LinkInputs) => number> = {
  h1: (s, l) => h1Rate(s, l),
  h2: (s, l) => h2Rate(s, l),
  h1Shared: (s, l) => h1Rate(s, l, true),
  h2Shared: (s, l) => h2Rate(s, l, true),
};

function close(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-12 * Math.max(Math.abs(expected), 1e-300);
}

describe("connections.ts against the engine's fixture", () => {
  it("has cases for every rate", () => {
    expect(fixture.cases.length).toBeGreaterThan(5);
    expect(fixture.sizes_bytes.length).toBeGreaterThan(4);
  });

  for (const [index, c] of fixture.cases.entries()) {
    it(`case ${index}: ${JSON.stringify(c.link)}`, () => {
      const link: LinkInputs = c.link;
      for (const key of Object.keys(RATES) as RateKey[]) {
        const expected: number[] = c.rates[key];
        fixture.sizes_bytes.forEach((size, i) => {
          const actual = RATES[key](size, link);
          expect(close(actual, expected[i] ?? Number.NaN), `${key} at ${size} B: ${actual} vs ${expected[i]}`).toBe(true);
        });
      }
    });
  }
});
