/**
 * The SCT report of a latency trace (headroom sct --json; docs/api.md "## Analyses"), typed
 * by hand like the capacity report and read through `readSctReport`.
 */

export interface SctLevel {
  /** Concurrency level (requests inside the server, rounded). */
  n: number;
  throughput_per_s: number;
  response_s: number | null;
  /** Intervals averaged at this level. */
  intervals: number;
}

export interface SctUsl {
  sigma: number;
  kappa: number;
  /** Concurrency of the USL's peak throughput; null when kappa = 0 (no peak). */
  n_star: number | null;
  lambda_per_s?: number;
  rmse_per_s?: number;
}

export interface SctServer {
  q_lower: number | null;
  /** Null: no descent seen, the upper bound is above the observed levels. */
  q_upper: number | null;
  q_max_observed: number | null;
  tp_max_per_s: number | null;
  usl: SctUsl | null;
  /** The three-stage fit's knots (ends and breakpoints). */
  trend: { n: number; throughput_per_s: number }[];
  warnings: string[];
  levels: SctLevel[];
}

export interface SctReport {
  servers: Record<string, SctServer>;
  interval_ms: number | null;
  window_s: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isLevel(value: unknown): value is SctLevel {
  return isRecord(value) && typeof value.n === "number" && typeof value.throughput_per_s === "number";
}

function readServer(value: unknown): SctServer | null {
  if (!isRecord(value) || !Array.isArray(value.levels)) return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((w): w is string => typeof w === "string") : []);
  return {
    ...(value as unknown as SctServer),
    levels: value.levels.filter(isLevel),
    trend: Array.isArray(value.trend) ? (value.trend as SctServer["trend"]) : [],
    warnings: strings(value.warnings),
  };
}

/** The report in an SCT analysis' `result`, or null when it is missing or of another shape. */
export function readSctReport(result: unknown): SctReport | null {
  if (!isRecord(result) || !isRecord(result.servers)) return null;
  const servers: Record<string, SctServer> = {};
  for (const [name, raw] of Object.entries(result.servers)) {
    const server = readServer(raw);
    if (server !== null) servers[name] = server;
  }
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  return { servers, interval_ms: num(result.interval_ms), window_s: num(result.window_s) };
}

/** X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) (docs/methods/concurrency.md). */
export function uslThroughput(usl: SctUsl, n: number): number | null {
  if (usl.lambda_per_s === undefined) return null;
  return (usl.lambda_per_s * n) / (1 + usl.sigma * (n - 1) + usl.kappa * n * (n - 1));
}

/** The piecewise-linear trend at n (linear between knots, flat past the ends). */
export function trendAt(trend: SctServer["trend"], n: number): number | null {
  if (trend.length === 0) return null;
  const first = trend[0];
  const last = trend[trend.length - 1];
  if (first === undefined || last === undefined) return null;
  if (n <= first.n) return first.throughput_per_s;
  if (n >= last.n) return last.throughput_per_s;
  const i = trend.findIndex((k) => k.n >= n);
  const a = trend[i - 1];
  const b = trend[i];
  if (a === undefined || b === undefined) return null;
  return b.n === a.n ? b.throughput_per_s : a.throughput_per_s + ((n - a.n) / (b.n - a.n)) * (b.throughput_per_s - a.throughput_per_s);
}

/** The recommendation as one sentence (docs/methods/concurrency.md step 4). */
export function poolSentence(name: string, s: SctServer): string {
  if (s.q_lower === null) return `${name}: too few concurrency levels to place the best pool size; record a trace with a wider range of load.`;
  const range =
    s.q_upper === null
      ? `sizes up to at least ${s.q_max_observed ?? s.q_lower} keep it (no decline was seen)`
      : `sizes up to ${s.q_upper} keep it, larger ones lose it`;
  return `Set the thread or connection pool of ${name} to ${s.q_lower}: the lowest concurrency at the highest throughput, so the lowest latency; ${range}.`;
}
