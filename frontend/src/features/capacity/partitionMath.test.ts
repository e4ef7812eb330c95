import { describe, expect, it } from "vitest";
import { kCurve, maxTopFraction, safetyFactor, staticPartition } from "./partitionMath";

describe("StaticPart K (docs/methods/admission.md)", () => {
  it("gives the worked example's K: N = 10, top fraction 0.2, MaxConn_D(T_D) = 18, MaxConn_D = 26", () => {
    // K = ceil(0.2 x 10 + 10 x 0.8 x (1 - 18/26)) = ceil(2 + 2.4615...) = 5
    const s = safetyFactor(18, 26);
    expect(s).toBeCloseTo(18 / 26, 12);
    expect(staticPartition(10, 0.2, s ?? 0)).toEqual({ k: 5, kFormula: 5, cannotMeet: false });
  });

  it("matches exact integer arithmetic along the curve in steps of 0.05", () => {
    // rho = i/20: K = ceil((i N MaxConn + N (20 - i)(MaxConn - MaxConn(T))) / (20 MaxConn)), in integers
    for (let i = 0; i <= 20; i += 1) {
      const exact = Math.ceil((i * 10 * 26 + 10 * (20 - i) * (26 - 18)) / (20 * 26));
      const want = Math.min(Math.max(exact, 1), 9);
      expect(staticPartition(10, i / 20, 18 / 26).k, `top fraction ${i / 20}`).toBe(want);
    }
  });

  it("marks the largest serviceable top fraction where the formula reaches N", () => {
    const rho = maxTopFraction(10, 18 / 26); // (N s - 1) / (N s) = 0.8556
    expect(rho).toBeCloseTo((180 / 26 - 1) / (180 / 26), 12);
    expect(staticPartition(10, rho - 1e-6, 18 / 26).cannotMeet).toBe(false);
    expect(staticPartition(10, rho + 1e-6, 18 / 26)).toEqual({ k: 9, kFormula: 10, cannotMeet: true });
  });

  it("clamps K to [1, N - 1] and is monotone in the top fraction", () => {
    expect(staticPartition(10, 0, 1).k).toBe(1); // formula 0: the High Set keeps one server
    const curve = kCurve(12, 0.4);
    expect(curve[0]?.topFraction).toBe(0);
    expect(curve[curve.length - 1]?.topFraction).toBe(1);
    for (let i = 1; i < curve.length; i += 1) expect(curve[i]?.k).toBeGreaterThanOrEqual(curve[i - 1]?.k ?? 0);
    expect(Math.max(...curve.map((p) => p.k))).toBe(11);
  });

  it("has no safety factor without both connection figures", () => {
    expect(safetyFactor(null, 26)).toBeNull();
    expect(safetyFactor(18, 0)).toBeNull();
    expect(safetyFactor(30, 26)).toBe(1);
  });
});
