import { memo, useId, useMemo } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "./CurveChart.module.css";
import {
  curveRows,
  curveYMax,
  niceTicks,
  type CurveChartConfig,
  type CurveMark,
  type CurveRange,
  type CurveRow,
  type CurveSeries,
} from "./curveConfig";
import { ThresholdHandle, type ThresholdConfig } from "./ThresholdHandle";
import { colorVar } from "./tokens";
import tsStyles from "./TimeSeriesChart.module.css";

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

interface TooltipProps {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
}

function CurveTooltip({ config, active, payload }: TooltipProps & { config: CurveChartConfig }) {
  const row = payload?.[0]?.payload as CurveRow | undefined;
  if (active !== true || row === undefined) return null;
  const lines = config.series.filter((s) => typeof row[s.key] === "number");
  const band = config.band;
  const low = band === undefined ? null : row[band.lowKey];
  const high = band === undefined ? null : row[band.highKey];
  return (
    <div className={tsStyles.tooltip}>
      <div className={tsStyles.tooltipTime}>{config.xUnit(row.x)}</div>
      {lines.map((s) => (
        <div key={s.key} className={tsStyles.tooltipRow}>
          <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
          <span className={tsStyles.tooltipLabel}>{s.label}</span>
          <span className={tsStyles.tooltipValue}>{config.yUnit(row[s.key] ?? 0)}</span>
        </div>
      ))}
      {typeof low === "number" && typeof high === "number" && band !== undefined && (
        <div className={tsStyles.tooltipRow}>
          <span className={tsStyles.swatch} style={{ background: colorVar(band.color) }} />
          <span className={tsStyles.tooltipLabel}>{band.label}</span>
          <span className={tsStyles.tooltipValue}>
            {config.yUnit(low)} – {config.yUnit(high)}
          </span>
        </div>
      )}
    </div>
  );
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

function renderRange(r: CurveRange) {
  const color = colorVar(r.color);
  return <ReferenceArea key={r.id} x1={r.x1} x2={r.x2} fill={color} fillOpacity={0.3} stroke="none" ifOverflow="hidden" />;
}

function swatchClass(s: CurveSeries): string | undefined {
  if (s.dashed === true) return styles.dashSwatch;
  return s.points === true ? styles.dotSwatch : tsStyles.swatch;
}

function renderSeries(s: CurveSeries) {
  const color = colorVar(s.color);
  return (
    <Line
      key={s.key}
      dataKey={s.key}
      name={s.label}
      type={s.step === true ? "stepAfter" : "linear"}
      stroke={s.points === true ? "none" : color}
      strokeWidth={2}
      strokeDasharray={s.dashed === true ? "6 4" : undefined}
      dot={s.points === true ? { r: 3.5, fill: color, stroke: "none" } : s.step === true || s.dots === false ? false : { r: 2.5, fill: color }}
      activeDot={s.points === true ? { r: 5 } : undefined}
      isAnimationActive={false}
      connectNulls={false}
    />
  );
}

function Legend({ config }: { config: CurveChartConfig }) {
  return (
    <ul className={tsStyles.legend} aria-label="Series">
      {config.series.map((s) => (
        <li key={s.key} className={tsStyles.legendItem}>
          <span className={swatchClass(s)} style={{ borderColor: colorVar(s.color), background: s.dashed === true ? undefined : colorVar(s.color) }} />
          {s.label}
        </li>
      ))}
      {(config.ranges ?? []).map((r) => (
        <li key={r.id} className={tsStyles.legendItem}>
          <span className={tsStyles.swatch} style={{ background: colorVar(r.color), opacity: 0.35 }} />
          {r.label}
        </li>
      ))}
      {config.band !== undefined && (
        <li className={tsStyles.legendItem}>
          <span className={tsStyles.swatch} style={{ background: colorVar(config.band.color) }} />
          {config.band.label}
        </li>
      )}
    </ul>
  );
}

/**
 * The one wrapper for charts of a value against load: lines, an optional band, marks and a threshold handle.
 * Memoised: a chart whose config and rows are unchanged does not re-render when its page does.
 */
export const CurveChart = memo(function CurveChart({ config, rows, height = 320, yMax, threshold, fixedWidth, xMax }: CurveChartProps) {
  const titleId = useId();
  const descId = useId();
  const data = useMemo(() => curveRows(rows), [rows]);
  const yTicks = niceTicks(yMax ?? curveYMax(config, data) * 1.05);
  const top = yTicks[yTicks.length - 1] ?? 1;
  const xTicks = niceTicks(xMax ?? (data.length > 0 ? (data[data.length - 1]?.x ?? 1) : 1), 6);
  const xTop = xTicks[xTicks.length - 1] ?? 1;
  const axisTick = { fill: colorVar("chart-axis"), fontSize: 12 };
  const band = config.band;
  const chart = (
    <ComposedChart data={data} title={config.title} width={fixedWidth} height={fixedWidth === undefined ? undefined : height} margin={{ top: 20, right: 16, bottom: 16, left: 4 }}>
      <CartesianGrid stroke={colorVar("chart-grid")} />
      <XAxis
        dataKey="x"
        type="number"
        domain={[0, xTop]}
        ticks={xTicks}
        tickFormatter={(v: number) => (config.xAxisUnit ?? config.xUnit)(v)}
        tick={axisTick}
        stroke={colorVar("chart-axis")}
        tickMargin={6}
        label={{ value: config.xLabel, position: "insideBottom", offset: -10, style: axisTick }}
      />
      <YAxis
        type="number"
        domain={[0, top]}
        ticks={yTicks}
        allowDataOverflow
        tickFormatter={(v: number) => (config.yAxisUnit ?? config.yUnit)(v)}
        tick={axisTick}
        stroke={colorVar("chart-axis")}
        width={72}
        label={{ value: config.yLabel, angle: -90, position: "insideLeft", offset: 4, style: { ...axisTick, textAnchor: "middle" } }}
      />
      <Tooltip content={(props: TooltipProps) => <CurveTooltip config={config} {...props} />} />
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
      {(config.ranges ?? []).map(renderRange)}
      {config.series.map(renderSeries)}
      {config.marks.map(renderMark)}
      {threshold !== undefined && <ThresholdHandle {...threshold} />}
    </ComposedChart>
  );
  return (
    <figure className={tsStyles.figure} aria-labelledby={titleId} aria-describedby={descId} data-testid={config.id}>
      <figcaption className={tsStyles.head}>
        <div>
          <div id={titleId} className={tsStyles.title}>
            {config.title}
          </div>
          <div id={descId} className={tsStyles.desc}>
            {config.description}
          </div>
        </div>
        <Legend config={config} />
      </figcaption>
      <div className={styles.plot} style={{ height }}>
        {fixedWidth === undefined ? (
          <ResponsiveContainer width="100%" height="100%">
            {chart}
          </ResponsiveContainer>
        ) : (
          chart
        )}
      </div>
    </figure>
  );
});
