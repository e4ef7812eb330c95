import { describe, expect, it } from "vitest";
import { chartRows, curveConfig, timeChart, valueAt } from "./chartShape";
import { expiryFrom, formatChange, moved } from "./reportMath";
import type { ReportChart } from "./types";

function chart(kind: ReportChart["kind"], series: ReportChart["series"]): ReportChart {
  return { key: "k", title: "T", kind, x_label: "load", x_unit: "req/s", y_label: "latency", y_unit: "s", series, marks: [] };
}

describe("valueAt", () => {
  const pts = [
    { x: 0, y: 0 },
    { x: 10, y: 1 },
  ];
  it("interpolates inside, holds for steps, is null outside", () => {
    expect(valueAt(pts, 2.5, false)).toBe(0.25);
    expect(valueAt(pts, 2.5, true)).toBe(0);
    expect(valueAt(pts, 10, true)).toBe(1);
    expect(valueAt(pts, 11, false)).toBeNull();
    expect(valueAt([], 1, false)).toBeNull();
  });
});

describe("chartRows", () => {
  it("merges series with different x into unbroken lines", () => {
    const rows = chartRows(
      chart("line", [
        { key: "a", label: "A", x: [0, 2, 4], y: [0, 2, 4], dashed: false },
        { key: "b", label: "B", x: [1, 3], y: [10, 30], dashed: true },
      ]),
    );
    expect(rows.map((r) => r.x)).toEqual([0, 1, 2, 3, 4]);
    expect(rows.map((r) => r.a)).toEqual([0, 1, 2, 3, 4]);
    expect(rows.map((r) => r.b)).toEqual([null, 10, 20, 30, null]);
  });

  it("draws the risers of a step series (the VM count holds until it changes)", () => {
    const rows = chartRows(chart("step", [{ key: "vms", label: "VMs", x: [0, 30, 60], y: [1, 2, 2], dashed: false }]));
    expect(rows.map((r) => [r.x, r.vms])).toEqual([
      [0, 1],
      [30, 1],
      [30, 2],
      [60, 2],
      [60, 2],
    ]);
  });

  it("skips missing values", () => {
    const rows = chartRows(chart("line", [{ key: "a", label: "A", x: [0, 1, 2], y: [1, null, 3], dashed: false }]));
    expect(rows.map((r) => r.a)).toEqual([1, 3]);
  });
});

describe("chart configs", () => {
  it("labels axes with units and formats values with them", () => {
    const config = curveConfig(chart("line", [{ key: "a", label: "p95", x: [1], y: [0.2], dashed: false }]), "c");
    expect(config.xLabel).toBe("load (req/s)");
    expect(config.yLabel).toBe("latency (s)");
    expect(config.yUnit(0.2)).toBe("200 ms");
    expect(config.xUnit(76.9)).toBe("76.9 req/s");
  });

  it("turns epoch seconds into time rows in ms", () => {
    const t0 = Date.UTC(2026, 0, 1) / 1000;
    const { rows, config } = timeChart(
      { ...chart("line", [{ key: "rate", label: "requests", x: [t0, t0 + 60], y: [282, 300], dashed: false }]), x_unit: "time", y_unit: "req/min" },
      "t",
    );
    expect(rows).toEqual([
      { t: t0 * 1000, rate: 282 },
      { t: (t0 + 60) * 1000, rate: 300 },
    ]);
    expect(config.unit(282)).toBe("282 req/min");
  });
});

describe("report helpers", () => {
  it("moves an item and clamps at the ends", () => {
    expect(moved([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 2, -2)).toEqual([3, 1, 2]);
  });

  it("formats changes with a sign and computes expiries", () => {
    expect(formatChange(25)).toBe("+25 %");
    expect(formatChange(-3.25)).toBe("−3.3 %");
    expect(formatChange(null)).toBe("—");
    expect(expiryFrom(0, 0)).toBeNull();
    expect(expiryFrom(7, Date.UTC(2026, 0, 1))).toBe("2026-01-08T00:00:00.000Z");
  });
});

describe("comparison overlays", () => {
  it("colour each side as one family, models dashed in it", () => {
    const config = curveConfig(
      chart("line", [
        { key: "a_m", label: "A: p95 measured", x: [1], y: [1], dashed: false },
        { key: "a_x", label: "A: p95 model", x: [1], y: [1], dashed: true },
        { key: "b_m", label: "B: p95 measured", x: [1], y: [1], dashed: false },
      ]),
      "c",
    );
    expect(config.series.map((s) => s.color)).toEqual(["chart-latency", "chart-model", "chart-knee"]);
  });
});

describe("status series", () => {
  it("use the status colour tokens", () => {
    const config = curveConfig(chart("line", [{ key: "s5xx", label: "5xx", x: [1], y: [1], dashed: false }]), "c");
    expect(config.series[0]?.color).toBe("status-5xx");
  });
});
