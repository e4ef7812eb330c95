import { describe, expect, it } from "vitest";
import { validateConfig } from "../../charts/config";
import type { ArrivalView, FittedHistogram, FitReport } from "./result";
import {
  arrivalChartConfig,
  arrivalRows,
  classMix,
  countHistogramRows,
  dailyProfileRows,
  formatHourOfDay,
  histogramRows,
  latencyRows,
  withGaps,
  logTicks,
  paramRows,
  rateUnit,
  zoomRows,
} from "./shaping";

const T0 = Date.UTC(2015, 4, 17, 10, 0);

const view: ArrivalView = {
  every_s: 60,
  stats: { every_s: 60, buckets: 3, total: 6, peak: 3, trough: 1, mean: 2, peak_to_mean: 1.5 },
  downsampled: false,
  t_ms: [T0, T0 + 60_000, T0 + 120_000],
  count: [3, 2, 1],
  by_class: { dynamic: [1, 1, 1], static: [2, 1, 0] },
};

describe("arrival rows", () => {
  it("carry the total and every class per bucket, classes summing to the total", () => {
    const rows = arrivalRows(view);
    expect(rows).toEqual([
      { t: T0, total: 3, "class:dynamic": 1, "class:static": 2 },
      { t: T0 + 60_000, total: 2, "class:dynamic": 1, "class:static": 1 },
      { t: T0 + 120_000, total: 1, "class:dynamic": 1, "class:static": 0 },
    ]);
    for (const r of rows) expect((r["class:dynamic"] ?? 0) + (r["class:static"] ?? 0)).toBe(r.total);
  });

  it("make a valid stacked chart config, one series per class, saying when the series was downsampled", () => {
    const config = arrivalChartConfig({ ...view, downsampled: true, stats: { ...view.stats, buckets: 300 } });
    expect(validateConfig(config)).toEqual([]);
    expect(config.series.map((s) => s.label)).toEqual(["dynamic", "static"]);
    expect(config.description).toContain("3 of 300 buckets");
    expect(config.unit(12)).toBe("12 req/min");
    expect(config.yLabel).toBe("req/min");
  });

  it("plot each bucket's rate, so a log ending mid-bucket shows no drop at the end", () => {
    // 3 req/s, the log covering 20 s of its last minute: 60 requests in 20 s
    const steady: ArrivalView = { ...view, count: [180, 180, 60], rate_per_s: [3, 3, 3], by_class: { dynamic: [60, 90, 20], static: [120, 90, 40] } };
    const rows = arrivalRows(steady);
    expect(rows.map((r) => r.total)).toEqual([180, 180, 180]);
    expect(rows[2]).toEqual({ t: T0 + 120_000, total: 180, "class:dynamic": 60, "class:static": 120 });
    for (const r of rows) expect((r["class:dynamic"] ?? 0) + (r["class:static"] ?? 0)).toBeCloseTo(r.total, 9);
  });

  it("draw requests per second below a minute's resolution", () => {
    const seconds: ArrivalView = { ...view, every_s: 10, stats: { ...view.stats, every_s: 10 }, count: [30, 30, 6], rate_per_s: [3, 3, 3] };
    expect(arrivalRows(seconds).map((r) => r.total)).toEqual([3, 3, 3]);
    const config = arrivalChartConfig(seconds);
    expect(config.yLabel).toBe("req/s");
    expect(config.unit(2.5)).toBe("2.5 req/s");
    expect(rateUnit(1)).toEqual({ label: "req/s", perS: 1 });
    expect(rateUnit(3600)).toEqual({ label: "req/min", perS: 60 });
  });

  it("zoom to an inclusive index range in either order, or keep everything", () => {
    const rows = [0, 1, 2, 3, 4];
    expect(zoomRows(rows, { start: 1, end: 3 })).toEqual([1, 2, 3]);
    expect(zoomRows(rows, { start: 3, end: 1 })).toEqual([1, 2, 3]);
    expect(zoomRows(rows, null)).toBe(rows);
  });
});

describe("daily profile", () => {
  it("places each minute at its hour of day and leaves out minutes the log never covers", () => {
    const minutes: (number | null)[] = Array.from({ length: 1440 }, () => null);
    minutes[0] = 2;
    minutes[725] = 4.5; // 12:05
    expect(dailyProfileRows(minutes)).toEqual([
      { x: 0, mean: 2 },
      { x: 725 / 60, mean: 4.5 },
    ]);
    expect(formatHourOfDay(725 / 60)).toBe("12:05");
    expect(formatHourOfDay(24)).toBe("24:00");
  });
});

