/** Pure shaping of a characterization's chart data into chart rows and configs (tested). */
import type { TimeChartConfig } from "../../charts/config";
import type { ColorToken } from "../../charts/tokens";
import { formatCompact, formatCount, formatDecimal, formatDuration, formatLatency } from "../../lib/format";
import type { ArrivalView, CountHistogram, FittedHistogram, FitReport, PercentileColumns } from "./result";
import type { CurveRow as XYRow } from "../../charts/curveConfig";

export const RESOLUTIONS = [
  { every_s: 1, label: "1 s" },
  { every_s: 10, label: "10 s" },
  { every_s: 60, label: "1 min" },
  { every_s: 3600, label: "1 h" },
] as const;

const CLASS_COLORS: ColorToken[] = ["chart-requests", "chart-throughput", "chart-model", "chart-knee", "chart-sla", "status-3xx"];

/** A stable colour per class name, in the order given (sorted names: stable across tabs). */
export function classColor(index: number): ColorToken {
  return CLASS_COLORS[index % CLASS_COLORS.length] ?? "chart-requests";
}

export function bucketName(everyS: number): string {
  return RESOLUTIONS.find((r) => r.every_s === everyS)?.label ?? formatDuration(everyS);
}

export type ArrivalRow = { t: number; total: number } & Record<string, number>;

/** The one rate unit the arrivals chart uses at a resolution: req/s below a minute, else req/min. */
export function rateUnit(everyS: number): { label: string; perS: number } {
  return everyS < 60 ? { label: "req/s", perS: 1 } : { label: "req/min", perS: 60 };
}

/**
 * Each bucket's rate: its count over the seconds of it the log covers (the server's
 * `rate_per_s`), so the partial first and last buckets are no dips; count / width without it.
 */
export function bucketRatesPerS(view: Pick<ArrivalView, "every_s" | "count" | "rate_per_s">): number[] {
  return view.count.map((c, i) => view.rate_per_s?.[i] ?? c / view.every_s);
}

/** One row per bucket: its start (epoch ms), the total's and each class's rate in `rateUnit`. */
export function arrivalRows(view: ArrivalView): ArrivalRow[] {
  const classes = Object.entries(view.by_class);
  const { perS } = rateUnit(view.every_s);
  const rates = bucketRatesPerS(view);
  return view.t_ms.map((t, i) => {
    const count = view.count[i] ?? 0;
    const rate = (rates[i] ?? 0) * perS;
    // a class's share of the bucket's count, at the bucket's rate
    const scale = count > 0 ? rate / count : 0;
    const row: Record<string, number> = { t, total: rate };
    for (const [name, counts] of classes) row[`class:${name}`] = (counts[i] ?? 0) * scale;
    return row as ArrivalRow;
  });
}

/** A rate on the chart's axis and in its tooltip: 3 significant digits, whole from 100. */
export function formatChartRate(value: number, unit: string): string {
  const shown = Math.abs(value) >= 100 ? formatCount(value) : new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(value);
  return `${shown} ${unit}`;
}

export function arrivalChartConfig(view: ArrivalView): TimeChartConfig<ArrivalRow> {
  const bucket = bucketName(view.every_s);
  const unit = rateUnit(view.every_s).label;
  const thinned = view.downsampled
    ? ` Showing ${formatCount(view.t_ms.length)} of ${formatCount(view.stats.buckets)} buckets (LTTB keeps the peaks).`
    : "";
  return {
    id: "chart-arrivals",
    title: `Request rate per ${bucket}`,
    description: `Requests per ${unit === "req/s" ? "second" : "minute"} in each ${bucket} bucket, over the seconds of it the log covers (the first and last buckets are partial), stacked by request class. Times in UTC.${thinned}`,
    kind: "stacked-area",
    time: (r) => r.t,
    unit: (v) => formatChartRate(v, unit),
    axisUnit: formatCompact,
    yLabel: unit,
    series: Object.keys(view.by_class).map((name, i) => ({
      key: `class:${name}`,
      label: name,
      color: classColor(i),
    })),
  };
}

/** Rows between two indices (inclusive), for a zoomed chart; the whole series without a range. */
export function zoomRows<T>(rows: T[], range: { start: number; end: number } | null): T[] {
  if (range === null) return rows;
  const start = Math.max(0, Math.min(range.start, range.end));
  return rows.slice(start, Math.max(range.start, range.end) + 1);
}

/** The daily profile as rows at each minute of day (x in hours); minutes never seen are left out. */
export function dailyProfileRows(meanPerMin: (number | null)[]): XYRow[] {
  const rows: XYRow[] = [];
  meanPerMin.forEach((v, minute) => {
    if (v !== null) rows.push({ x: minute / 60, mean: v });
  });
  return rows;
}

