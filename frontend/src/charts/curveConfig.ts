/** The typed description of a curve chart (a value against load, not time), and its pure logic. */
import type { Formatter } from "../lib/format";
import { CHART_COLOR_TOKENS, type ColorToken } from "./tokens";
import { MAX_POINTS, thin } from "./config";

export interface CurveSeries {
  key: string;
  label: string;
  color: ColorToken;
  /** Drawn dashed: model extrapolation, never to be read as measurement. */
  dashed?: boolean;
  /** Dots only, no line: a scatter of measured points. */
  points?: boolean;
  /** A step function (each value holds until the next x), e.g. a server count. */
  step?: boolean;
  /** false: a plain line without a dot at each point (fits and models over many points). */
  dots?: boolean;
  /** A filled step histogram: each row's value holds until the next row. */
  fill?: boolean;
  /** A smooth curve without dots that bridges the rows where it has no value (e.g. a fitted density). */
  smooth?: boolean;
}

/** A shaded band across the plot between two x values, e.g. a recommended range. */
export interface CurveRange {
  id: string;
  label: string;
  color: ColorToken;
  x1: number;
  x2: number;
}

/** A shaded range between two keys of the rows, e.g. a 90% confidence interval. */
export interface CurveBand {
  lowKey: string;
  highKey: string;
  label: string;
  color: ColorToken;
}

/** A labelled mark: a dot at (x, y), or a vertical line at x when y is absent. */
export interface CurveMark {
  id: string;
  label: string;
  color: ColorToken;
  x: number;
  y?: number;
  /** Where the label goes; "top" unless another mark sits there. A vertical line's label
   * stays inside the plot, at the top left of the line ("top", "left"), the top right
   * ("right") or the bottom left ("bottom"). */
  labelPosition?: "top" | "bottom" | "left" | "right";
}

export interface CurveChartConfig {
  /** Also the element's data-testid, e.g. "knee-chart". */
  id: string;
  title: string;
  description: string;
  xLabel: string;
  yLabel: string;
  /** Tooltip formatters with units. */
  xUnit: Formatter;
  yUnit: Formatter;
  /** Short axis tick formatters; default to the units. */
  xAxisUnit?: Formatter;
  yAxisUnit?: Formatter;
  series: CurveSeries[];
  band?: CurveBand;
  marks: CurveMark[];
  ranges?: CurveRange[];
  /** "zero" (default): both axes from 0 on round ticks, x up to the last row (or xMax).
   * "data": x spans the rows, on `xTicks` if given and a log scale if `logX`; y from 0 on
   * Recharts' own ticks; a compact plot whose tooltip names the x quantity (histograms, profiles). */
  axes?: "zero" | "data";
  /** The y axis's width in px (its tick labels and its title); wide tick labels ("12.5 MB/s") need more than the default. */
  yAxisWidth?: number;
  logX?: boolean;
  xTicks?: number[];
}

export type CurveRow = { x: number } & Record<string, number | null>;

export function validateCurveConfig(config: CurveChartConfig): string[] {
  const problems: string[] = [];
  if (config.series.length === 0) problems.push(`${config.id}: no series`);
  const keys = config.series.map((s) => s.key);
  if (new Set(keys).size !== keys.length) problems.push(`${config.id}: duplicate series keys`);
  const tokens = [...config.series.map((s) => s.color), ...config.marks.map((m) => m.color)];
  if (config.band !== undefined) tokens.push(config.band.color);
  for (const r of config.ranges ?? []) tokens.push(r.color);
  for (const t of tokens) {
    if (!(CHART_COLOR_TOKENS as readonly string[]).includes(t)) problems.push(`${config.id}: unknown colour token ${t}`);
  }
  return problems;
}

/** Rows sorted by x (only x > 0 on a log axis), thinned to the chart's point budget. */
export function curveRows(rows: readonly CurveRow[], logX = false): CurveRow[] {
  return thin(
    rows.filter((r) => Number.isFinite(r.x) && (!logX || r.x > 0)).sort((a, b) => a.x - b.x),
    MAX_POINTS,
  );
}

/** The largest value the y axis must show: series, band tops, marks and extra values (e.g. a threshold). */
export function curveYMax(config: CurveChartConfig, rows: readonly CurveRow[], extra: readonly number[] = []): number {
  const keys = config.series.map((s) => s.key);
  if (config.band !== undefined) keys.push(config.band.highKey);
  let top = 0;
  for (const row of rows) {
    for (const k of keys) {
      const v = row[k];
      if (typeof v === "number" && Number.isFinite(v)) top = Math.max(top, v);
    }
  }
  for (const m of config.marks) if (m.y !== undefined) top = Math.max(top, m.y);
  for (const v of extra) if (Number.isFinite(v)) top = Math.max(top, v);
  return top;
}

/** Round axis ticks from 0: a 1, 2, 2.5 or 5 x 10^k step giving at most `max` intervals, the last tick at or above `top`. */
export function niceTicks(top: number, max = 5): number[] {
  if (!(top > 0)) return [0, 1];
  const raw = top / max;
  const base = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * base >= raw * (1 - 1e-9)) ?? 10) * base;
  const n = Math.ceil(top / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}
