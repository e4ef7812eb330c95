/** The cost against SLA-violation frontier of a sweep. */
import type { SweepDocument, SweepRow } from "../results";
import { setPath, type Json, type Scenario } from "../scenarioDoc";
import { sweepValueLabel } from "./sweep";

export interface FrontierPoint {
  index: number;
  cost: number;
  /** SLA violation fraction, or the p95 (PLT with pages) when the scenario has no SLA. */
  badness: number;
}

/** Whether the sweep's runs are compared on SLA violations or, without an SLA, on p95 time. */
export function frontierMeasure(doc: SweepDocument): "sla" | "p95" {
  return doc.runs.some((r) => r.sla_violation_fraction !== null) ? "sla" : "p95";
}

export function frontierPoints(doc: SweepDocument): FrontierPoint[] {
  const measure = frontierMeasure(doc);
  return doc.runs.flatMap((r) => {
    const badness = measure === "sla" ? r.sla_violation_fraction : (r.plt_p95_s ?? r.latency_p95_s);
    return r.cost === null || badness === null ? [] : [{ index: r.index, cost: r.cost, badness }];
  });
}

/** The Pareto-optimal points (no other point is both cheaper and better), by rising cost. */
export function paretoFront(points: FrontierPoint[]): FrontierPoint[] {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || a.badness - b.badness);
  const front: FrontierPoint[] = [];
  for (const p of sorted) {
    const last = front[front.length - 1];
    if (last === undefined || p.badness < last.badness) front.push(p);
  }
  return front;
}

/** "autoscaling.upper = 0.8, autoscaling.time_steps = 4" */
export function describeValues(row: Pick<SweepRow, "values">): string {
  return Object.entries(row.values)
    .map(([path, value]) => `${path} = ${sweepValueLabel(value)}`)
    .join(", ");
}

/** The scenario of one point of the sweep: the sweep's values (scenario fragments, JSON) written into its fields. */
export function scenarioAt(scenario: Scenario, values: SweepRow["values"]): Scenario {
  return Object.entries(values).reduce<Scenario>((doc, [path, value]) => setPath(doc, path.split("."), value as Json), scenario);
}

/** Where a sweep's stored run opens. */
export function sweepRunPath(simulationId: number, index: number): string {
  return `/simulations/${simulationId}/runs/${index}`;
}
