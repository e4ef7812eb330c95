import { describe, expect, it } from "vitest";
import { cdfChart, costParts, utilizationByVmsChart, windowLatencyChart } from "./runDoc";
import { waitTicks } from "../../policies/virtualQueue";
import type { QueueSeries } from "../results";
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

describe("a spike in the window percentiles", () => {
  it("clips the axis above the bulk and marks the windows above it on its top edge", () => {
    const t = Array.from({ length: 30 }, (_, i) => (i + 1) * 60);
    const p95 = t.map((_, i) => (i === 12 ? 400 : 2)); // one 400 s spike among 2 s windows
    const doc = runDoc({ window_t_s: t, window_p95_latency_s: p95, window_violated: t.map((_, i) => i === 12) });
    const { config, series } = windowLatencyChart(doc, 5);
    const top = config.y.domain?.[1] ?? 0;
    expect(top).toBeCloseTo(5 * 1.15); // the SLA line stays in view, the spike does not set the scale
    expect(series.find((s) => s.key === "above")?.points).toEqual([{ x: 13 * 60, y: top }]);
    expect(config.description).toMatch(/axis stops at/);
  });
});

describe("the PLT CDF axis", () => {
  it("is logarithmic when a long tail reaches 500 s past a few-second median", () => {
    const cdf = { x_s: [1, 2, 3, 4, 500], fraction: [0.2, 0.5, 0.8, 0.95, 1] };
    expect(cdfChart("c", "PLT", [{ label: "a", cdf }]).config.x.scale).toBe("log");
    const narrow = { x_s: [1, 2, 3, 4], fraction: [0.25, 0.5, 0.75, 1] };
    expect(cdfChart("c", "PLT", [{ label: "a", cdf: narrow }]).config.x.scale ?? "linear").toBe("linear");
  });
});

describe("utilisation by allocated VMs", () => {
  it("draws the quartiles per count (not the min-max range)", () => {
    const doc = runDoc({});
    doc.utilization_boxes = [
      { allocated_vms: 4, min: 0, q1: 0.5, median: 0.6, q3: 0.7, max: 1, samples: 10 },
      { allocated_vms: 2, min: 0, q1: 0.7, median: 0.8, q3: 0.9, max: 1, samples: 10 },
    ];
    const { config, series } = utilizationByVmsChart(doc);
    expect(series.map((s) => s.key)).toEqual(["q3", "median", "q1"]);
    expect(series.find((s) => s.key === "median")?.points).toEqual([{ x: 2, y: 0.8 }, { x: 4, y: 0.6 }]);
    expect(config.x.domain).toEqual([1, 5]);
  });
});

describe("the cost's unit", () => {
  it("says it is VM-hours times the scenario's price", () => {
    expect(costParts(370.41, 370.41)).toEqual({ value: "370.41", unit: "price units", hint: "370.4 VM·h × 1 per VM·h" });
    expect(costParts(10, 4).hint).toBe("4 VM·h × 2.5 per VM·h");
    expect(costParts(null, 3).value).toBe("—");
  });
});

describe("the virtual queue's wait axis", () => {
  it("ends on a tick at or above the longest wait", () => {
    const s = { wait_max_s: [30, 1390, 200] } as unknown as QueueSeries; // 23.2 min
    const { domain, ticks } = waitTicks(s);
    expect(domain?.[1]).toBeGreaterThanOrEqual(1390);
    expect(ticks?.[ticks.length - 1]).toBe(domain?.[1]);
  });
});
