import { memo, useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceDot, ReferenceLine } from "recharts";
import { ChartFigure, type LegendEntry } from "./ChartFigure";
import type { TooltipRow } from "./config";
import { curveRows, curveYMax, niceTicks, type CurveChartConfig, type CurveMark, type CurveRow, type CurveSeries } from "./curveConfig";
import { spanAreas, tooltip, xAxis, yAxis } from "./elements";
import { ThresholdHandle, type ThresholdConfig } from "./ThresholdHandle";
import { colorVar } from "./tokens";

interface CurveChartProps {
  config: CurveChartConfig;
  rows: readonly CurveRow[];
  height?: number;
  /** The top of the y axis; defaults to the data's maximum plus 5%. */
  yMax?: number;
  threshold?: ThresholdConfig;
  /** Fixed size instead of filling the parent (tests: jsdom has no layout). */
  fixedWidth?: number;
  /** The right end of the x axis; defaults to the last row's x. */
  xMax?: number;
}

function tooltipBody(config: CurveChartConfig, row: CurveRow) {
  const rows: TooltipRow[] = config.series
    .filter((s) => typeof row[s.key] === "number")
    .map((s) => ({ key: s.key, label: s.label, color: s.color, text: config.yUnit(row[s.key] ?? 0) }));
  const band = config.band;
  const low = band === undefined ? null : row[band.lowKey];
  const high = band === undefined ? null : row[band.highKey];
  if (typeof low === "number" && typeof high === "number" && band !== undefined) {
    rows.push({ key: "band", label: band.label, color: band.color, text: `${config.yUnit(low)} – ${config.yUnit(high)}` });
  }
  const x = config.xUnit(row.x);
  return { heading: config.axes === "data" ? `${config.xLabel}: ${x}` : x, rows };
}

// Recharts names a vertical line's label position by the corner of the box that ends at the line.
const LINE_LABEL = {
  top: "insideTopRight",
  left: "insideTopRight",
  right: "insideTopLeft",
  bottom: "insideBottomRight",
} as const;

function renderMark(m: CurveMark) {
  const color = colorVar(m.color);
  const label = { value: m.label, position: m.labelPosition ?? "top", fill: color, fontSize: 12 };
  if (m.y === undefined) {
    const position = LINE_LABEL[m.labelPosition ?? "top"];
    return <ReferenceLine key={m.id} x={m.x} stroke={color} strokeDasharray="4 3" label={{ ...label, position }} />;
  }
  return <ReferenceDot key={m.id} x={m.x} y={m.y} r={5} fill={color} stroke={colorVar("chart-grid")} label={label} />;
}

function renderSeries(s: CurveSeries) {
  const color = colorVar(s.color);
  const common = { dataKey: s.key, name: s.label, stroke: color, isAnimationActive: false };
  if (s.fill === true) return <Area key={s.key} {...common} type="stepAfter" fill={color} fillOpacity={0.35} connectNulls />;
  if (s.smooth === true) return <Line key={s.key} {...common} type="monotone" strokeWidth={2} dot={false} connectNulls />;
  return (
    <Line
      key={s.key}
      {...common}
      type={s.step === true ? "stepAfter" : "linear"}
      stroke={s.points === true ? "none" : color}
      strokeWidth={2}
      strokeDasharray={s.dashed === true ? "6 4" : undefined}
      dot={s.points === true ? { r: 3.5, fill: color, stroke: "none" } : s.step === true || s.dots === false ? false : { r: 2.5, fill: color }}
      activeDot={s.points === true ? { r: 5 } : undefined}
      connectNulls={false}
    />
  );
}

function legendEntries(config: CurveChartConfig): LegendEntry[] {
  const swatch = (s: CurveSeries) => (s.dashed === true ? "dash" : s.points === true ? "dot" : "box");
  return [
    ...config.series.map((s) => ({ key: s.key, label: s.label, color: s.color, swatch: swatch(s) }) as const),
    ...(config.ranges ?? []).map((r) => ({ key: `range-${r.id}`, label: r.label, color: r.color, faded: true })),
    ...(config.band === undefined ? [] : [{ key: "band", label: config.band.label, color: config.band.color }]),
  ];
}

/** x from 0 to a round top at the last row (or xMax), y from 0 to a round top above the data (or yMax). */
function zeroAxes(config: CurveChartConfig, data: readonly CurveRow[], xMax?: number, yMax?: number) {
  const yTicks = niceTicks(yMax ?? curveYMax(config, data) * 1.05);
  const xTicks = niceTicks(xMax ?? (data.length > 0 ? (data[data.length - 1]?.x ?? 1) : 1), 6);
  return {
    x: { domain: [0, xTicks[xTicks.length - 1] ?? 1], ticks: xTicks },
    y: { type: "number", domain: [0, yTicks[yTicks.length - 1] ?? 1], ticks: yTicks, allowDataOverflow: true, width: 72 },
  } as const;
}

/** x over the rows (given ticks, log or linear), y on Recharts' ticks. */
function dataAxes(config: CurveChartConfig) {
  const scale: "log" | "linear" = config.logX === true ? "log" : "linear";
  return { x: { scale, domain: ["dataMin", "dataMax"], ticks: config.xTicks, allowDataOverflow: true }, y: { width: 64 } } as const;
}

/**
 * The chart of values against a numeric x (load, size, time of day): lines, filled steps, an
 * optional band, shaded ranges, marks and a draggable threshold; linear or log x.
 * Memoised: a chart whose config and rows are unchanged does not re-render when its page does.
 */
export const CurveChart = memo(function CurveChart({ config, rows, height = 320, yMax, threshold, fixedWidth, xMax }: CurveChartProps) {
  const data = useMemo(() => curveRows(rows, config.logX === true), [rows, config.logX]);
  const compact = config.axes === "data";
  const axes = compact ? dataAxes(config) : zeroAxes(config, data, xMax, yMax);
  const band = config.band;
  const margin = { top: compact ? 8 : 20, right: 16, bottom: 16, left: 4 };
  return (
    <ChartFigure id={config.id} title={config.title} description={config.description} legend={legendEntries(config)} height={height} fixedSize={fixedWidth !== undefined}>
      <ComposedChart data={data} title={config.title} width={fixedWidth} height={fixedWidth === undefined ? undefined : height} margin={margin}>
        <CartesianGrid stroke={colorVar("chart-grid")} vertical={!compact} />
        {xAxis({ ...axes.x, format: config.xAxisUnit ?? config.xUnit, label: config.xLabel })}
        {yAxis({ ...axes.y, ...(config.yAxisWidth === undefined ? {} : { width: config.yAxisWidth }), format: config.yAxisUnit ?? config.yUnit, label: config.yLabel, labelOffset: 4 })}
        {tooltip((row: CurveRow) => tooltipBody(config, row))}
        {band !== undefined && (
          <Area
            dataKey={(r: CurveRow) => [r[band.lowKey], r[band.highKey]]}
            name={band.label}
            stroke="none"
            fill={colorVar(band.color)}
            fillOpacity={0.35}
            isAnimationActive={false}
            connectNulls={false}
          />
        )}
        {spanAreas((config.ranges ?? []).map((r) => ({ ...r, key: r.id })), 0.3)}
        {config.series.map(renderSeries)}
        {config.marks.map(renderMark)}
        {threshold !== undefined && <ThresholdHandle {...threshold} />}
      </ComposedChart>
    </ChartFigure>
  );
});
