import { describe, expect, it } from "vitest";
import { chartRows, curveConfig, timeChart, valueAt, yTop } from "./chartShape";
import { expiryFrom, formatChange, moved } from "./reportMath";
import type { ReportChart, ReportSeries } from "./types";

type SeriesIn = Omit<ReportSeries, "points"> & { points?: boolean };

function chart(kind: ReportChart["kind"], series: SeriesIn[], extra: Partial<ReportChart> = {}): ReportChart {
  const full = series.map((s) => ({ points: false, ...s }));
  return { key: "k", title: "T", kind, x_label: "load", x_unit: "req/s", y_label: "latency", y_unit: "s", series: full, marks: [], ranges: [], ...extra };
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

describe("scatters and ranges (SCT, sweep frontier)", () => {
  it("gives a scatter values only at its own points, never interpolated", () => {
    const rows = chartRows(
      chart("line", [
        { key: "tp", label: "measured", x: [1, 3], y: [10, 30], dashed: false, points: true },
        { key: "fit", label: "fit", x: [0, 4], y: [0, 40], dashed: false },
      ]),
    );
    expect(rows.map((r) => [r.x, r.tp, r.fit])).toEqual([
      [0, null, 0],
      [1, 10, 10],
      [3, 30, 30],
      [4, null, 40],
    ]);
  });

  it("keeps scatters off the risers of a step frontier", () => {
    const rows = chartRows(
      chart("step", [
        { key: "front", label: "Pareto frontier", x: [1, 2], y: [0.5, 0.1], dashed: false },
        { key: "pareto", label: "Pareto-optimal runs", x: [1, 2], y: [0.5, 0.1], dashed: false, points: true },
      ]),
    );
    expect(rows.map((r) => [r.x, r.front, r.pareto])).toEqual([
      [1, 0.5, 0.5],
      [2, 0.5, null],
      [2, 0.1, 0.1],
    ]);
  });

  it("passes points and shaded ranges to the chart, and names the cost unit", () => {
    const config = curveConfig(
      chart("line", [{ key: "tp", label: "measured", x: [1], y: [1], dashed: false, points: true }], {
        x_unit: "cost",
        ranges: [{ label: "rational range", x1: 10, x2: 20 }],
      }),
      "c",
    );
    expect(config.series[0]?.points).toBe(true);
    expect(config.ranges).toEqual([{ id: "range-0", label: "rational range", color: "chart-band", x1: 10, x2: 20 }]);
    expect(config.xLabel).toBe("load (price × VM-hours)");
    expect(config.xUnit(12.345)).toBe("12.35");
  });
});

describe("SCT chart details", () => {
  it("draws fits beside a scatter without dots, models in the model colour, and spreads line labels", () => {
    const config = curveConfig(
      chart(
        "line",
        [
          { key: "tp", label: "measured", x: [1], y: [1], dashed: false, points: true },
          { key: "trend", label: "fit", x: [1], y: [1], dashed: false },
          { key: "usl", label: "USL model", x: [1], y: [1], dashed: true },
        ],
        { marks: [{ label: "Q_lower 20", x: 20 }, { label: "Q_upper 30", x: 30 }, { label: "USL N* 23.8", x: 23.8 }] },
      ),
      "c",
    );
    expect(config.series.map((s) => [s.points, s.dots, s.color])).toEqual([
      [true, undefined, "chart-latency"],
      [undefined, false, "chart-throughput"],
      [undefined, false, "chart-model"],
    ]);
    expect(config.marks.map((m) => m.labelPosition)).toEqual(["top", "right", "bottom"]);
  });

  it("keeps small coefficients readable", () => {
    const { yUnit } = curveConfig({ ...chart("line", [{ key: "a", label: "a", x: [1], y: [1], dashed: false }]), y_unit: "ratio" }, "c");
    expect(yUnit(0.0017616)).toBe("0.0018");
    expect(yUnit(0)).toBe("0");
    expect(yUnit(1.5)).toBe("1.5");
  });
});

describe("axes a reader can trust", () => {
  it("starts a time axis in seconds at 0, not 0 µs", () => {
    const config = curveConfig({ ...chart("line", [{ key: "a", label: "a", x: [0, 600], y: [1, 2], dashed: false }]), x_label: "simulated time", x_unit: "s" }, "c");
    expect(config.xAxisUnit?.(0)).toBe("0");
    expect(config.xAxisUnit?.(600)).toBe("600 s");
  });

  it("ends a CDF's axis at 100%, and leaves other units to the data", () => {
    const cdf = { ...chart("line", [{ key: "a", label: "a", x: [1, 2], y: [0.4, 1], dashed: false }]), y_unit: "fraction" as const };
    expect(yTop(cdf)).toBe(1);
    expect(yTop({ ...cdf, series: [{ key: "a", label: "a", x: [1], y: [1.3], dashed: false, points: false }] })).toBeUndefined();
    expect(yTop({ ...cdf, y_unit: "s" })).toBeUndefined();
  });
});
