import { describe, expect, it } from "vitest";
import type { RunDocument } from "../simulations/results";
import type { Scenario } from "../simulations/scenarioDoc";
import { discoveryChart, formatWait, loadChart, phaseSpans, queueSeries, queueSummary, recommendation, responseChart, waitChart, withoutStage, withQueue } from "./virtualQueue";
import type { QueueSeries } from "../simulations/results";

/** A fixture admission_series as simulations.admission_docs writes it. */
const SERIES: QueueSeries = {
  kind: "virtual_queue",
  epoch_t_s: [8, 16, 24, 32, 40, 48],
  epoch_rate_per_s: [15, 17.25, 19.84, 16, 16.4, 80],
  epoch_goodput_per_s: [15, 17, 19.5, 16, 16.3, 79],
  epoch_response_s: [0.01, 0.011, 0.012, 0.01, 0.01, 0.02],
  epoch_power: [1500, 1545, 1625, 1600, 1630, 3950],
  epoch_phase: ["coarse", "coarse", "stabilise", "fine", "fine", "monitor"],
  epoch_estimate_per_s: [null, null, null, null, null, 80],
  bucket_s: 10,
  bucket_t_s: [10, 20, 30],
  second_offered: [130, 130, 60],
  second_admitted: [80, 80, 60],
  second_dropped: [0, 0, 0],
  wait_mean_s: [2, 40, null],
  wait_max_s: [5, 80, null],
};

const windows = (p95: (number | null)[]) => ({ window_s: 30, window_t_s: p95.map((_, i) => 30 * (i + 1)), window_p95_latency_s: p95, window_violated: p95.map(() => false) });

function doc(p95: number, admission: Record<string, unknown> | null, series: QueueSeries | null, win: (number | null)[]): RunDocument {
  return { kind: "run", summary: { latency_s: { mean: null, median: null, p95, p99: null }, requests: 1000, rejected_fraction: 0 }, series: windows(win), admission, admission_series: series } as unknown as RunDocument;
}

const QUEUED = doc(0.031, { capacity_estimate_per_s: 81.4, converged_at_s: 212, served: 59000, dropped: 0, wait_s: { mean: 20, p95: 70, max: 154 } }, SERIES, [0.02, 0.03, null]);
const BARE = doc(162, null, null, [12, 160, 0]);

describe("the virtual queue runs", () => {
  it("puts a discovering queue in front of the scenario, or no stage", () => {
    const base: Scenario = { name: "s", duration_s: 60, admission: { policy: "static_part", maxconn_sla: 1, maxconn: 2 } };
    expect(withQueue(base, 600).admission).toEqual({ policy: "virtual_queue", capacity: "discover", max_wait_s: 600 });
    expect(withoutStage(base).admission).toEqual({ policy: "none" });
  });

  it("reads the queue's series and summary from the run document only", () => {
    expect(queueSeries(QUEUED)).toBe(SERIES);
    expect(queueSeries(BARE)).toBeNull();
    expect(queueSummary(QUEUED)?.capacity_estimate_per_s).toBe(81.4);
    expect(queueSummary(null)).toBeNull();
  });
});

describe("the discovery chart", () => {
  it("merges consecutive epochs of a phase into spans", () => {
    expect(phaseSpans(SERIES)).toEqual([
      { phase: "coarse", x1: 0, x2: 16 },
      { phase: "stabilise", x1: 16, x2: 24 },
      { phase: "fine", x1: 24, x2: 40 },
      { phase: "monitor", x1: 40, x2: 48 },
    ]);
  });

  it("draws the probe as a step from each epoch's start and the estimate once converged", () => {
    const { series } = discoveryChart(SERIES, 600);
    const probe = series.find((s) => s.key === "probe")?.points ?? [];
    expect(probe.slice(0, 2)).toEqual([
      { x: 0, y: 15 },
      { x: 8, y: 17.25 },
    ]);
    expect(probe[0]?.x).toBe(0);
    expect(series.find((s) => s.key === "estimate")?.points.filter((p) => p.y !== null)).toEqual([{ x: 48, y: 80 }]);
  });
});

describe("waits, load and response time", () => {
  it("keeps the buckets' gaps as gaps and shows drops only when there were any", () => {
    const waits = waitChart(SERIES, 30).series.find((s) => s.key === "max")?.points;
    expect(waits).toEqual([
      { x: 10, y: 5 },
      { x: 20, y: 80 },
      { x: 30, y: null },
    ]);
    expect(loadChart(SERIES, 30).series.map((s) => s.key)).toEqual(["offered", "admitted"]);
    // waits past two minutes: whole-minute ticks up to the longest wait's minute
    expect(waitChart(SERIES, 30).config.y.ticks).toBeUndefined();
    const long = waitChart({ ...SERIES, wait_max_s: [5, 250, null] }, 30).config.y;
    expect(long.ticks).toEqual([0, 60, 120, 180, 240, 300]);
    expect(long.format(240)).toBe("4 min");
    expect(loadChart({ ...SERIES, second_dropped: [0, 3, 0] }, 30).series.map((s) => s.key)).toEqual(["offered", "admitted", "dropped"]);
  });

  it("compares both runs on a log axis spanning their windows and the SLA", () => {
    const { config, series } = responseChart(QUEUED, BARE, 90, 0.5);
    expect(config.y.scale).toBe("log");
    expect(config.y.domain).toEqual([0.01, 1000]);
    // an empty window (0 s) cannot sit on a log axis: it is a gap
    expect(series.find((s) => s.key === "bare")?.points.map((p) => p.y)).toEqual([12, 160, null]);
  });
});

describe("the wait axis", () => {
  it("reads in seconds, then minutes", () => {
    expect([formatWait(0), formatWait(90), formatWait(250), formatWait(1500)]).toEqual(["0 s", "90 s", "4.2 min", "25 min"]);
  });
});

describe("the recommendation", () => {
  it("says C, X and W in the issue's sentence", () => {
    expect(recommendation(QUEUED)).toEqual({
      converged: true,
      text: "A virtual queue with capacity 81.4 req/s keeps response time under 31 ms; the longest wait at your peak would be 2 min 34 s.",
    });
  });

  it("says so when discovery did not converge", () => {
    const r = recommendation(doc(0.05, { capacity_estimate_per_s: null, wait_s: { mean: 0, p95: 0, max: 0 } }, SERIES, []));
    expect(r.converged).toBe(false);
    expect(r.text).toMatch(/did not converge/);
  });
});
