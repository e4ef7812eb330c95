/** The typed description every chart is built from, and the pure logic behind the wrapper. */
import type { Formatter } from "../lib/format";
import { CHART_COLOR_TOKENS, type ColorToken } from "./tokens";

export type ChartKind = "line" | "area" | "stacked-area" | "stacked-bar";

/** Keys of Row whose values are numbers (null where the data holds no value: a gap). */
export type NumericKey<Row> = {
  [K in keyof Row]-?: Row[K] extends number | null ? K : never;
}[keyof Row] &
  string;

export interface SeriesConfig<Row> {
  key: NumericKey<Row>;
  label: string;
  color: ColorToken;
  /** A faint dashed line (a reference such as a bucket bound), line charts only. */
  faint?: boolean;
}

export interface TimeChartConfig<Row> {
  /** Also the element's data-testid, e.g. "chart-requests". */
  id: string;
  title: string;
  /** One sentence for screen readers: what is plotted against what. */
  description: string;
  kind: ChartKind;
  /** The x value of a row: an ISO datetime or epoch milliseconds. */
  time: (row: Row) => string | number;
  /** Formats a y value with its unit for tooltips, e.g. "1,234 req/min". */
  unit: Formatter;
  /** Formats y-axis ticks (short); defaults to `unit`. */
  axisUnit?: Formatter;
  yLabel: string;
  series: SeriesConfig<Row>[];
  /** Line charts: a dot at each point (a sparse series, where a point between gaps draws no line). */
  dots?: boolean;
}

/** A series' value is null where the data holds none: lines break there, never drop to 0. */
export type ChartPoint = { t: number } & Record<string, number | null>;

export interface ChartModel {
  points: ChartPoint[];
  spanMs: number;
  /** x-axis ticks on round UTC times (whole minutes, hours, days). */
  ticks: number[];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TICK_STEPS_MS = [
  ...[1, 2, 5, 10, 15, 30].map((n) => n * SECOND),
  ...[1, 2, 5, 10, 15, 30].map((n) => n * MINUTE),
  ...[1, 2, 3, 6, 12].map((n) => n * HOUR),
  ...[1, 2, 7, 14, 28, 56].map((n) => n * DAY),
];

/** At most `maxTicks` ticks (few enough to all fit on a phone-width chart) on multiples of a round step (UTC-aligned: the epoch is a midnight). */
export function timeTicks(startMs: number, endMs: number, maxTicks = 6): number[] {
  if (!(endMs > startMs)) return Number.isFinite(startMs) ? [startMs] : [];
  const span = endMs - startMs;
  const step = TICK_STEPS_MS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
  const ticks: number[] = [];
  for (let t = Math.ceil(startMs / step) * step; t <= endMs; t += step) ticks.push(t);
  return ticks;
}

/** A chart never draws more than this many points; the server downsamples long series. */
export const MAX_POINTS = 4000;

export function validateConfig<Row>(config: TimeChartConfig<Row>): string[] {
  const problems: string[] = [];
  if (config.series.length === 0) problems.push(`${config.id}: no series`);
  const keys = config.series.map((s) => s.key);
  if (new Set(keys).size !== keys.length) problems.push(`${config.id}: duplicate series keys`);
  for (const s of config.series) {
    if (!(CHART_COLOR_TOKENS as readonly string[]).includes(s.color)) {
      problems.push(`${config.id}: unknown colour token ${s.color}`);
    }
  }
  return problems;
}

function toMs(value: string | number): number {
  return typeof value === "number" ? value : Date.parse(value);
}

/** Keeps every k-th row so that at most `max` remain (first and last always kept). */
export function thin<T>(rows: T[], max: number): T[] {
  if (rows.length <= max) return rows;
  const step = Math.ceil(rows.length / max);
  const kept = rows.filter((_, i) => i % step === 0);
  const last = rows[rows.length - 1];
  if (last !== undefined && kept[kept.length - 1] !== last) kept.push(last);
  return kept;
}

/** Rows -> sorted points {t, <series key>: value}; rows with a bad time are dropped. A null
 * value (the data holds none) stays null, a gap; any other non-number counts as 0. */
export function buildChartModel<Row>(config: TimeChartConfig<Row>, rows: Row[]): ChartModel {
  const points: ChartPoint[] = [];
  for (const row of thin(rows, MAX_POINTS)) {
    const t = toMs(config.time(row));
    if (!Number.isFinite(t)) continue;
    const point: Record<string, number | null> = { t };
    for (const s of config.series) {
      const v = row[s.key] as unknown;
      point[s.key] = v === null ? null : typeof v === "number" && Number.isFinite(v) ? v : 0;
    }
    points.push(point as ChartPoint);
  }
  points.sort((a, b) => a.t - b.t);
  const first = points[0]?.t ?? 0;
  const last = points[points.length - 1]?.t ?? 0;
  return { points, spanMs: last - first, ticks: points.length > 0 ? timeTicks(first, last) : [] };
}

export interface TooltipRow {
  key: string;
  label: string;
  color: ColorToken;
  text: string;
}

/** The tooltip lines for one point, in series order, each value with its unit. */
export function tooltipRows<Row>(config: TimeChartConfig<Row>, point: ChartPoint): TooltipRow[] {
  return config.series.map((s) => ({
    key: s.key,
    label: s.label,
    color: s.color,
    text: point[s.key] == null ? "not recorded" : config.unit(point[s.key] ?? 0),
  }));
}

/** A time range [fromMs, toMs). */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** What a key does to a time chart's shown range: arrows move it by a quarter of its span, "+" / "="
 * zoom into its middle half (never below two buckets), "-" zooms out to twice its span, Escape resets.
 * Null for any other key. Ranges are whole buckets. */
export function keyZoom(key: string, view: TimeRange, bucketMs: number): TimeRange | "reset" | null {
  const span = view.toMs - view.fromMs;
  const bucket = bucketMs > 0 ? bucketMs : 1;
  const snap = (t: number) => Math.round(t / bucket) * bucket;
  const shift = Math.max(bucket, snap(span / 4));
  switch (key) {
    case "ArrowLeft":
      return { fromMs: view.fromMs - shift, toMs: view.toMs - shift };
    case "ArrowRight":
      return { fromMs: view.fromMs + shift, toMs: view.toMs + shift };
    case "+":
    case "=": {
      if (span <= 2 * bucket) return null;
      const half = Math.max(2 * bucket, snap(span / 2));
      const from = snap(view.fromMs + (span - half) / 2);
      return { fromMs: from, toMs: from + half };
    }
    case "-":
    case "_": {
      const from = snap(view.fromMs - span / 2);
      return { fromMs: from, toMs: from + 2 * span };
    }
    case "Escape":
      return "reset";
    default:
      return null;
  }
}
