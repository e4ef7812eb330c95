/** The typed description of a chart of series that each carry their own points (SimChart), and its pure logic. */
import type { ColorToken } from "./tokens";
import type { Formatter } from "../lib/format";

export interface XY {
  x: number;
  y: number | null;
  /** Five-number summary of a "box" series (y unused). */
  box?: { min: number; q1: number; median: number; q3: number; max: number };
  /** What a click handler needs back (e.g. the sweep row; not `ref`, which React reserves). */
  tag?: number;
}

export type SeriesKind = "step" | "line" | "box" | "points";

export interface SimSeries {
  key: string;
  label: string;
  color: ColorToken;
  kind: SeriesKind;
  points: XY[];
  axis?: "left" | "right";
  dashed?: boolean;
  hideInLegend?: boolean;
}

export interface SimAxis {
  label: string;
  format: Formatter;
  scale?: "linear" | "log";
  domain?: [number, number];
  ticks?: number[];
}

export interface RefLine {
  key: string;
  label: string;
  color: ColorToken;
  y: number;
  axis?: "left" | "right";
}

export interface SimChartConfig {
  /** Also the element's data-testid. */
  id: string;
  title: string;
  description: string;
  x: SimAxis;
  y: SimAxis;
  y2?: SimAxis;
  refLines?: RefLine[];
}

export type Row = { x: number } & Record<string, number | [number, number] | null>;

/** A box as stacked bars: an invisible base up to q1, q1-median, median-q3 (their border is the
 * median), and the whisker as an error bar from q3 down to min and up to max. */
function boxCells(key: string, point: XY | undefined): Record<string, number | [number, number] | null> {
  const b = point?.box;
  if (b === undefined) return { [`${key}_base`]: null, [`${key}_low`]: null, [`${key}_high`]: null, [`${key}_whisker`]: null };
  return {
    [`${key}_base`]: b.q1,
    [`${key}_low`]: b.median - b.q1,
    [`${key}_high`]: b.q3 - b.median,
    [`${key}_whisker`]: [b.q3 - b.min, b.max - b.q3],
  };
}

/** One row per distinct x of the line-like series: step series carry their last value forward
 * (exact for a step function), lines are null between their own points, boxes as boxCells. */
export function mergeRows(series: SimSeries[]): Row[] {
  const merged = series.filter((s) => s.kind !== "points");
  const xs = [...new Set(merged.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const cursors = merged.map(() => 0);
  const last: (number | null)[] = merged.map(() => null);
  return xs.map((x) => {
    const row: Row = { x };
    merged.forEach((s, i) => {
      let hit: XY | undefined;
      while ((cursors[i] ?? 0) < s.points.length && (s.points[cursors[i] ?? 0]?.x ?? Infinity) <= x) {
        hit = s.points[cursors[i] ?? 0];
        cursors[i] = (cursors[i] ?? 0) + 1;
      }
      if (hit !== undefined) last[i] = hit.y;
      if (s.kind === "box") Object.assign(row, boxCells(s.key, hit));
      else row[s.key] = s.kind === "step" ? (last[i] ?? null) : hit !== undefined ? hit.y : null;
    });
    return row;
  });
}

/** Powers of ten covering [low, high] (a log axis's ticks). */
export function decadeTicks(low: number, high: number): number[] {
  if (!(low > 0) || !(high >= low)) return [];
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(low)); e <= Math.ceil(Math.log10(high)); e += 1) ticks.push(Number(`1e${e}`));
  return ticks;
}

/** Ticks on a round step (1, 2, 2.5 or 5 × 10^k) inside [low, high], about `count` of them. */
export function roundTicks(low: number, high: number, count = 5): number[] {
  if (!(high > low)) return Number.isFinite(low) ? [low] : [];
  const raw = (high - low) / count;
  const base = Number(`1e${Math.floor(Math.log10(raw))}`);
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * base >= raw) ?? 10) * base;
  const ticks: number[] = [];
  for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

const TIME_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** Round ticks for a simulated-time axis from 0 to `end_s`. */
export function timeTicksS(endS: number, maxTicks = 8): number[] {
  if (!(endS > 0)) return [0];
  const step = TIME_STEPS_S.find((s) => endS / s <= maxTicks) ?? Math.ceil(endS / maxTicks / 86400) * 86400;
  const ticks: number[] = [];
  for (let t = 0; t <= endS + 1e-9; t += step) ticks.push(t);
  return ticks;
}

function pad(n: number): string {
  return String(Math.floor(n)).padStart(2, "0");
}

/** Simulated time since the start as a clock: "06:00", "00:12:30" below an hour's span. */
export function formatSimClock(seconds: number, withSeconds = false): string {
  const s = Math.max(0, Math.round(seconds));
  const clock = `${pad(s / 3600)}:${pad((s % 3600) / 60)}`;
  return withSeconds ? `${clock}:${pad(s % 60)}` : clock;
}

/** The ticks whose label differs from the previous tick's (a coarse format can print two ticks alike). */
export function dedupTicks(ticks: readonly number[], format: (v: number) => string): number[] {
  const kept: number[] = [];
  let last: string | null = null;
  for (const t of ticks) {
    const label = format(t);
    if (label !== last) kept.push(t);
    last = label;
  }
  return kept;
}

/** Round ticks from `low` whose last tick is at or above `high`, so a domain ending on it holds every value. */
export function ticksCovering(low: number, high: number, count = 5): number[] {
  const ticks = roundTicks(low, high, count);
  if (ticks.length < 2) return ticks;
  const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
  let last = ticks[ticks.length - 1] ?? high;
  while (last < high - step * 1e-9) {
    last = Number((last + step).toPrecision(12));
    ticks.push(last);
  }
  return ticks;
}

/** The q-quantile (0..1) of the values, linear interpolation between order statistics. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (pos - lo);
}

/** A value axis's top: the largest value (and `floor`, e.g. an SLA line) with 8% headroom, unless a few
 * spikes would flatten the rest: when the maximum passes `spikeRatio` × the 90th percentile, the axis
 * stops at 1.5 × that percentile (still showing `floor`) and `clipped` says so. */
export function axisTop(values: readonly number[], floor = 0, spikeRatio = 4): { top: number; clipped: boolean } {
  const finite = values.filter((v) => Number.isFinite(v) && v >= 0);
  const max = Math.max(0, ...finite, floor);
  if (finite.length < 10) return { top: max * 1.08, clipped: false };
  const p90 = quantile(finite, 0.9);
  if (!(p90 > 0) || Math.max(...finite) <= spikeRatio * p90) return { top: max * 1.08, clipped: false };
  const top = Math.max(1.5 * p90, floor * 1.15);
  return top >= max ? { top: max * 1.08, clipped: false } : { top, clipped: true };
}

/** Whether a CDF's values are best read on a log axis: they span over two decades, or the tail
 * (the largest value) lies beyond ten times the median, which a linear axis would squash into its first tenth. */
export function wantsLogAxis(xs: readonly number[], median: number | null): boolean {
  const positive = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (positive.length === 0) return false;
  const low = Math.min(...positive);
  const high = Math.max(...positive);
  if (high / low > 100) return true;
  return median !== null && median > 0 && high / median > 10 && high / low > 10;
}
