import { describe, expect, it } from "vitest";
import tokensCss from "../styles/tokens.css?raw";
import { requestsChartConfig, statusChartConfig } from "../features/datasets/summaryCharts";
import { makeSeries } from "../test/fixtures";
import {
  buildChartModel,
  MAX_POINTS,
  thin,
  timeTicks,
  tooltipRows,
  validateConfig,
  type TimeChartConfig,
} from "./config";
import { CHART_COLOR_TOKENS, colorVar, type ColorToken } from "./tokens";

interface Row {
  at: string;
  a: number | null;
  b: number;
}

const config: TimeChartConfig<Row> = {
  id: "chart-test",
  title: "Test",
  description: "A test chart",
  kind: "stacked-area",
  time: (r) => r.at,
  unit: (v) => `${v} things`,
  yLabel: "things",
  series: [
    { key: "a", label: "A", color: "status-2xx" },
    { key: "b", label: "B", color: "status-5xx" },
  ],
};

describe("chart colour tokens", () => {
  it("every token a series may use is defined in tokens.css", () => {
    for (const token of CHART_COLOR_TOKENS) {
      expect(tokensCss).toMatch(new RegExp(`--color-${token}:\\s*#[0-9a-f]{6};`));
    }
  });
  it("refers to colours through CSS variables only", () => {
    expect(colorVar("status-5xx")).toBe("var(--color-status-5xx)");
  });
});

describe("validateConfig", () => {
  it("accepts a well-formed config", () => {
    expect(validateConfig(config)).toEqual([]);
  });
  it("reports duplicate keys, unknown tokens and empty series", () => {
    const bad: TimeChartConfig<Row> = {
      ...config,
      series: [
        { key: "a", label: "A", color: "status-2xx" },
        { key: "a", label: "A again", color: "purple" as ColorToken },
      ],
    };
    expect(validateConfig(bad)).toEqual([
      "chart-test: duplicate series keys",
      "chart-test: unknown colour token purple",
    ]);
    expect(validateConfig({ ...config, series: [] })).toEqual(["chart-test: no series"]);
  });
  it("the dataset page's chart configs are valid", () => {
    expect(validateConfig(requestsChartConfig(60))).toEqual([]);
    const counts = { "1xx": 0, "2xx": 1, "3xx": 0, "4xx": 0, "5xx": 0 };
    expect(validateConfig(statusChartConfig(60, counts))).toEqual([]);
  });
});

describe("buildChartModel", () => {
  it("converts times to epoch ms, sorts, and keeps only the series keys", () => {
    const rows: Row[] = [
      { at: "2026-11-22T00:02:00Z", a: 3, b: 4 },
      { at: "2026-11-22T00:00:00Z", a: 1, b: 2 },
    ];
    const model = buildChartModel(config, rows);
    expect(model.points).toEqual([
      { t: Date.UTC(2026, 10, 22, 0, 0), a: 1, b: 2 },
      { t: Date.UTC(2026, 10, 22, 0, 2), a: 3, b: 4 },
    ]);
    expect(model.spanMs).toBe(120_000);
  });
  it("drops rows with a bad time and zeroes non-finite values", () => {
    const rows = [
      { at: "garbage", a: 1, b: 1 },
      { at: "2026-11-22T00:00:00Z", a: Number.NaN, b: 5 },
    ];
    expect(buildChartModel(config, rows).points).toEqual([{ t: Date.UTC(2026, 10, 22), a: 0, b: 5 }]);
  });
  it("keeps a null value as a gap", () => {
    const rows = [{ at: "2026-11-22T00:00:00Z", a: null, b: 5 }];
    expect(buildChartModel(config, rows).points).toEqual([{ t: Date.UTC(2026, 10, 22), a: null, b: 5 }]);
  });
  it("never hands the chart more than MAX_POINTS points", () => {
    const rows = makeSeries(MAX_POINTS * 2 + 7);
    const model = buildChartModel(requestsChartConfig(60), rows);
    expect(model.points.length).toBeLessThanOrEqual(MAX_POINTS + 1);
    expect(model.points[model.points.length - 1]?.t).toBe(Date.parse(rows[rows.length - 1]?.t ?? ""));
  });
});

describe("timeTicks", () => {
  const h = 3600_000;
  it("puts at most 6 ticks on round UTC hours or days", () => {
    const start = Date.UTC(2015, 4, 17, 10, 5);
    expect(timeTicks(start, start + 83 * h)).toEqual([18, 19, 20].map((d) => Date.UTC(2015, 4, d)));
    const day = timeTicks(start, start + 30 * h);
    expect(day.length).toBeLessThanOrEqual(6);
    expect(day[0]).toBe(Date.UTC(2015, 4, 17, 12));
    for (const t of day) expect(t % (6 * h)).toBe(0);
  });
  it("uses minute steps for short spans and copes with a single point", () => {
    const start = Date.UTC(2026, 0, 1, 9, 1, 30);
    expect(timeTicks(start, start + 20 * 60_000)).toEqual([5, 10, 15, 20].map((m) => Date.UTC(2026, 0, 1, 9, m)));
    expect(timeTicks(start, start)).toEqual([start]);
  });
});

describe("thin", () => {
  it("keeps short inputs as they are and the ends of long ones", () => {
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(thin([0, 1, 2, 3, 4, 5, 6], 3)).toEqual([0, 3, 6]);
    expect(thin([0, 1, 2, 3, 4, 5, 6, 7], 3)).toEqual([0, 3, 6, 7]);
  });
});

describe("tooltipRows", () => {
  it("formats each series value with the config's unit, in series order", () => {
    const rows = tooltipRows(config, { t: 0, a: 12, b: 3 });
    expect(rows).toEqual([
      { key: "a", label: "A", color: "status-2xx", text: "12 things" },
      { key: "b", label: "B", color: "status-5xx", text: "3 things" },
    ]);
  });
  it("says a gap is not recorded rather than 0", () => {
    expect(tooltipRows(config, { t: 0, a: null, b: 0 }).map((r) => r.text)).toEqual(["not recorded", "0 things"]);
  });
  it("requests chart tooltips carry req/min", () => {
    const cfg = requestsChartConfig(60);
    expect(tooltipRows(cfg, { t: 0, rate_per_min: 1234 })[0]?.text).toBe("1,234 req/min");
  });
});

describe("statusChartConfig", () => {
  it("stacks the status classes the log returned, errors at the bottom and 2xx on top", () => {
    const counts = { "1xx": 0, "2xx": 10, "3xx": 0, "4xx": 2, "5xx": 1 };
    const cfg = statusChartConfig(300, counts);
    expect(cfg.kind).toBe("stacked-area");
    expect(cfg.series.map((s) => s.key)).toEqual(["s5xx", "s4xx", "s2xx"]);
    expect(cfg.yLabel).toBe("per 5 min");
    expect(cfg.unit(1500)).toBe("1,500 responses");
  });
});
