import { describe, expect, it } from "vitest";
import { windowLatencyChart } from "./runDoc";
import type { RunDocument } from "../results";
import { unreadRates, unreadTicks } from "../resultFixtures";

function runDoc(series: Partial<RunDocument["series"]>, pages = 0): RunDocument {
  return {
    kind: "run",
    summary: { pages } as RunDocument["summary"],
    series: { ...unreadTicks, window_s: 60, window_t_s: [60, 120], window_p95_latency_s: [0.4, 2], window_violated: [false, true], ...series },
    rates: { ...unreadRates, bucket_s: 1, t_s: [120], arrivals_per_s: [1], completions_per_s: [1], rejected_per_s: [0], utilization: [0.5], utilization_max: [0.6] },
    vm_steps: { t_s: [0, 120], allocated_vms: [1, 1], active_vms: [1, 1] },
    actions: [],
    utilization_boxes: [],
    latency_cdf: null,
    plt_cdf: null,
  };
}

describe("latency percentiles per SLA window", () => {
  it("draws p50, the SLA percentile and p99 with the SLA line, violations on the SLA percentile", () => {
    const doc = runDoc({ window_percentile: 95, window_p50_latency_s: [0.1, 0.5], window_p99_latency_s: [0.9, 4] }, 3);
    const { config, series } = windowLatencyChart(doc, 1.5);
    expect(series.map((s) => s.key)).toEqual(["p50", "p95", "p99", "violated"]);
    expect(series.find((s) => s.key === "p99")?.points).toEqual([{ x: 60, y: 0.9 }, { x: 120, y: 4 }]);
    expect(series.find((s) => s.key === "violated")?.points).toEqual([{ x: 120, y: 2 }]);
    expect(series[0]?.label).toBe("p50 page load time");
    expect(config.refLines?.[0]?.y).toBe(1.5);
    expect(config.y.domain?.[1]).toBeCloseTo(4 * 1.08); // up to the highest p99
    expect(windowLatencyChart(doc, 30).config.y.domain?.[1]).toBeCloseTo(30 * 1.08); // up to the SLA line
    expect(config.title).toMatch(/^Percentiles of the page load time/);
  });

  it("names the middle line after the SLA's percentile and never draws a line twice", () => {
    const doc = runDoc({ window_percentile: 99, window_p50_latency_s: [0.1, 0.5], window_p99_latency_s: [0.4, 2] });
    const { series } = windowLatencyChart(doc, null);
    expect(series.map((s) => s.label)).toEqual(["p50 latency", "p99 latency", "Violated windows (1)"]);
  });

  it("shows the SLA percentile alone for runs stored before p50/p99 were kept", () => {
    const { config, series } = windowLatencyChart(runDoc({}), null);
    expect(series.map((s) => s.key)).toEqual(["p95", "violated"]);
    expect(config.title).toBe("p95 latency per 60 s window");
    expect(config.refLines).toEqual([]);
  });
});
