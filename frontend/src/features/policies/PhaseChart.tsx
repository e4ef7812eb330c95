/** A simulation chart over time with shaded spans behind it (the discovery phases): SimChart's
 * series model (steps and lines from simChart.mergeRows) plus one ReferenceArea per span. */
import { useId, useMemo } from "react";
import { CartesianGrid, ComposedChart, Line, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import tsStyles from "../../charts/TimeSeriesChart.module.css";
import { colorVar, type ColorToken } from "../../charts/tokens";
import { mergeRows, type Row, type SimChartConfig, type SimSeries } from "../simulations/simChart";

export interface Span {
  key: string;
  x1: number;
  x2: number;
  color: ColorToken;
}

interface PhaseChartProps {
  config: SimChartConfig;
  series: SimSeries[];
  spans: Span[];
  /** Legend entries of the spans (one per kind, not per span). */
  spanLegend: { label: string; color: ColorToken }[];
  height?: number;
}

function PhaseTooltip({ config, series, active, payload }: { config: SimChartConfig; series: SimSeries[]; active?: boolean; payload?: readonly { payload?: unknown }[] }) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (active !== true || row === undefined) return null;
  return (
    <div className={tsStyles.tooltip}>
      <div className={tsStyles.tooltipTime}>{config.x.format(row.x)}</div>
      {series
        .filter((s) => typeof row[s.key] === "number")
        .map((s) => (
          <div key={s.key} className={tsStyles.tooltipRow}>
            <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
            <span className={tsStyles.tooltipLabel}>{s.label}</span>
            <span className={tsStyles.tooltipValue}>{config.y.format(row[s.key] as number)}</span>
          </div>
        ))}
    </div>
  );
}

export function PhaseChart({ config, series, spans, spanLegend, height = 320 }: PhaseChartProps) {
  const titleId = useId();
  const descId = useId();
  const rows = useMemo(() => mergeRows(series), [series]);
  const axisTick = { fill: colorVar("chart-axis"), fontSize: 12 };
  const { x, y } = config;
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
          {series.map((s) => (
            <li key={s.key} className={tsStyles.legendItem}>
              <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
              {s.label}
            </li>
          ))}
          {spanLegend.map((s) => (
            <li key={s.label} className={tsStyles.legendItem}>
              <span className={tsStyles.swatch} style={{ background: colorVar(s.color), opacity: 0.35 }} />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <div className={tsStyles.plot} style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 10, right: 20, bottom: 18, left: 4 }}>
            <CartesianGrid stroke={colorVar("chart-grid")} />
            <XAxis
              dataKey="x"
              type="number"
              domain={x.domain ?? ["dataMin", "dataMax"]}
              ticks={x.ticks}
              allowDataOverflow={x.domain !== undefined}
              tickFormatter={(v: number) => x.format(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              tickMargin={6}
              label={{ value: x.label, position: "insideBottom", offset: -12, style: axisTick }}
            />
            <YAxis
              type="number"
              domain={y.domain ?? [0, "auto"]}
              tickFormatter={(v: number) => y.format(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              width={70}
              label={{ value: y.label, angle: -90, position: "insideLeft", style: { ...axisTick, textAnchor: "middle" } }}
            />
            {spans.map((s) => (
              <ReferenceArea key={s.key} x1={s.x1} x2={s.x2} fill={colorVar(s.color)} fillOpacity={0.18} stroke="none" ifOverflow="hidden" />
            ))}
            <Tooltip content={(props: { active?: boolean; payload?: readonly { payload?: unknown }[] }) => <PhaseTooltip config={config} series={series} {...props} />} />
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                type={s.kind === "step" ? "stepAfter" : "linear"}
                stroke={colorVar(s.color)}
                strokeWidth={s.kind === "step" ? 2.4 : 1.6}
                strokeDasharray={s.dashed === true ? "5 4" : undefined}
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
