import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import { frontierPoints, paretoFront, scenarioAt } from "./sweep/frontier";
import { parseNumberList, fieldErrorOf, getPath, parseYaml, setPath, toYaml, type Scenario } from "./scenarioDoc";
import { fieldSpec, numberProblem, objectFields } from "./editor/fieldSpecs";
import { decadeTicks, formatSimClock, mergeRows, roundTicks, timeTicksS, type SimSeries } from "../../charts/simConfig";
import { buildSweep, runCount } from "./sweep/sweep";
import type { SweepDocument, SweepRow } from "./results";

describe("scenario documents", () => {
  const doc: Scenario = { name: "a", duration_s: 60, cluster: { vms: { min: 1, max: 4 } } };

  it("sets a nested field without touching the original or the key order", () => {
    const next = setPath(doc, ["cluster", "vms", "max"], 8);
    expect(getPath(next, ["cluster", "vms", "max"])).toBe(8);
    expect(getPath(doc, ["cluster", "vms", "max"])).toBe(4);
    expect(Object.keys(setPath(doc, ["name"], "b"))).toEqual(["name", "duration_s", "cluster"]);
  });

  it("creates missing objects, indexes lists, and removes a field set to undefined", () => {
    expect(getPath(setPath(doc, ["sla", "threshold_s"], 2), ["sla"])).toEqual({ threshold_s: 2 });
    const parts = { parts: [[0.5, { dist: "constant", value: 1 }]] };
    expect(getPath(setPath(parts, ["parts", 0, 1, "value"], 3), ["parts", 0, 1])).toEqual({ dist: "constant", value: 3 });
    expect(setPath(doc, ["name"], undefined)).not.toHaveProperty("name");
  });

  it("round-trips through YAML and names the line of a syntax error", () => {
    const parsed = parseYaml(toYaml(doc));
    expect(parsed).toEqual({ ok: true, doc });
    const bad = parseYaml("name: a\ncluster: [1, 2\n");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/line \d/);
    expect(parseYaml("- 1\n- 2\n").ok).toBe(false); // a list is not a scenario
  });

  it("maps a server 422 onto the scenario field, dropping union tags", () => {
    const error = new ApiError(422, "validation_error", "scenario.workload.service_s.uniform.high: high must be >= low", "scenario.workload.service_s.uniform.high");
    expect(fieldErrorOf(error)).toEqual({ path: "workload.service_s.high", message: "high must be >= low" });
    expect(fieldErrorOf(new ApiError(422, "validation_error", "scenario.(document): expected a mapping", "scenario")).path).toBe("");
  });

  it("writes lists of numbers on one line, everything else in blocks", () => {
    const scenario: Scenario = { workload: { arrivals: { profile: [[0, 0.7], [21600, 3.5]] }, service_s: { dist: "mixture", parts: [[1, { dist: "constant", value: 1 }]] } } };
    const text = toYaml(scenario);
    expect(text).toContain("profile:\n      - [0, 0.7]\n      - [21600, 3.5]\n");
    expect(text).toContain("parts:\n      - - 1\n        - dist: constant\n");
    expect(parseYaml(text)).toEqual({ ok: true, doc: scenario });
  });

  it("reads comma-separated numbers", () => {
    expect(parseNumberList("0.6, 0.7,0.8 1e-1")).toEqual([0.6, 0.7, 0.8, 0.1]);
    expect(parseNumberList("0.6, x")).toBeNull();
  });
});

describe("schema fields", () => {
  const schema = {
    $defs: {
      VmCount: { properties: { max: { type: "integer", minimum: 1, maximum: 4096, default: 1 } } },
      Cluster: {
        properties: {
          vms: { $ref: "#/$defs/VmCount" },
          boot_s: { type: "number", minimum: 0, default: 30 },
          pool_limit: { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }], default: null },
          discipline: { enum: ["ps", "fcfs"], type: "string", default: "ps" },
          policy: { const: "x", type: "string" },
        },
      },
    },
  };

  it("reads kinds, units, bounds and nullability; const tags are not fields", () => {
    const fields = objectFields(schema, { $ref: "#/$defs/Cluster" });
    expect(fields.map((f) => [f.name, f.kind, f.unit])).toEqual([
      ["vms", "object", ""],
      ["boot_s", "number", "s"],
      ["pool_limit", "integer", "requests"],
      ["discipline", "enum", ""],
    ]);
    expect(fields[2]?.nullable).toBe(true);
    expect(fields[0]?.children[0]?.max).toBe(4096);
  });

  it("words bound violations as the schema states them", () => {
    const spec = fieldSpec(schema, "max", { type: "integer", minimum: 1, maximum: 4096 }, true);
    expect(spec).not.toBeNull();
    if (spec === null) return;
    expect(numberProblem(spec, 0)).toBe("must be ≥ 1");
    expect(numberProblem(spec, 5000)).toBe("must be ≤ 4096");
    expect(numberProblem(spec, 2.5)).toBe("a whole number");
    expect(numberProblem(spec, null)).toBe("required");
    const positive = fieldSpec(schema, "duration_s", { type: "number", exclusiveMinimum: 0 }, true);
    expect(positive !== null && numberProblem(positive, 0)).toBe("must be > 0");
  });
});

