import { useId, useMemo } from "react";
import {
  Bar,
  ErrorBar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { colorVar } from "../../charts/tokens";
import tsStyles from "../../charts/TimeSeriesChart.module.css";
import styles from "./Simulations.module.css";
import { mergeRows, type Row, type SimChartConfig, type SimSeries, type XY } from "./simChart";

interface SimChartProps {
  config: SimChartConfig;
  series: SimSeries[];
  height?: number;
  /** Called with a clicked point of a "points" series. */
  onPointClick?: (point: XY) => void;
}

interface TooltipProps {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
}

function SimTooltip({ config, series, active, payload }: TooltipProps & { config: SimChartConfig; series: SimSeries[] }) {
  const row = payload?.[0]?.payload as (Row & XY) | undefined;
  if (active !== true || row === undefined) return null;
  const present = (s: SimSeries) => (s.kind === "box" ? row[`${s.key}_base`] : row[s.key]) != null;
  const lines = series.filter((s) => s.kind !== "points" && s.hideInLegend !== true && present(s));
  const formatOf = (s: SimSeries) => (s.axis === "right" && config.y2 !== undefined ? config.y2.format : config.y.format);
  const text = (s: SimSeries) => {
    if (s.kind === "box") return boxText(row, s.key, formatOf(s));
    const v = row[s.key];
    return Array.isArray(v) ? `${formatOf(s)(v[0])} – ${formatOf(s)(v[1])}` : formatOf(s)(v as number);
  };
  return (
    <div className={tsStyles.tooltip}>
      <div className={tsStyles.tooltipTime}>{config.x.format(row.x)}</div>
      {lines.length === 0 && typeof row.y === "number" && <div className={tsStyles.tooltipRow}>{config.y.format(row.y)}</div>}
      {lines.map((s) => (
        <div key={s.key} className={tsStyles.tooltipRow}>
          <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
          <span className={tsStyles.tooltipLabel}>{s.label}</span>
          <span className={tsStyles.tooltipValue}>{text(s)}</span>
        </div>
      ))}
    </div>
  );
}

function boxText(row: Row, key: string, format: (v: number) => string): string {
  const q1 = row[`${key}_base`] as number;
  const median = q1 + (row[`${key}_low`] as number);
  const q3 = median + (row[`${key}_high`] as number);
  const [down, up] = row[`${key}_whisker`] as [number, number];
  return `${format(q3 - down)} · ${format(q1)} · ${format(median)} · ${format(q3)} · ${format(q3 + up)}`;
}

function renderSeries(s: SimSeries, onPointClick?: (point: XY) => void) {
  const color = colorVar(s.color);
  const yAxisId = s.axis ?? "left";
  const common = { key: s.key, name: s.label, yAxisId, isAnimationActive: false };
  if (s.kind === "points") {
    // Our own circle carries the click: the point's data comes back exactly as given.
    const shape = (props: { cx?: number; cy?: number; payload?: XY }) => (
      <circle
        className="sim-point"
        cx={props.cx}
        cy={props.cy}
        r={5}
        fill={color}
        stroke="white"
        strokeWidth={1}
        style={onPointClick === undefined ? undefined : { cursor: "pointer" }}
        onClick={onPointClick === undefined || props.payload === undefined ? undefined : () => onPointClick(props.payload as XY)}
      />
    );
    return <Scatter {...common} data={s.points} dataKey="y" fill={color} shape={shape} />;
  }
  if (s.kind === "box") {
    const bar = { yAxisId, stackId: s.key, isAnimationActive: false, barSize: 12 };
    return [
      <Bar key={`${s.key}_base`} {...bar} dataKey={`${s.key}_base`} fill="transparent" />,
      <Bar key={`${s.key}_low`} {...bar} dataKey={`${s.key}_low`} fill={color} fillOpacity={0.3} stroke={color} />,
      <Bar key={`${s.key}_high`} {...bar} dataKey={`${s.key}_high`} fill={color} fillOpacity={0.3} stroke={color}>
        <ErrorBar dataKey={`${s.key}_whisker`} direction="y" stroke={colorVar("chart-axis")} width={8} />
      </Bar>,
    ];
  }
  return (
    <Line
      {...common}
      dataKey={s.key}
      type={s.kind === "step" ? "stepAfter" : "linear"}
      stroke={color}
      strokeWidth={s.kind === "step" && s.dashed !== true ? 2.4 : 1.6}
      strokeDasharray={s.dashed === true ? "5 4" : undefined}
      dot={false}
      // a hover dot would sit on top of a clickable point and swallow its click
      activeDot={onPointClick === undefined ? undefined : false}
      connectNulls
    />
  );
}

/** The one wrapper for the simulation charts: step functions, lines, ranges (box plots), points. */
export function SimChart({ config, series, height = 300, onPointClick }: SimChartProps) {
  const titleId = useId();
  const descId = useId();
  const rows = useMemo(() => mergeRows(series), [series]);
  const axisTick = { fill: colorVar("chart-axis"), fontSize: 12 };
  const { x, y, y2 } = config;
  const yAxis = (id: "left" | "right", axis: NonNullable<SimChartConfig["y2"]>) => (
    <YAxis
      yAxisId={id}
      orientation={id}
      type="number"
      scale={axis.scale ?? "linear"}
      domain={axis.domain ?? [0, "auto"]}
      ticks={axis.ticks}
      allowDataOverflow={axis.domain !== undefined}
      tickFormatter={(v: number) => axis.format(v)}
      tick={axisTick}
      stroke={colorVar("chart-axis")}
      width={70}
      label={{ value: axis.label, angle: id === "left" ? -90 : 90, position: id === "left" ? "insideLeft" : "insideRight", style: { ...axisTick, textAnchor: "middle" } }}
    />
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
        <ul className={tsStyles.legend} aria-label="Series">
          {series
            .filter((s) => s.hideInLegend !== true)
            .map((s) => (
              <li key={s.key} className={tsStyles.legendItem}>
                <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
                {s.label}
              </li>
            ))}
        </ul>
      </figcaption>
      <div className={[tsStyles.plot, styles.plot].join(" ")} style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 10, right: y2 === undefined ? 20 : 4, bottom: 18, left: 4 }} barGap={-100}>
            <CartesianGrid stroke={colorVar("chart-grid")} />
            <XAxis
              dataKey="x"
              type="number"
              scale={x.scale ?? "linear"}
              domain={x.domain ?? ["dataMin", "dataMax"]}
              ticks={x.ticks}
              allowDataOverflow={x.domain !== undefined}
              tickFormatter={(v: number) => x.format(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              tickMargin={6}
              label={{ value: x.label, position: "insideBottom", offset: -12, style: axisTick }}
            />
            {yAxis("left", y)}
            {y2 !== undefined && yAxis("right", y2)}
            <Tooltip content={(props: TooltipProps) => <SimTooltip config={config} series={series} {...props} />} />
            {/* an empty Scatter would fall back to the chart's rows: leave it out */}
            {series.filter((s) => s.kind !== "points" || s.points.length > 0).map((s) => renderSeries(s, onPointClick))}
            {(config.refLines ?? []).map((r) => (
              <ReferenceLine key={r.key} yAxisId={r.axis ?? "left"} y={r.y} stroke={colorVar(r.color)} strokeDasharray="6 4" label={{ value: r.label, position: "insideTopRight", fill: colorVar(r.color), fontSize: 12 }} />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
