/** Recharts elements every chart wrapper shares: axes with unit formatters, the tooltip, shaded spans. */
import { ReferenceArea, Tooltip, XAxis, YAxis, type XAxisProps, type YAxisProps } from "recharts";
import type { Formatter } from "../lib/format";
import { ChartTooltip, type TooltipBody } from "./ChartFigure";
import { colorVar, type ColorToken } from "./tokens";

export const AXIS_TICK = { fill: colorVar("chart-axis"), fontSize: 12 };
const AXIS_STROKE = colorVar("chart-axis");

type XAxisSpec = Omit<XAxisProps, "label" | "tickFormatter" | "format" | "ref"> & {
  /** Formats a tick (short, with its unit where it helps). */
  format: Formatter;
  /** The axis title under the ticks; none when absent. */
  label?: string;
  labelOffset?: number;
};

/** A numeric x axis over the rows' `x` (override with dataKey), ticks in the axis colour. */
export function xAxis({ format, label, labelOffset = -10, ...props }: XAxisSpec) {
  return (
    <XAxis
      dataKey="x"
      type="number"
      tickFormatter={(v: number) => format(v)}
      tick={AXIS_TICK}
      stroke={AXIS_STROKE}
      tickMargin={6}
      label={label === undefined ? undefined : { value: label, position: "insideBottom", offset: labelOffset, style: AXIS_TICK }}
      {...props}
    />
  );
}

type YAxisSpec = Omit<YAxisProps, "label" | "tickFormatter" | "format" | "orientation" | "ref"> & {
  format: Formatter;
  /** The axis title, written along the axis inside the chart's margin. */
  label: string;
  labelOffset?: number;
  orientation?: "left" | "right";
};

/** A value axis on the left (or right), its title along it. */
export function yAxis({ format, label, labelOffset, orientation = "left", ...props }: YAxisSpec) {
  const left = orientation === "left";
  const title = { value: label, angle: left ? -90 : 90, position: left ? "insideLeft" : "insideRight", style: { ...AXIS_TICK, textAnchor: "middle" } } as const;
  return (
    <YAxis
      orientation={orientation}
      tickFormatter={(v: number) => format(v)}
      tick={AXIS_TICK}
      stroke={AXIS_STROKE}
      label={labelOffset === undefined ? title : { ...title, offset: labelOffset }}
      {...props}
    />
  );
}

interface RechartsTooltipProps {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
}

/** The hover tooltip: `body` turns the hovered row (whatever row type the chart's data has)
 * into the heading and the series rows; `active: false` hides it. */
export function tooltip(body: (row: never) => TooltipBody, active?: boolean) {
  const content = ({ active, payload }: RechartsTooltipProps) => {
    const row = payload?.[0]?.payload;
    return active !== true || row === undefined ? null : <ChartTooltip {...body(row as never)} />;
  };
  // `active: false` hides it (while a drag selects a range, and after it until the pointer moves)
  return <Tooltip content={content} {...(active === false ? { active: false } : {})} />;
}

/** A shaded band across the plot between two x values. */
export interface Span {
  key: string;
  x1: number;
  x2: number;
  color: ColorToken;
}

/** Shaded spans; `yAxisId` must name one of the chart's y axes (Recharts' default id is 0). */
export function spanAreas(spans: readonly Span[], fillOpacity: number, yAxisId: string | number = 0) {
  return spans.map((s) => (
    <ReferenceArea key={s.key} yAxisId={yAxisId} x1={s.x1} x2={s.x2} fill={colorVar(s.color)} fillOpacity={fillOpacity} stroke="none" ifOverflow="hidden" />
  ));
}
