import { describe, expect, it } from "vitest";
import type { CapacityReport, TrafficSummary } from "../../../api/models";
import { differences, figureRows, idsFromSearch, kneeSeries, latencySeries, relativeChange, trafficSeries, type Compared } from "./compare";

function summary(over: Partial<TrafficSummary>): TrafficSummary {
  return {
    bucket_s: 60, bytes_total: null, client_error_rate: null, dataset_id: 1, error_rate: 0.01, first_ts: null, format: "combined",
    format_confidence: 1, last_ts: null, latency: { count: 10, max_s: 1, mean_s: 0.2, p50_s: 0.1, p95_s: 0.4, p99_s: 0.8 },
    mean_rate_per_s: 2, notes: [], peak_bucket_s: 60, peak_rate_per_min: 300, rejected_count: 0, rejects: [], request_count: 1000,
    series: [], skipped_count: 0, span_s: 500, status_counts: null, timestamp_granularity_s: 1, ...over,
  };
}

const knee = (load: number) =>
  ({ classes: { all: { knee: { load_per_s: load, latency_s: 0.3, source: "measured" }, sla: null, curve: [
    { load_per_s: 1, latency_s: 0.1, source: "measured" }, { load_per_s: 2, latency_s: 0.2, source: "model" }, { load_per_s: 3, latency_s: 0.5, source: "measured" },
  ] } } }) as unknown as CapacityReport;

const before: Compared = { id: 1, name: "before", summary: summary({}), latencyP95: null, capacity: knee(40) };
const after: Compared = {
  id: 2, name: "after",
  summary: summary({ latency: { count: 10, max_s: 1, mean_s: 0.2, p50_s: 0.1, p95_s: 0.5, p99_s: 0.8 }, error_rate: null, request_count: 1020 }),
  latencyP95: null, capacity: null,
};

describe("figures side by side", () => {
  it("says 'not recorded' for what a log lacks and 'no capacity analysis' without one", () => {
    const rows = figureRows([before, after]);
    const row = (key: string) => rows.find((r) => r.key === key)?.cells.map((c) => c.text);
    expect(row("error_rate")).toEqual(["1%", "not recorded"]);
    expect(row("knee")).toEqual(["40 req/s", "no capacity analysis"]);
    expect(row("p95")).toEqual(["400 ms", "500 ms"]);
  });

  it("states differences of 5% or more, largest first, with worse or better for latency", () => {
    const words = differences([before, after], figureRows([before, after]));
    // p95 +25% (0.4 -> 0.5); requests +2% stays under 5%; error rate and knee have no pair
    expect(words).toEqual(["Latency p95: after is 25% higher than before (500 ms vs 400 ms) (worse)."]);
    expect(relativeChange({ value: 0, text: "0" }, { value: 3, text: "3" })).toBeNull();
  });
});

describe("series on one axis", () => {
  const t0 = Date.parse("2026-11-02T08:00:00Z");
  const series = (start: number) => [0, 1].map((m) => ({ t: new Date(start + m * 60_000).toISOString(), rate_per_min: 10 + m, requests: 0, s1xx: 0, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 }));
  const a = { ...before, summary: summary({ series: series(t0) }) };
  const b = { ...after, summary: summary({ series: series(t0 + 7 * 86_400_000) }) };

  it("from each start, a week apart lines up at hour 0; by clock it does not", () => {
    const [sa, sb] = trafficSeries([a, b], "start");
    expect(sa?.points.map((p) => p.x)).toEqual([0, 1 / 60]);
    expect(sb?.points.map((p) => p.x)).toEqual([0, 1 / 60]);
    expect(trafficSeries([a, b], "clock")[1]?.points[0]?.x).toBe(t0 + 7 * 86_400_000);
  });

  it("leaves out datasets with no latency, and draws the measured knee curve only", () => {
    const withLatency = { ...a, latencyP95: { t_ms: [t0, t0 + 60_000], p95_s: [0.2, null] } };
    expect(latencySeries([withLatency, b], "start").map((s) => s.points)).toEqual([[{ x: 0, y: 0.2 }, { x: 1 / 60, y: null }]]);
    expect(kneeSeries([a, b])[0]?.points).toEqual([{ x: 1, y: 0.1 }, { x: 3, y: 0.5 }]);
  });
});

describe("ids in the URL", () => {
  it("keeps positive integers once, in order", () => {
    expect(idsFromSearch("3, 7,x,3,-1,0,2.5,9")).toEqual([3, 7, 9]);
    expect(idsFromSearch(null)).toEqual([]);
  });
});
