/** The typed description of a chart of values against a numeric x (histograms, profiles). */
import { CHART_COLOR_TOKENS, type ColorToken } from "../../charts/tokens";
import type { Formatter } from "../../lib/format";

export interface XYSeries {
  key: string;
  label: string;
  color: ColorToken;
  /** "step": a filled histogram (each row's value holds until the next row); "line": a curve. */
  kind: "step" | "line";
}

export interface XYChartConfig {
  /** Also the element's data-testid. */
  id: string;
  title: string;
  description: string;
  xLabel: string;
  yLabel: string;
  xUnit: Formatter;
  yUnit: Formatter;
  xAxisUnit?: Formatter;
  yAxisUnit?: Formatter;
  logX?: boolean;
  xTicks?: number[];
  series: XYSeries[];
}

export type XYRow = { x: number } & Record<string, number | null>;

export function validateXYConfig(config: XYChartConfig): string[] {
  const problems: string[] = [];
  if (config.series.length === 0) problems.push(`${config.id}: no series`);
  for (const s of config.series) {
    if (!(CHART_COLOR_TOKENS as readonly string[]).includes(s.color)) problems.push(`${config.id}: unknown colour token ${s.color}`);
  }
  return problems;
}

/** Rows a log axis can draw (x > 0), sorted by x. */
export function drawableRows(rows: readonly XYRow[], logX: boolean): XYRow[] {
  return rows.filter((r) => Number.isFinite(r.x) && (!logX || r.x > 0)).sort((a, b) => a.x - b.x);
}
