import { useMemo } from "react";
import { Bar, CartesianGrid, ComposedChart, ErrorBar, Line, ReferenceLine, Scatter } from "recharts";
import { ChartFigure, type LegendEntry, type TooltipBody } from "./ChartFigure";
import { spanAreas, tooltip, xAxis, yAxis, type Span } from "./elements";
import { dedupTicks, mergeRows, type Row, type SimAxis, type SimChartConfig, type SimSeries, type XY } from "./simConfig";
import { colorVar, type ColorToken } from "./tokens";

interface SimChartProps {
  config: SimChartConfig;
  series: SimSeries[];
  height?: number;
  /** Called with a clicked point of a "points" series. */
  onPointClick?: (point: XY) => void;
  /** Shaded spans behind the series (e.g. the phases of a run). */
  spans?: Span[];
  /** Legend entries of the spans (one per kind, not per span). */
  spanLegend?: { label: string; color: ColorToken }[];
}

function boxText(row: Row, key: string, format: (v: number) => string): string {
  const q1 = row[`${key}_base`] as number;
  const median = q1 + (row[`${key}_low`] as number);
  const q3 = median + (row[`${key}_high`] as number);
  const [down, up] = row[`${key}_whisker`] as [number, number];
  return `${format(q3 - down)} · ${format(q1)} · ${format(median)} · ${format(q3)} · ${format(q3 + up)}`;
}

function tooltipBody(config: SimChartConfig, series: SimSeries[], row: Row & XY): TooltipBody {
  const present = (s: SimSeries) => (s.kind === "box" ? row[`${s.key}_base`] : row[s.key]) != null;
  const lines = series.filter((s) => s.kind !== "points" && s.hideInLegend !== true && present(s));
  const formatOf = (s: SimSeries) => (s.axis === "right" && config.y2 !== undefined ? config.y2.format : config.y.format);
  const text = (s: SimSeries) => {
    if (s.kind === "box") return boxText(row, s.key, formatOf(s));
    const v = row[s.key];
    return Array.isArray(v) ? `${formatOf(s)(v[0])} – ${formatOf(s)(v[1])}` : formatOf(s)(v as number);
  };
  return {
    heading: config.x.format(row.x),
    rows: lines.map((s) => ({ key: s.key, label: s.label, color: s.color, text: text(s) })),
    note: typeof row.y === "number" ? config.y.format(row.y) : undefined,
  };
}

function renderSeries(s: SimSeries, onPointClick?: (point: XY) => void) {
  const color = colorVar(s.color);
  const yAxisId = s.axis ?? "left";
  const common = { name: s.label, yAxisId, isAnimationActive: false };
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
    return <Scatter key={s.key} {...common} data={s.points} dataKey="y" fill={color} shape={shape} />;
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
      key={s.key}
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

function valueAxis(id: "left" | "right", axis: SimAxis) {
  const { label, format, scale = "linear", domain = [0, "auto"], ticks } = axis;
  return yAxis({ yAxisId: id, orientation: id, type: "number", scale, domain, ticks, allowDataOverflow: axis.domain !== undefined, format, label, width: 70 });
}

function legendEntries(series: SimSeries[], spanLegend: { label: string; color: ColorToken }[]): LegendEntry[] {
  return [
    ...series.filter((s) => s.hideInLegend !== true),
    ...spanLegend.map((s) => ({ key: `span-${s.label}`, label: s.label, color: s.color, faded: true })),
  ];
}

/** The chart of series that each carry their own points over a numeric x (usually simulated time):
 * step functions, lines, ranges (box plots), clickable points, one or two value axes, shaded spans. */
export function SimChart({ config, series, height = 300, onPointClick, spans = [], spanLegend = [] }: SimChartProps) {
  const rows = useMemo(() => mergeRows(series), [series]);
  const { x, y, y2 } = config;
  const xDomain = x.domain ?? ["dataMin", "dataMax"];
  return (
    <ChartFigure id={config.id} title={config.title} description={config.description} legend={legendEntries(series, spanLegend)} height={height} quietFocus>
      <ComposedChart data={rows} margin={{ top: 10, right: y2 === undefined ? 20 : 4, bottom: 18, left: 4 }} barGap={-100}>
        <CartesianGrid stroke={colorVar("chart-grid")} />
        {xAxis({ scale: x.scale ?? "linear", domain: xDomain, ticks: x.ticks === undefined ? undefined : dedupTicks(x.ticks, x.format), allowDataOverflow: x.domain !== undefined, format: x.format, label: x.label, labelOffset: -12 })}
        {valueAxis("left", y)}
        {y2 !== undefined && valueAxis("right", y2)}
        {spanAreas(spans, 0.18, "left")}
        {tooltip((row: Row & XY) => tooltipBody(config, series, row))}
        {/* an empty Scatter would fall back to the chart's rows: leave it out */}
        {series.filter((s) => s.kind !== "points" || s.points.length > 0).map((s) => renderSeries(s, onPointClick))}
        {(config.refLines ?? []).map((r) => (
          <ReferenceLine key={r.key} yAxisId={r.axis ?? "left"} y={r.y} stroke={colorVar(r.color)} strokeDasharray="6 4" label={{ value: r.label, position: "insideTopRight", fill: colorVar(r.color), fontSize: 12 }} />
        ))}
      </ComposedChart>
    </ChartFigure>
  );
}