describe("chart data", () => {
  it("carries a step series forward and leaves a line null between its points", () => {
    const series: SimSeries[] = [
      { key: "vms", label: "VMs", color: "chart-knee", kind: "step", points: [{ x: 0, y: 2 }, { x: 10, y: 3 }] },
      { key: "rate", label: "rate", color: "chart-band", kind: "line", points: [{ x: 5, y: 1.5 }] },
      { key: "marks", label: "actions", color: "chart-breaking", kind: "points", points: [{ x: 7, y: 9 }] },
    ];
    expect(mergeRows(series)).toEqual([
      { x: 0, vms: 2, rate: null },
      { x: 5, vms: 2, rate: 1.5 },
      { x: 10, vms: 3, rate: null },
    ]);
  });

  it("stacks a box as base, lower and upper half, with the whisker relative to q3", () => {
    const box = { min: 0.1, q1: 0.2, median: 0.5, q3: 0.7, max: 0.9 };
    const [row] = mergeRows([{ key: "u", label: "u", color: "chart-requests", kind: "box", points: [{ x: 3, y: 0.5, box }] }]);
    expect(row?.u_base).toBeCloseTo(0.2);
    expect(row?.u_low).toBeCloseTo(0.3);
    expect(row?.u_high).toBeCloseTo(0.2);
    const whisker = row?.u_whisker as [number, number];
    expect(0.7 - whisker[0]).toBeCloseTo(0.1);
    expect(0.7 + whisker[1]).toBeCloseTo(0.9);
  });

  it("ticks simulated time on round steps and log axes on decades", () => {
    expect(timeTicksS(86400)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24].map((h) => h * 3600));
    expect(timeTicksS(1200)).toEqual([0, 300, 600, 900, 1200]);
    expect(formatSimClock(21600)).toBe("06:00");
    expect(formatSimClock(754, true)).toBe("00:12:34");
    expect(roundTicks(0.927, 1.99)).toEqual([1, 1.25, 1.5, 1.75]);
    expect(decadeTicks(2e-7, 3)).toEqual([1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10]);
  });
});

function row(index: number, cost: number, sla: number): SweepRow {
  return { index, values: { "autoscaling.upper": index / 10 }, cost, vm_hours: cost, sla_violation_fraction: sla, rejected_fraction: 0, latency_p95_s: 1, plt_p95_s: 2, summary: {} as SweepRow["summary"] };
}

describe("sweeps", () => {
  it("keeps exactly the runs no other run beats on both cost and SLA violations", () => {
    const doc: SweepDocument = { kind: "sweep", axes: [], runs: [row(0, 5, 0), row(1, 3, 0.2), row(2, 4, 0.05), row(3, 4.5, 0.1), row(4, 3, 0.3)] };
    const front = paretoFront(frontierPoints(doc)).map((p) => p.index);
    expect(front).toEqual([1, 2, 0]);
    // invariant: no point dominates a frontier point
    const points = frontierPoints(doc);
    for (const f of paretoFront(points)) {
      expect(points.some((p) => p.cost <= f.cost && p.badness <= f.badness && (p.cost < f.cost || p.badness < f.badness))).toBe(false);
    }
  });

  it("builds a sweep or a grid and refuses bad input with the reason", () => {
    const sweep = buildSweep({ path: "autoscaling.upper", values: "0.6, 0.8" }, { path: "autoscaling.time_steps", values: "1,2,4" });
    expect(sweep).toEqual({ path: "autoscaling.upper", values: [0.6, 0.8], second: { path: "autoscaling.time_steps", values: [1, 2, 4] } });
    expect(runCount(sweep)).toBe(6);
    expect(buildSweep({ path: "bad path", values: "1" }, null)).toMatch(/dotted field path/);
    expect(buildSweep({ path: "a.b", values: "1, two" }, null)).toMatch(/numbers/);
    expect(buildSweep({ path: "a.b", values: Array.from({ length: 11 }, (_, i) => i).join(",") }, { path: "c", values: Array.from({ length: 10 }, (_, i) => i).join(",") })).toMatch(/110 runs/);
  });

  it("writes a point's values into the scenario to open it as a run", () => {
    const scenario: Scenario = { autoscaling: { policy: "threshold", upper: 0.8 } };
    expect(scenarioAt(scenario, { "autoscaling.upper": 0.6, "cluster.vms.max": 5 })).toEqual({
      autoscaling: { policy: "threshold", upper: 0.6 },
      cluster: { vms: { max: 5 } },
    });
  });
});
