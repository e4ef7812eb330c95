/** The analysis parameters: the form's draft, its validation, stances and a one-line summary. */
import type { Analysis, CapacityParams, ClassReport, Stance } from "../../api/models";
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
}

export const DEFAULT_DRAFT: ParamsDraft = { percentile: "95", stance: "balanced", threshold: "", window: "10" };

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
  return params;
}

export function paramsSummary(a: Pick<Analysis, "params">): string {
  const p = a.params;
  const target = p.threshold_s !== null && p.threshold_s !== undefined ? `T ${formatLatency(p.threshold_s)}` : p.stance;
  return `p${formatDecimal(p.percentile, 1)} · ${target} · ${formatDecimal(p.window_s, 1)} s windows`;
}

/** The threshold each stance gives on this curve (sla.md "Choosing the SLA threshold"). */
export function stanceThresholds(cls: ClassReport, curve: SlaCurve): Record<Stance, number | null> {
  const knee = cls.knee?.load_per_s;
  const bp = cls.breaking_point_per_s;
  return {
    strict: knee === undefined ? null : latencyAt(curve, 0.8 * knee),
    balanced: knee === undefined ? null : latencyAt(curve, knee),
    loose: bp === null ? null : latencyAt(curve, bp),
  };
}