export function formatHourOfDay(hours: number): string {
  const minutes = Math.round(hours * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A bucket's percentiles; null in the gap rows `withGaps` adds, where the lines break. */
export type LatencyRow = { t: number; count: number; p50_s: number | null; p90_s: number | null; p95_s: number | null; p99_s: number | null; max_s: number | null };

/** A series with at most this many buckets draws a dot at each (a bucket between gaps is
 * no line). */
export const MAX_DOTTED_BUCKETS = 120;

/** Percentile rows per bucket; buckets without a timed request are left out, never drawn as 0. */
export function latencyRows(cols: PercentileColumns): LatencyRow[] {
  const rows: LatencyRow[] = [];
  cols.t_ms.forEach((t, i) => {
    const p = [cols.p50_s[i], cols.p90_s[i], cols.p95_s[i], cols.p99_s[i], cols.max_s[i]];
    if (p.some((v) => v === null || v === undefined)) return;
    const [p50, p90, p95, p99, max] = p as number[];
    rows.push({ t, count: cols.count[i] ?? 0, p50_s: p50 ?? 0, p90_s: p90 ?? 0, p95_s: p95 ?? 0, p99_s: p99 ?? 0, max_s: max ?? 0 });
  });
  return rows;
}

/** The rows with an empty row (nulls) after each bucket the next bucket does not follow, so
 * the lines break over buckets without a timed request instead of joining across them. */
export function withGaps(rows: LatencyRow[], everyS: number): LatencyRow[] {
  const stepMs = everyS * 1000;
  return rows.flatMap((row, i) => {
    const next = rows[i + 1];
    if (next === undefined || next.t <= row.t + stepMs) return [row];
    return [row, { t: row.t + stepMs, count: 0, p50_s: null, p90_s: null, p95_s: null, p99_s: null, max_s: null }];
  });
}

export function latencyChartConfig(everyS: number, scope: string, dots = false): TimeChartConfig<LatencyRow> {
  const bucket = everyS === 60 ? "minute" : formatDuration(everyS);
  return {
    id: "chart-latency-percentiles",
    title: `Latency percentiles per ${bucket}`,
    description: `p50, p90, p95, p99 and maximum response time of the requests in each ${bucket} (${scope}). Times in UTC.`,
    kind: "line",
    dots,
    time: (r) => r.t,
    unit: formatLatency,
    axisUnit: (v) => (v === 0 ? "0" : formatLatency(v)),
    yLabel: "latency",
    series: [
      { key: "p50_s", label: "p50", color: "chart-band" },
      { key: "p90_s", label: "p90", color: "chart-requests" },
      { key: "p95_s", label: "p95", color: "chart-model" },
      { key: "p99_s", label: "p99", color: "chart-knee" },
      { key: "max_s", label: "max", color: "chart-breaking" },
    ],
  };
}

/**
 * A fitted histogram as step rows at the bin edges plus rows at the bin centres carrying the
 * fitted pdf (null elsewhere), so the bars and the density share one x axis (linear or log).
 */
export function histogramRows(h: FittedHistogram): XYRow[] {
  const n = h.counts.length;
  if (n === 0) return [];
  const rows: XYRow[] = [];
  for (let i = 0; i < n; i += 1) {
    const lo = h.edges[i] ?? 0;
    const hi = h.edges[i + 1] ?? lo;
    const density = h.density[i] ?? 0;
    const centre = h.log_x ? Math.sqrt(lo * hi) : (lo + hi) / 2;
    rows.push({ x: lo, density, fitted: null });
    rows.push({ x: centre, density, fitted: h.fitted_pdf?.[i] ?? null });
  }
  rows.push({ x: h.edges[n] ?? 0, density: h.density[n - 1] ?? 0, fitted: null });
  return rows;
}

/** Counts of an integer quantity as step rows (x at each bin's lower edge, one closing row). */
export function countHistogramRows(h: CountHistogram): XYRow[] {
  if (h.counts.length === 0) return [];
  const rows: XYRow[] = h.counts.map((count, i) => ({ x: h.edges[i] ?? 0, count }));
  rows.push({ x: h.edges[h.counts.length] ?? 0, count: h.counts[h.counts.length - 1] ?? 0 });
  return rows;
}

/** Powers of ten covering [lo, hi] (log axes). */
export function logTicks(lo: number, hi: number): number[] {
  if (!(lo > 0) || !(hi >= lo)) return [];
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) ticks.push(10 ** e);
  return ticks;
}

/** Shares sorted largest first. */
export function classMix(shares: Record<string, number>): { name: string; share: number }[] {
  return Object.entries(shares)
    .map(([name, share]) => ({ name, share }))
    .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name));
}

export interface ParamRow {
  name: string;
  value: number;
  low: number | null;
  high: number | null;
}

export function paramRows(fit: FitReport): ParamRow[] {
  return Object.entries(fit.params).map(([name, value]) => {
    const ci = fit.ci95[name];
    return { name, value, low: ci?.[0] ?? null, high: ci?.[1] ?? null };
  });
}

export interface Quantity {
  title: string;
  /** Formats a value of the quantity with its unit. */
  unit: (v: number) => string;
  /** The unit a density is per, e.g. "s" for a time: density = share of values per unit. */
  perUnit: string;
}

const bytes = (v: number) => `${formatCompact(v)} B`;

export const QUANTITIES: Record<string, Quantity> = {
  requests_per_session: { title: "Requests per session", unit: (v) => `${formatDecimal(v, 1)} req`, perUnit: "request" },
  think_time_s: { title: "Think time between pages", unit: formatDuration, perUnit: "s" },
  objects_per_page: { title: "Embedded objects per page", unit: (v) => `${formatDecimal(v, 1)} obj`, perUnit: "object" },
  html_bytes: { title: "Base (HTML) response size", unit: bytes, perUnit: "byte" },
  object_bytes: { title: "Embedded object size", unit: bytes, perUnit: "byte" },
  object_gap_s: { title: "Gap between object requests", unit: formatDuration, perUnit: "s" },
  service_time_s: { title: "Service time (latency at low load)", unit: formatLatency, perUnit: "s" },
};

export function quantity(name: string): Quantity {
  return QUANTITIES[name] ?? { title: name, unit: (v) => formatDecimal(v, 3), perUnit: "unit" };
}

const FAMILY_NAMES: Record<string, string> = {
  lognormal: "lognormal",
  pareto: "Pareto",
  exponential: "exponential",
  weibull: "Weibull",
  gamma: "gamma",
  inverse_gaussian: "inverse Gaussian",
};

export function familyName(dist: string | null): string {
  return dist === null ? "none" : (FAMILY_NAMES[dist] ?? dist);
}
