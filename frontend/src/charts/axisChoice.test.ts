import { describe, expect, it } from "vitest";
import { keyZoom } from "./config";
import { axisTop, dedupTicks, quantile, ticksCovering, wantsLogAxis } from "./simConfig";
import { formatSimClock } from "./simConfig";
import { formatTimeTick } from "../lib/format";

describe("tick dedup", () => {
  it("drops a tick whose label repeats the previous one", () => {
    // 30 s ticks on an h:min clock print 00:00, 00:00 (00:00:30), 00:01 ...
    const ticks = [0, 30, 60, 90, 120];
    expect(dedupTicks(ticks, (s) => formatSimClock(s))).toEqual([0, 60, 120]);
  });

  it("keeps distinct labels and labels that come back later", () => {
    expect(dedupTicks([1, 2, 3], (v) => (v === 2 ? "b" : "a"))).toEqual([1, 2, 3]);
    expect(dedupTicks([], String)).toEqual([]);
  });

  it("dedups epoch-ms ticks printed to the minute", () => {
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    const ticks = [t0, t0 + 20_000, t0 + 40_000, t0 + 60_000];
    expect(dedupTicks(ticks, (v) => formatTimeTick(v, 3 * 3600_000))).toEqual([t0, t0 + 60_000]);
  });
});

describe("axis choice", () => {
  it("ticks covering a range end at or past its top", () => {
    // 0..23 in about five round steps: 0, 5, ..., 20 alone would cut 23 off
    const ticks = ticksCovering(0, 23);
    expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(23);
    expect(ticks).toEqual([0, 5, 10, 15, 20, 25]);
    expect(ticksCovering(0, 20)).toEqual([0, 5, 10, 15, 20]);
  });

  it("interpolates quantiles like numpy's default", () => {
    // numpy.quantile([1, 2, 3, 4], 0.9) == 3.7
    expect(quantile([4, 1, 3, 2], 0.9)).toBeCloseTo(3.7);
    expect(quantile([5], 0.5)).toBe(5);
  });

  it("keeps the whole range without a spike, with 8% headroom and the SLA line in view", () => {
    const values = Array.from({ length: 20 }, (_, i) => 1 + i / 10); // 1 .. 2.9
    expect(axisTop(values)).toEqual({ top: 2.9 * 1.08, clipped: false });
    expect(axisTop(values, 5).top).toBeCloseTo(5 * 1.08);
  });

  it("clips one spike that would flatten the other windows", () => {
    const values = [...Array.from({ length: 30 }, () => 1), 100];
    // p90 of thirty 1s and one 100 is 1: the axis stops at 1.5 and says it clipped
    expect(axisTop(values)).toEqual({ top: 1.5, clipped: true });
    // the SLA line stays in view
    expect(axisTop(values, 2)).toEqual({ top: 2 * 1.15, clipped: true });
  });

  it("does not clip a handful of points (no percentile to trust)", () => {
    expect(axisTop([1, 1, 100]).clipped).toBe(false);
  });

  it("puts a CDF on a log axis when it spans decades or its tail is far beyond the median", () => {
    expect(wantsLogAxis([0.01, 0.1, 5], 0.1)).toBe(true); // 500x
    expect(wantsLogAxis([2, 3, 4, 500], 3)).toBe(true); // 250x: 0-500 s linear squashes 2-4 s
    expect(wantsLogAxis([5, 8, 9, 70], 6)).toBe(true); // 14x span, the tail 11.7x the median
    expect(wantsLogAxis([1, 2, 3, 4], 2)).toBe(false);
    expect(wantsLogAxis([], null)).toBe(false);
  });
});

describe("keyboard zoom", () => {
  const view = { fromMs: 0, toMs: 80_000 };
  it("moves by a quarter of the span", () => {
    expect(keyZoom("ArrowRight", view, 10_000)).toEqual({ fromMs: 20_000, toMs: 100_000 });
    expect(keyZoom("ArrowLeft", view, 10_000)).toEqual({ fromMs: -20_000, toMs: 60_000 });
  });

  it("zooms into the middle half and out to twice the span, on whole buckets", () => {
    expect(keyZoom("+", view, 10_000)).toEqual({ fromMs: 20_000, toMs: 60_000 });
    expect(keyZoom("=", view, 10_000)).toEqual({ fromMs: 20_000, toMs: 60_000 });
    expect(keyZoom("-", view, 10_000)).toEqual({ fromMs: -40_000, toMs: 120_000 });
  });

  it("stops zooming in at two buckets, resets on Escape, ignores other keys", () => {
    expect(keyZoom("+", { fromMs: 0, toMs: 20_000 }, 10_000)).toBeNull();
    expect(keyZoom("+", { fromMs: 0, toMs: 30_000 }, 10_000)).toEqual({ fromMs: 10_000, toMs: 30_000 });
    expect(keyZoom("Escape", view, 10_000)).toBe("reset");
    expect(keyZoom("a", view, 10_000)).toBeNull();
  });
});