describe("latency rows", () => {
  it("keep buckets with every percentile and never turn a gap into zero", () => {
    const rows = latencyRows({
      t_ms: [T0, T0 + 60_000],
      count: [4, 0],
      p50_s: [0.1, null],
      p90_s: [0.2, null],
      p95_s: [0.3, null],
      p99_s: [0.4, null],
      max_s: [0.5, null],
    });
    expect(rows).toEqual([{ t: T0, count: 4, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 0.5 }]);
  });
});

describe("latency rows with gaps", () => {
  const at = (t: number) => ({ t, count: 1, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 0.5 });
  it("break the lines after a bucket the next one does not follow, and nowhere else", () => {
    const rows = withGaps([at(T0), at(T0 + 60_000), at(T0 + 600_000)], 60);
    expect(rows.map((r) => [r.t, r.p95_s])).toEqual([
      [T0, 0.3],
      [T0 + 60_000, 0.3],
      [T0 + 120_000, null],
      [T0 + 600_000, 0.3],
    ]);
    expect(withGaps([], 60)).toEqual([]);
  });
});

describe("histograms", () => {
  const hist: FittedHistogram = {
    edges: [1, 10, 100],
    counts: [8, 2],
    density: [8 / 90, 2 / 900],
    fitted_pdf: [0.05, 0.001],
    fitted_dist: "lognormal",
    log_x: true,
    zeros: 0,
  };

  it("step at each edge with the bin's density, the fitted pdf at the geometric centre of log bins", () => {
    const rows = histogramRows(hist);
    expect(rows.map((r) => r.x)).toEqual([1, Math.sqrt(10), 10, Math.sqrt(1000), 100]);
    expect(rows.map((r) => r.density)).toEqual([8 / 90, 8 / 90, 2 / 900, 2 / 900, 2 / 900]);
    expect(rows.map((r) => r.fitted)).toEqual([null, 0.05, null, 0.001, null]);
    // the step area integrates to the share of positive values: sum(density * width) = 1
    const area = hist.density.reduce((sum, d, i) => sum + d * ((hist.edges[i + 1] ?? 0) - (hist.edges[i] ?? 0)), 0);
    expect(area).toBeCloseTo(1, 12);
  });

  it("use arithmetic centres on a linear axis, and nothing for an empty histogram", () => {
    const rows = histogramRows({ ...hist, edges: [0, 2, 4], log_x: false });
    expect(rows.map((r) => r.x)).toEqual([0, 1, 2, 3, 4]);
    expect(histogramRows({ ...hist, edges: [], counts: [], density: [], fitted_pdf: null })).toEqual([]);
  });

  it("count integer bins with a closing row, keeping every count", () => {
    const rows = countHistogramRows({ edges: [1, 2, 3, 4], counts: [5, 0, 2] });
    expect(rows).toEqual([
      { x: 1, count: 5 },
      { x: 2, count: 0 },
      { x: 3, count: 2 },
      { x: 4, count: 2 },
    ]);
  });

  it("tick log axes at powers of ten around the data", () => {
    expect(logTicks(3, 4500)).toEqual([1, 10, 100, 1000, 10000]);
    expect(logTicks(0, 10)).toEqual([]);
  });
});

describe("class mix and fitted parameters", () => {
  it("sort shares largest first, names breaking ties", () => {
    expect(classMix({ static: 0.25, dynamic: 0.5, api: 0.25 }).map((m) => m.name)).toEqual(["dynamic", "api", "static"]);
  });

  it("pair each parameter with its 95% interval", () => {
    const fit: FitReport = {
      dist: "pareto",
      params: { alpha: 1.4, scale: 1 },
      aic: 10,
      ks: 0.1,
      n: 100,
      zero_fraction: 0,
      ci95: { alpha: [1.2, 1.6] },
    };
    expect(paramRows(fit)).toEqual([
      { name: "alpha", value: 1.4, low: 1.2, high: 1.6 },
      { name: "scale", value: 1, low: null, high: null },
    ]);
  });
});
