import { describe, expect, it } from "vitest";
import { validateCurveConfig } from "../../charts/curveConfig";
import { kneeClass } from "../../test/capacityFixtures";
import { curveChartRows, kneeChartConfig, labelSide, powerChartConfig, powerRows, throughputChartConfig } from "./capacityCharts";
import { slaCurve, slaFigures } from "./slaMath";

const cls = kneeClass();
const figures = slaFigures(slaCurve(cls.curve), 0.35);

describe("knee chart config", () => {
  const config = kneeChartConfig("all", 95, cls, figures);

  it("is valid and uses colour tokens only", () => {
    expect(validateCurveConfig(config)).toEqual([]);
    expect(config.id).toBe("knee-chart");
    expect(config.title).toContain("p95");
  });

  it("draws measured points solid, model points dashed, and the bootstrap interval as a band", () => {
    expect(config.series.map((s) => [s.key, s.dashed === true])).toEqual([
      ["measured", false],
      ["model", true],
    ]);
    expect(config.band).toMatchObject({ lowKey: "low", highKey: "high" });
    expect(config.description).toMatch(/Dashed: extrapolated/);
  });

  it("marks the knee, the breaking point and MaxRate(T) on the threshold", () => {
    expect(config.marks.map((m) => [m.id, m.x, m.y])).toEqual([
      ["knee", 20, 0.2],
      ["breaking", 35, undefined],
      ["max-rate", 25, 0.35],
    ]);
    expect(config.marks[0]?.label).toBe("Knee 20 req/s");
  });

  it("keeps the labels off the SLA line and inside the plot", () => {
    // the knee (0.2 s) is far from the 0.35 s threshold: its label beside it
    expect(config.marks.find((m) => m.id === "knee")?.labelPosition).toBe("left");
    // a threshold at the knee's latency: the knee's label goes above the line, not on it
    const onLine = kneeChartConfig("all", 95, cls, slaFigures(slaCurve(cls.curve), 0.2));
    expect(onLine.marks.find((m) => m.id === "knee")?.labelPosition).toBe("top");
    // a point in the right third of the x range is labelled on its left (a centred label is cut off)
    expect(labelSide(90, 100, "bottom")).toBe("left");
    expect(labelSide(50, 100, "bottom")).toBe("bottom");
  });

  it("leaves out the model series and the band when the curve has neither", () => {
    const measured = kneeClass({
      curve: cls.curve
        .filter((p) => p.source === "measured")
        .map((p) => ({ load_per_s: p.load_per_s, latency_s: p.latency_s, source: p.source })),
    });
    const plain = kneeChartConfig("static", 99, measured, null);
    expect(plain.series.map((s) => s.key)).toEqual(["measured"]);
    expect(plain.band).toBeUndefined();
    expect(plain.marks.map((m) => m.id)).toEqual(["knee", "breaking"]);
  });
});

describe("curve chart rows", () => {
  it("splits measured and model values, the last measured point starting the model line", () => {
    const rows = curveChartRows(cls.curve, (p) => p.latency_s);
    expect(rows.map((r) => [r.x, r.measured, r.model])).toEqual([
      [10, 0.1, null],
      [20, 0.2, null],
      [30, 0.5, 0.5],
      [35, null, 1],
      [40, null, 2],
    ]);
    expect(rows[0]).toMatchObject({ low: 0.08, high: 0.12 });
    expect(rows[4]).toMatchObject({ low: null, high: null });
  });

  it("throughput chart: valid, breaking point marked", () => {
    const config = throughputChartConfig("all", cls);
    expect(validateCurveConfig(config)).toEqual([]);
    expect(config.marks).toEqual([expect.objectContaining({ id: "breaking", x: 35 })]);
    expect(curveChartRows(cls.curve, (p) => p.throughput_per_s).map((r) => r.measured ?? r.model)).toEqual([10, 20, 30, 34, 35]);
  });
});

describe("the power-ratio chart", () => {
  const chart = {
    points: [
      { load_per_s: 5, power_per_s2: 90 },
      { load_per_s: 10, power_per_s2: 80 },
    ],
    coefficients: [0, 0, -2, 100],
    load_range_per_s: [5, 10] as [number, number],
    peak_load_per_s: 5,
    r2: 1,
  };

  it("draws the cubic fit and its peak when there is a power-ratio capacity", () => {
    expect(powerRows(chart)).toEqual([
      { x: 5, power: 90, fit: 90 },
      { x: 10, power: 80, fit: 80 },
    ]);
    const config = powerChartConfig(chart);
    expect(config.series.map((s) => s.key)).toEqual(["power", "fit"]);
    expect(config.marks.map((m) => m.id)).toEqual(["peak"]);
    expect(config.description).toContain("is the power-ratio capacity");
  });

  it("draws the windows alone, with no fit, peak or capacity caption, when there is none", () => {
    expect(powerRows(chart, false)).toEqual([
      { x: 5, power: 90 },
      { x: 10, power: 80 },
    ]);
    const config = powerChartConfig(chart, false);
    expect(validateCurveConfig(config)).toEqual([]);
    expect(config.series.map((s) => s.key)).toEqual(["power"]);
    expect(config.marks).toEqual([]);
    expect(config.description).not.toContain("capacity");
    expect(config.description).not.toContain("cubic fit");
  });
});
