/** The analysis parameters: the form's draft, its validation, stances and a one-line summary. */
import type { Analysis, CapacityParams, ClassReport, SctParams, Stance } from "../../api/models";
import { formatDecimal, formatLatency } from "../../lib/format";
import { latencyAt, type SlaCurve } from "./slaMath";

export const STANCES: { value: Stance; label: string; hint: string }[] = [
  { value: "strict", label: "Strict", hint: "latency at 0.8 × the knee load" },
  { value: "balanced", label: "Balanced", hint: "latency at the knee" },
  { value: "loose", label: "Loose", hint: "latency at the breaking point" },
];

export interface ParamsDraft {
  percentile: string;
  stance: Stance;
  threshold: string;
  window: string;
  servers: string;
}

export const DEFAULT_DRAFT: ParamsDraft = { percentile: "95", stance: "balanced", threshold: "", window: "10", servers: "" };

/** The form controls a notice can point at (ids of their inputs). */
export const THRESHOLD_FIELD_ID = "capacity-threshold";
export const SERVERS_FIELD_ID = "capacity-servers";

/** The draft as API parameters, or the first problem found (naming the field). */
export function draftToParams(d: ParamsDraft): CapacityParams | string {
  const percentile = Number(d.percentile);
  if (d.percentile.trim() === "" || !(percentile >= 50 && percentile <= 99.9)) return "Percentile must be between 50 and 99.9.";
  const window = Number(d.window);
  if (d.window.trim() === "" || !(window >= 1 && window <= 3600)) return "Window must be between 1 and 3600 seconds.";
  const params: CapacityParams = { percentile, stance: d.stance, window_s: window };
  if (d.threshold.trim() !== "") {
    const t = Number(d.threshold);
    if (!(t > 0 && t <= 3600)) return "Threshold must be more than 0 and at most 3600 seconds.";
    params.threshold_s = t;
  }
  if (d.servers.trim() !== "") {
    const c = Number(d.servers);
    if (!(Number.isInteger(c) && c >= 1 && c <= 10000)) return "Servers must be a whole number from 1 to 10000.";
    params.model_servers = c;
  }
  return params;
}

/** A run's parameters in a line. `windows`: what the load windows are when the dataset fixes
 * them (a Prometheus source's step intervals), instead of the run's unused window length. */
export function paramsSummary(a: Pick<Analysis, "params">, windows?: string): string {
  const p = a.params;
  if (p.kind === "sct") {
    const span = p.window_s === null ? "whole trace" : `last ${formatDecimal(p.window_s, 0)} s`;
    return `${formatDecimal(p.interval_ms, 0)} ms intervals · ${span}`;
  }
  const target = p.threshold_s !== null && p.threshold_s !== undefined ? `T ${formatLatency(p.threshold_s)}` : p.stance;
  return `p${formatDecimal(p.percentile, 1)} · ${target} · ${windows ?? `${formatDecimal(p.window_s, 1)} s windows`}`;
}

/** The threshold each stance gives on this curve (docs/methods/capacity.md "Choosing the threshold"). */
export function stanceThresholds(cls: ClassReport, curve: SlaCurve): Record<Stance, number | null> {
  const knee = cls.knee?.load_per_s;
  const bp = cls.breaking_point_per_s;
  return {
    strict: knee === undefined ? null : latencyAt(curve, 0.8 * knee),
    balanced: knee === undefined ? null : latencyAt(curve, knee),
    loose: bp === null ? null : latencyAt(curve, bp),
  };
}

export interface SctDraft {
  interval: string;
  window: string;
}

/** The draft as API parameters, or the first problem found (naming the field). */
export function sctDraftToParams(d: SctDraft): SctParams | string {
  const interval = Number(d.interval);
  if (d.interval.trim() === "" || !(interval >= 1 && interval <= 10000)) return "Interval must be between 1 and 10000 ms.";
  if (d.window.trim() === "") return { interval_ms: interval, window_s: null };
  const window = Number(d.window);
  if (!(window > 0 && window <= 86400)) return "Window must be more than 0 and at most 86400 seconds (or empty for the whole trace).";
  return { interval_ms: interval, window_s: window };
}

/** Latency traces (CSV or JSON lines) are what the SCT model reads; access logs are not. */
export function isTraceFormat(format: string | null): boolean {
  return format !== null && (format.startsWith("trace_csv") || format.startsWith("trace_jsonl"));
}
