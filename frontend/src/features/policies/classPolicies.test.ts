import { describe, expect, it } from "vitest";
import type { RunDocument, RunSummary } from "../simulations/results";
import type { Scenario } from "../simulations/scenarioDoc";
import {
  admissionFor,
  classP95Chart,
  comparisonSweep,
  kChart,
  limitsProblem,
  loadValues,
  orderedClasses,
  partitionSeries,
  presetComparison,
  rejectedNormalChart,
  scenarioProblem,
  verdicts,
  workloadClasses,
  type PolicyRow,
  type PolicySweep,
} from "./classPolicies";

const LIMITS = { maxconn_sla: 5, maxconn: 10, maxconn_static_sla: null, period_s: 10 };

const SCENARIO: Scenario = {
  name: "four classes",
  duration_s: 300,
  workload: {
    arrivals: { rate_per_s: 200 },
    classes: [
      { name: "static_top", share: 0.05, kind: "static", user: "top", service_s: { dist: "exponential", mean: 0.005 } },
      { name: "static_normal", share: 0.45, kind: "static", user: "normal", service_s: { dist: "exponential", mean: 0.005 } },
      { name: "dynamic_top", share: 0.15, kind: "dynamic", user: "top", service_s: { dist: "exponential", mean: 0.05 } },
      { name: "dynamic_normal", share: 0.35, kind: "dynamic", user: "normal", service_s: { dist: "exponential", mean: 0.05 } },
    ],
  },
  sla: { percentile: 95, threshold_s: 1 },
};

/** A fixture row as simulations.documents.sweep_row writes it (admission block x load). */
function row(index: number, policy: string, load: number, p95: Record<string, number>, rejected: Record<string, number>): PolicyRow {
  const classes = Object.fromEntries(Object.keys(p95).map((n) => [n, { latency_p95_s: p95[n] ?? null, plt_p95_s: null, rejected_fraction: rejected[n] ?? 0 }]));
  return {
    index,
    values: { admission: policy === "none" ? { policy } : { policy, maxconn_sla: 5, maxconn: 10, period_s: 10 }, "workload.arrivals.rate_per_s": load },
    classes,
    admission: policy === "none" ? null : { k_mean: 4.2, k_min: 4, k_max: 5 },
    cost: null,
    vm_hours: 0,
    sla_violation_fraction: null,
    rejected_fraction: 0,
    latency_p95_s: null,
    plt_p95_s: null,
    summary: {} as RunSummary,
  };
}

const P95_LOW = { static_top: 0.02, static_normal: 0.02, dynamic_top: 0.26, dynamic_normal: 0.26 };
const DOC: PolicySweep = {
  kind: "sweep",
  axes: [],
  runs: [
    row(1, "none", 300, { static_top: 20, static_normal: 21, dynamic_top: 112, dynamic_normal: 111 }, {}),
    row(0, "none", 100, P95_LOW, {}),
    row(2, "dynamic_part", 100, P95_LOW, {}),
    row(3, "dynamic_part", 300, { static_top: 0.03, static_normal: 0.4, dynamic_top: 0.6, dynamic_normal: 0.9 }, { static_normal: 0.2, dynamic_normal: 0.6 }),
  ],
};

describe("the comparison sweep", () => {
  it("crosses the four admission blocks with the loads", () => {
    const sweep = comparisonSweep([100, 200], LIMITS);
    expect(sweep.path).toBe("admission");
    expect(sweep.values).toEqual([
      { policy: "none" },
      { policy: "switch_adm", maxconn_sla: 5, maxconn: 10, period_s: 10 },
      { policy: "static_part", maxconn_sla: 5, maxconn: 10, period_s: 10 },
      { policy: "dynamic_part", maxconn_sla: 5, maxconn: 10, period_s: 10 },
    ]);
    expect(sweep.second).toEqual({ path: "workload.arrivals.rate_per_s", values: [100, 200] });
    expect(admissionFor("switch_adm", { ...LIMITS, maxconn_static_sla: 20 })).toMatchObject({ maxconn_static_sla: 20 });
  });

  it("spaces the loads evenly and names bad input", () => {
    expect(loadValues(100, 300, 5)).toEqual([100, 150, 200, 250, 300]);
    expect(loadValues(300, 100, 5)).toMatch(/from < to/);
    expect(loadValues(100, 300, 40)).toMatch(/2 and 12/);
    expect(limitsProblem({ ...LIMITS, maxconn_sla: 11 })).toMatch(/≤ MaxConn_D/);
    expect(limitsProblem({ ...LIMITS, maxconn: 2.5 })).toMatch(/whole/);
    expect(limitsProblem(LIMITS)).toBeNull();
  });

  it("needs top and normal classes sharing one rate", () => {
    expect(scenarioProblem(SCENARIO)).toBeNull();
    expect(scenarioProblem({ ...SCENARIO, workload: { arrivals: { rate_per_s: 1 }, service_s: { dist: "constant", value: 1 } } })).toMatch(/one class/);
    const noTop = { ...SCENARIO, workload: { arrivals: { rate_per_s: 1 }, classes: [{ name: "a", share: 1, user: "normal", service_s: { dist: "constant", value: 1 } }] } };
    expect(scenarioProblem(noTop)).toMatch(/top-user/);
  });
});

