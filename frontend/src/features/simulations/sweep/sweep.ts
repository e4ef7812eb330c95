/** A sweep as the editor writes it: one field over a list of values, or a grid of two. */
import { parseNumberList } from "../scenarioDoc";
import type { SweepIn } from "../api";

/** Fields worth sweeping, with their units (any dotted path may be typed instead). */
export const SWEEP_FIELDS: { path: string; label: string }[] = [
  { path: "autoscaling.upper", label: "upper threshold (0–1)" },
  { path: "autoscaling.lower", label: "lower threshold (0–1)" },
  { path: "autoscaling.time_steps", label: "time steps averaged" },
  { path: "autoscaling.cooldown_s", label: "cooldown (s)" },
  { path: "autoscaling.step_s", label: "time step (s)" },
  { path: "workload.page.push_fraction", label: "server push (fraction)" },
  { path: "cluster.vms.max", label: "max VMs" },
  { path: "cluster.vms.start", label: "start VMs" },
  { path: "cluster.cores", label: "cores per VM" },
  { path: "cluster.boot_s", label: "boot time (s)" },
];

export interface SweepAxisDraft {
  path: string;
  values: string;
}

export const MAX_SWEEP_RUNS = 100;

/** The request body, or the reason it cannot be sent. */
export function buildSweep(first: SweepAxisDraft, second: SweepAxisDraft | null): SweepIn | string {
  const a = parseAxis(first, "First field");
  if (typeof a === "string") return a;
  const b = second === null ? null : parseAxis(second, "Second field");
  if (typeof b === "string") return b;
  if (b !== null && b.path === a.path) return "The two fields must differ.";
  const runs = a.values.length * (b?.values.length ?? 1);
  if (runs > MAX_SWEEP_RUNS) return `${runs} runs: at most ${MAX_SWEEP_RUNS}.`;
  return { ...a, second: b };
}

function parseAxis(axis: SweepAxisDraft, name: string): { path: string; values: number[] } | string {
  if (!/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(axis.path)) return `${name}: a dotted field path such as autoscaling.upper.`;
  const values = parseNumberList(axis.values);
  if (values === null || values.length === 0) return `${name}: numbers separated by commas.`;
  return { path: axis.path, values };
}

export function runCount(sweep: SweepIn | string): number {
  if (typeof sweep === "string") return 0;
  return sweep.values.length * (sweep.second?.values.length ?? 1);
}

/** A sweep value as a short label: a number or text as is; a block such as an admission
 * stage by its policy name (the comparison sweeps put whole blocks on an axis). */
export function sweepValueLabel(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(sweepValueLabel).join(", ");
  if (typeof value === "object") {
    const policy = (value as Record<string, unknown>).policy;
    return typeof policy === "string" ? policy : JSON.stringify(value);
  }
  if (typeof value === "string") return value;
  return typeof value === "number" || typeof value === "boolean" ? value.toString() : "—";
}
