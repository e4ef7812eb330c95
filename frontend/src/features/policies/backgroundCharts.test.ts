import { describe, expect, it } from "vitest";
import type { BackgroundComparison } from "./api";
import { quotaRows, recommendation, tradeoffRows } from "./backgroundCharts";

const outcome = (background: number, delayed: number, p95: number) => ({
  background_cpu_fraction: background,
  idle_fraction: 1 - background - 0.2,
  foreground_delayed_fraction: delayed,
  foreground_delay_p95_s: p95,
});

const RESULT: BackgroundComparison = {
  round_s: 60,
  rounds: 3,
  policies: {
    none: outcome(0.8, 0.09, 15),
    suspend: outcome(0.6, 0.0005, 0),
    static: outcome(0.1, 0, 0),
    adaptive: outcome(0.72, 0.0105, 0),
  },
  series: {
    t_s: [3600, 7200, 10800],
    demand: [0.1, 0.5, 0.2],
    quota_suspend: [1, 0, 1],
    quota_static: [0.1, 0.1, 0.1],
    quota_adaptive: [0.3, 0.2, 0.6],
  },
};

describe("background charts", () => {
  it("puts each policy at (delayed, background) in its own series, sorted by x", () => {
    const rows = tradeoffRows(RESULT);
    expect(rows.map((r) => r.x)).toEqual([0, 0.0005, 0.0105, 0.09]);
    expect(rows[0]).toEqual({ x: 0, none: null, suspend: null, static: 0.1, adaptive: null });
    expect(rows[3]?.none).toBe(0.8);
  });

  it("plots quotas against hours from the start", () => {
    const rows = quotaRows(RESULT);
    expect(rows.map((r) => r.x)).toEqual([0, 1, 2]);
    expect(rows[1]).toEqual({ x: 1, demand: 0.5, static: 0.1, adaptive: 0.2 });
  });

  it("says what the adaptive controller buys over the static cap", () => {
    expect(recommendation(RESULT)).toBe(
      "Adaptive reservation gives background work 72% of the machine (7.2× the static cap's 10%), " +
        "delaying 1.05% of the foreground work (95th percentile of the extra delay: 0 ms).",
    );
  });
});