describe("the charts of a finished comparison", () => {
  const classes = workloadClasses(SCENARIO) ?? [];

  it("reads kind, user and share of each class, top classes first", () => {
    expect(classes.map((c) => c.weight)).toEqual([0.05, 0.45, 0.15, 0.35]);
    expect(orderedClasses(classes).map((c) => c.name)).toEqual(["dynamic_top", "static_top", "dynamic_normal", "static_normal"]);
  });

  it("draws p95 per class against load, a line per policy sorted by load, with the SLA", () => {
    const dynamicTop = classes.find((c) => c.name === "dynamic_top");
    if (dynamicTop === undefined) throw new Error("fixture");
    const { config, series } = classP95Chart(DOC, dynamicTop, 1);
    expect(config.refLines).toEqual([{ key: "sla", label: "SLA 1 s", color: "chart-sla", y: 1 }]);
    expect(series.find((s) => s.key === "none")?.points).toEqual([
      { x: 100, y: 0.26 },
      { x: 300, y: 112 },
    ]);
    expect(series.find((s) => s.key === "dynamic_part")?.points.map((p) => p.y)).toEqual([0.26, 0.6]);
    expect(series.find((s) => s.key === "switch_adm")?.points).toEqual([]);
    expect(config.x.domain).toEqual([100, 300]);
    expect(config.y.domain?.[1]).toBe(1000); // the log axis covers 112 s
  });

  it("weights the normal classes' rejected fractions by their shares", () => {
    const { series } = rejectedNormalChart(DOC, classes);
    const dyn = series.find((s) => s.key === "dynamic_part")?.points ?? [];
    // (0.45 x 0.2 + 0.35 x 0.6) / 0.8 = 0.375
    expect(dyn[1]?.y).toBeCloseTo(0.375, 12);
    expect(dyn[0]?.y).toBe(0);
  });

  it("says which policies hold the top classes' SLA at the highest load", () => {
    const v = verdicts(DOC, classes, 1);
    expect(v.map((x) => [x.policy, x.holds])).toEqual([
      ["none", false],
      ["dynamic_part", true],
    ]);
    expect(v[1]?.text).toContain("37.5% of normal requests rejected");
  });
});

describe("K(t)", () => {
  const run = (t: number[], k: number[]) => ({ kind: "run", admission_series: { kind: "partition", t_s: t, k } }) as unknown as RunDocument;

  it("reads the partition series and draws DynamicPart and StaticPart as steps", () => {
    const dynamic = partitionSeries(run([0, 20, 40, 300], [4, 5, 4, 4]));
    const fixed = partitionSeries(run([0, 300], [4, 4]));
    expect(partitionSeries(null)).toBeNull();
    if (dynamic === null) throw new Error("fixture");
    const { config, series } = kChart(dynamic, fixed, 6);
    expect(series.map((s) => [s.key, s.kind])).toEqual([
      ["dynamic", "step"],
      ["static", "step"],
    ]);
    expect(series[0]?.points).toEqual([
      { x: 0, y: 4 },
      { x: 20, y: 5 },
      { x: 40, y: 4 },
      { x: 300, y: 4 },
    ]);
    expect(config.y.ticks).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(config.x.domain).toEqual([0, 300]);
  });
});

describe("presetComparison", () => {
  it("fills the form from a dataset preset's sweep (its loads' range and the DynamicPart limits)", () => {
    const sweep = comparisonSweep([191.1, 252.8, 298.7, 348.5, 413.6], { maxconn_sla: 5, maxconn: 10, maxconn_static_sla: null, period_s: 10 });
    expect(presetComparison(sweep)).toEqual({
      range: { from: "191.1", to: "413.6", steps: "5" },
      limits: { maxconn_sla: "5", maxconn: "10", maxconn_static_sla: "", period_s: "10" },
    });
  });
  it("is null without a sweep or without a load axis", () => {
    expect(presetComparison(null)).toBeNull();
    expect(presetComparison({ path: "admission", values: [{ policy: "dynamic_part", maxconn_sla: 5, maxconn: 10 }] })).toBeNull();
  });
});
