/**
 * The capacity report (issue-4 JSON contract, docs/api.md "## Analyses"). The OpenAPI schema
 * types `Analysis.result` as a free-form object, so it is typed here by hand and read through
 * `readCapacityReport`, which checks the parts the UI depends on.
 */

export type Source = "measured" | "model";

export interface CurvePoint {
  load_per_s: number;
  /** The chosen percentile of latency (median over the bin's windows; model value beyond). */
  latency_s: number;
  /** Bootstrap 90% interval of the bin's percentile (measured points only). */
  latency_low_s?: number;
  latency_high_s?: number;
  /** Isotonic (non-decreasing) fit; the SLA figures are read off this for measured points. */
  latency_fit_s?: number;
  throughput_per_s?: number;
  concurrency?: number;
  windows?: number;
  fit_error_rel?: number;
  source: Source;
}

export interface KneePoint {
  load_per_s: number;
  latency_s: number;
  source: Source;
}

export interface SlaTarget {
  percentile: number;
  threshold_s: number;
  max_rate_per_s: number;
  max_conn: number;
  stance: string;
  source: string;
  capped: boolean;
}

export interface ClassReport {
  knee: KneePoint | null;
  breaking_point_per_s: number | null;
  breaking_point_source?: string | null;
  sla: SlaTarget | null;
  max_conn: number | null;
  model?: Record<string, unknown> | null;
  peak_load_per_s: number;
  servers_needed: number | null;
  curve: CurvePoint[];
  warnings: string[];
}

/** The power ratio (goodput / mean latency) of the windows and its cubic fit, for a chart. */
export interface PowerChart {
  points: { load_per_s: number; power_per_s2: number }[];
  /** The cubic in load, highest power first. */
  coefficients: number[];
  load_range_per_s: [number, number];
  peak_load_per_s: number | null;
  r2: number | null;
}

export interface CapacityReport {
  classes: Record<string, ClassReport>;
  capacity: { power_peak_load_per_s: number; r2: number } | null;
  capacity_reason: string | null;
  /** Absent in reports made before the chart data was added. */
  power?: PowerChart | null;
  per_server: boolean;
  servers: string[];
  warnings: string[];
  /** The virtual-queue advice at the power-ratio capacity (site-wide); absent in older reports. */
  virtual_queue?: VirtualQueueAdvice | null;
}

export interface VirtualQueueAdvice {
  capacity_per_s: number;
  latency_s: number;
  latency_source: "measured" | "model" | "beyond the curve";
  percentile: number;
  max_wait_s: number;
  peak_at_s: number;
  refused: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPoint(value: unknown): value is CurvePoint {
  return isRecord(value) && typeof value.load_per_s === "number" && typeof value.latency_s === "number";
}

function readClass(value: unknown): ClassReport | null {
  if (!isRecord(value) || !Array.isArray(value.curve)) return null;
  const curve = value.curve.filter(isPoint);
  const warnings = Array.isArray(value.warnings) ? value.warnings.filter((w) => typeof w === "string") : [];
  return { ...(value as unknown as ClassReport), curve, warnings };
}

/** The report in an analysis' `result`, or null when it is missing or not a capacity report. */
export function readCapacityReport(result: unknown): CapacityReport | null {
  if (!isRecord(result) || !isRecord(result.classes)) return null;
  const classes: Record<string, ClassReport> = {};
  for (const [name, value] of Object.entries(result.classes)) {
    const cls = readClass(value);
    if (cls !== null) classes[name] = cls;
  }
  const warnings = Array.isArray(result.warnings) ? result.warnings.filter((w) => typeof w === "string") : [];
  return {
    classes,
    capacity: isRecord(result.capacity) ? (result.capacity as CapacityReport["capacity"]) : null,
    capacity_reason: typeof result.capacity_reason === "string" ? result.capacity_reason : null,
    per_server: result.per_server === true,
    servers: Array.isArray(result.servers) ? result.servers.filter((s) => typeof s === "string") : [],
    warnings,
    power: readPower(result.power),
    virtual_queue: isRecord(result.virtual_queue) && typeof result.virtual_queue.capacity_per_s === "number" ? (result.virtual_queue as unknown as VirtualQueueAdvice) : null,
  };
}

function readPower(value: unknown): PowerChart | null {
  if (!isRecord(value) || !Array.isArray(value.points) || !Array.isArray(value.coefficients)) return null;
  const points = value.points.filter(
    (p): p is PowerChart["points"][number] => isRecord(p) && typeof p.load_per_s === "number" && typeof p.power_per_s2 === "number",
  );
  return { ...(value as unknown as PowerChart), points };
}
