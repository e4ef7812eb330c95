import { describe, expect, it } from "vitest";
import {
  formatByteRate,
  formatBytes,
  formatCompact,
  formatCount,
  formatCountOf,
  formatDateTime,
  formatDuration,
  formatEta,
  formatLatency,
  formatPercent,
  formatRatePerMin,
  formatRate,
  formatRatePerS,
  formatTimeLabel,
  formatTimeTick,
  splitUnit,
} from "./format";

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(10000)).toBe("10,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(0)).toBe("0");
  });
  it("shows a dash for missing values", () => {
    expect(formatCount(null)).toBe("—");
    expect(formatCount(Number.NaN)).toBe("—");
  });
});

describe("formatCountOf", () => {
  it("pluralises", () => {
    expect(formatCountOf(1, "response")).toBe("1 response");
    expect(formatCountOf(2000, "response")).toBe("2,000 responses");
    expect(formatCountOf(0, "line")).toBe("0 lines");
  });
});

describe("formatCompact", () => {
  it("abbreviates large numbers for axis ticks", () => {
    expect(formatCompact(1500)).toBe("1.5K");
    expect(formatCompact(2_000_000)).toBe("2M");
    expect(formatCompact(12)).toBe("12");
  });
});

describe("formatBytes", () => {
  it("uses decimal units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(52_000_000)).toBe("52.0 MB");
    expect(formatBytes(3_400_000_000)).toBe("3.4 GB");
    expect(formatBytes(250_000_000_000)).toBe("250 GB");
  });
  it("formats transfer rates", () => {
    expect(formatByteRate(12_300_000)).toBe("12.3 MB/s");
  });
});

describe("formatPercent", () => {
  it("formats fractions", () => {
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.5)).toBe("50%");
    expect(formatPercent(0.0123, 2)).toBe("1.23%");
    expect(formatPercent(1)).toBe("100%");
  });
  it("keeps tiny non-zero rates visible", () => {
    expect(formatPercent(0.00012)).toBe("0.012%");
  });
});

describe("formatDuration", () => {
  it("picks the two largest units", () => {
    expect(formatDuration(0.25)).toBe("250 ms");
    expect(formatDuration(4.25)).toBe("4.3 s");
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(3600)).toBe("1 h");
    expect(formatDuration(8040)).toBe("2 h 14 min");
    expect(formatDuration(3 * 86400 + 4 * 3600 + 59)).toBe("3 d 4 h");
  });
});

describe("formatLatency", () => {
  it("chooses µs, ms or s", () => {
    expect(formatLatency(0.00042)).toBe("420 µs");
    expect(formatLatency(0.0042)).toBe("4.2 ms");
    expect(formatLatency(0.123)).toBe("123 ms");
    expect(formatLatency(1.234)).toBe("1.23 s");
  });
});

describe("rates and ETA", () => {
  it("adds units", () => {
    expect(formatRatePerS(1.234)).toBe("1.23 req/s");
    expect(formatRatePerS(123.45)).toBe("123.5 req/s");
    expect(formatRatePerMin(180)).toBe("180 req/min");
    expect(formatRatePerMin(2.5)).toBe("2.5 req/min");
  });
  it("describes the time left", () => {
    expect(formatEta(null)).toBe("estimating time left…");
    expect(formatEta(0.4)).toBe("almost done");
    expect(formatEta(80)).toBe("about 1 min 20 s left");
  });
});

describe("dates", () => {
  const ms = Date.UTC(2026, 10, 22, 1, 58, 7);
  it("formats in UTC", () => {
    expect(formatDateTime("2026-11-22T01:58:07Z")).toBe("2026-11-22 01:58 UTC");
    expect(formatDateTime("2026-11-22T03:58:07+02:00")).toBe("2026-11-22 01:58 UTC");
    expect(formatDateTime("not a date")).toBe("—");
    expect(formatTimeLabel(ms)).toBe("Nov 22, 2026 01:58:07 UTC");
  });
  it("adapts axis ticks to the span", () => {
    const hour = 3600_000;
    expect(formatTimeTick(ms, 6 * hour)).toBe("01:58");
    expect(formatTimeTick(ms, 72 * hour)).toBe("01:58");
    expect(formatTimeTick(Date.UTC(2026, 10, 22), 72 * hour)).toBe("Nov 22");
    expect(formatTimeTick(ms, 30 * 24 * hour)).toBe("Nov 22");
    expect(formatTimeTick(ms, 60_000)).toBe("01:58:07");
  });
});

describe("splitUnit", () => {
  it("separates the number from its unit", () => {
    expect(splitUnit("8,160 req/min")).toEqual({ value: "8,160", unit: "req/min" });
    expect(splitUnit("1.23 s")).toEqual({ value: "1.23", unit: "s" });
    expect(splitUnit("3 d 11 h")).toEqual({ value: "3", unit: "d 11 h" });
    expect(splitUnit("1.5%")).toEqual({ value: "1.5%", unit: "" });
    expect(splitUnit("—")).toEqual({ value: "—", unit: "" });
  });
});

describe("formatRate", () => {
  it("picks the unit that shows the rate with 2-3 significant digits", () => {
    // the IIS sample: 0.00257 req/s = 0.154 req/min = 9.25 req/h
    expect(formatRate(0.00257)).toBe("9.25 req/h");
    expect(formatRate(0.5)).toBe("30 req/min");
    expect(formatRate(1 / 60)).toBe("1 req/min");
    expect(formatRate(2.345)).toBe("2.35 req/s");
    expect(formatRate(1050)).toBe("1,050 req/s");
    expect(formatRate(123.4)).toBe("123 req/s");
  });

  it("never shows 0 for a non-zero rate", () => {
    for (const perS of [1e-7, 3e-5, 0.00027, 0.0166, 0.9, 1e-3]) {
      expect(formatRate(perS)).not.toMatch(/^0 /);
      expect(parseFloat(formatRate(perS))).toBeGreaterThan(0);
    }
    expect(formatRate(1e-7)).toBe("0.00036 req/h");
    expect(formatRate(0)).toBe("0 req/s");
    expect(formatRate(null)).toBe("—");
  });
});
