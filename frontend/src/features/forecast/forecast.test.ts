import { describe, expect, it } from "vitest";
import { cyclesWords, dayWords, forecastSeries, type Forecasted, limitLabel, runwayWords } from "./forecast";

function doc(over: Partial<Forecasted> = {}): Forecasted {
  return {
    dataset_id: 1,
    horizon_days: 28,
    interval: 0.8,
    forecast: [
      { t: "2026-03-02T00:00:00Z", rate_per_s: 300, lo: 250, hi: 350 },
      { t: "2026-03-02T01:00:00Z", rate_per_s: 420, lo: 380, hi: 470 },
    ],
    history: [{ t: "2026-03-01T23:00:00Z", rate_per_s: 290 }],
    peak_per_s: 420,
    growth: { per_week: 0.031 },
    seasonality: { daily: true, weekly: true },
    runway: { limit_per_s: 412, date: "2026-03-14", limit_source: "given" },
    backtest: { mape: 0.05, hours: 100 },
    warnings: [],
    peak_week_scenario: {},
    ...over,
  };
}

describe("the runway in words", () => {
  it("names the limit and the day, with its year", () => {
    expect(runwayWords(doc())).toBe("At this growth (+3.1% a week) the peak passes 412 req/s on 14 March 2026.");
  });
  it("gives the year of a day in a later year than the forecast's start", () => {
    const runway = { limit_per_s: 412, date: "2027-03-14", limit_source: "given" };
    expect(runwayWords(doc({ runway }))).toBe("At this growth (+3.1% a week) the peak passes 412 req/s on 14 March 2027.");
    expect(dayWords("2027-01-05")).toBe("5 January 2027");
  });
  it("says the peak stays under the limit when no day passes it", () => {
    const runway = { limit_per_s: 1000, date: null, limit_source: "given" };
    expect(runwayWords(doc({ runway }))).toBe("At this growth (+3.1% a week) the peak stays under 1000 req/s for the next 28 days.");
  });
  it("asks for a limit when none is known", () => {
    const runway = { limit_per_s: null, date: null, limit_source: null };
    expect(runwayWords(doc({ runway }))).toMatch(/No limit is known/);
  });
});

describe("the chart's series", () => {
  it("puts history, median and the interval's edges at their hours", () => {
    const series = forecastSeries(doc());
    expect(series.map((s) => s.key)).toEqual(["history", "forecast", "hi", "lo", "limit"]);
    expect(series[1]?.points[1]).toEqual({ x: Date.UTC(2026, 2, 2, 1), y: 420 });
    expect(series[3]?.points.map((p) => p.y)).toEqual([250, 380]);
  });
  it("draws the limit over history and forecast, named in the legend, not on the plot", () => {
    const limit = forecastSeries(doc()).find((s) => s.key === "limit");
    expect(limit?.label).toBe(limitLabel(412));
    expect(limit?.label).toBe("Limit (412 req/s)");
    expect(limit?.hideInLegend).toBeUndefined();
    expect(limit?.points).toEqual([Date.UTC(2026, 2, 1, 23), Date.UTC(2026, 2, 2, 0), Date.UTC(2026, 2, 2, 1)].map((x) => ({ x, y: 412 })));
    const none = { limit_per_s: null, date: null, limit_source: null };
    expect(forecastSeries(doc({ runway: none })).map((s) => s.key)).not.toContain("limit");
  });
  it("words the cycles found", () => {
    expect(cyclesWords(doc())).toBe("daily and weekly");
    expect(cyclesWords(doc({ seasonality: { daily: false, weekly: false } }))).toBe("none");
  });
});
