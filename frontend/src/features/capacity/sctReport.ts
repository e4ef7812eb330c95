/**
 * The SCT report of a latency trace (`Analysis.result` of kind sct), typed by the API schema
 * (`SctReportDoc`, backend/headroom/analyses/documents.py).
 */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

export type SctLevel = Schemas["SctLevel"];
export type SctUsl = Schemas["UslFit"];
export type SctServer = Schemas["SctServer"];
export type SctReport = Schemas["SctReportDoc"];

/** The report in an SCT analysis' `result`, or null when it is missing or of another kind. */
export function readSctReport(result: SctReport | Schemas["CapacityReportDoc"] | null | undefined): SctReport | null {
  return result != null && "interval_ms" in result ? result : null;
}

/** X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) (docs/methods/concurrency.md). */
export function uslThroughput(usl: SctUsl, n: number): number | null {
  if (usl.lambda_per_s == null) return null;
  const sigma = usl.sigma ?? 0;
  const kappa = usl.kappa ?? 0;
  return (usl.lambda_per_s * n) / (1 + sigma * (n - 1) + kappa * n * (n - 1));
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
